/**
 * The mock's OAuth side against hostile or unusual input, over real HTTP as a client under test
 * sends it: a PKCE verifier of the wrong form (RFC 7636 section 4.1), scope tokens OAuth forbids
 * (RFC 6749 section 3.3), assertions without `exp` (RFC 7523 section 3, OpenID Connect Core 2),
 * a client assertion whose `aud` is not the issuer alone (rfc7523bis), a registration or a DPoP
 * proof carrying private key material, two client authentications in one token request (RFC 6749
 * section 2.3), and a token request that is not a form (section 3.2). Each is refused with the
 * OAuth error code the RFCs give and a description that says the fix; none reaches a 500.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { describe, expect, test } from "vitest";
import { McpMock, McpMockError } from "../../src/index.js";

const REDIRECT = "http://127.0.0.1:9/cb";
const VERIFIER = "v".repeat(43);
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
const PING = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

const s256 = (verifier: string): string => createHash("sha256").update(verifier).digest("base64url");

function form(mock: McpMock, body: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL("/token", mock.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(body) });
}

async function oauthError(res: Response): Promise<{ status: number; error: string; description: string }> {
  const body = (await res.json()) as { error: string; error_description: string };
  return { status: res.status, error: body.error, description: body.error_description };
}

async function register(mock: McpMock, metadata: Record<string, unknown> = { redirect_uris: [REDIRECT] }): Promise<Response> {
  return fetch(new URL("/register", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(metadata) });
}

/** Registers a public client and authorizes it with `verifier`'s challenge: the redirect's parameters. */
async function authorize(mock: McpMock, verifier: string, extra: Record<string, string> = {}): Promise<{ clientId: string; redirect: URLSearchParams }> {
  const clientId = ((await (await register(mock)).json()) as { client_id: string }).client_id;
  const url = new URL("/authorize", mock.url);
  for (const [k, v] of Object.entries({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: s256(verifier), code_challenge_method: "S256", resource: mock.url, ...extra })) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: "manual" });
  return { clientId, redirect: new URL(res.headers.get("location") as string).searchParams };
}

function ping(mock: McpMock, token: string): Promise<Response> {
  return fetch(mock.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` }, body: PING });
}

describe("PKCE: the code_verifier must be 43 to 128 unreserved characters (RFC 7636 section 4.1)", () => {
  test.each([
    ["too short", "short-verifier"],
    ["too long", "v".repeat(129)],
    ["a character outside the unreserved set", `${"v".repeat(42)}+`],
    ["empty", ""],
  ])("%s: invalid_request even when its S256 matches the challenge, saying the rule", async (_, verifier) => {
    await using mock = await McpMock.start({ auth: true, onUnmatched: "silent" });
    const { clientId, redirect } = await authorize(mock, verifier);
    const res = await form(mock, { grant_type: "authorization_code", code: redirect.get("code") as string, redirect_uri: REDIRECT, code_verifier: verifier, client_id: clientId });
    const refused = await oauthError(res);
    expect(refused).toMatchObject({ status: 400, error: "invalid_request" });
    expect(refused.description).toContain("code_verifier must be 43 to 128 characters");
    mock.auth.verify({ endpoint: "token", status: 400, outcome: "invalid_request" }, 1);
  });

  test("a verifier of 43 and of 128 unreserved characters is taken", async () => {
    await using mock = await McpMock.start({ auth: true, onUnmatched: "silent" });
    for (const verifier of ["A-._~".repeat(9).slice(0, 43), randomBytes(96).toString("base64url")]) {
      const { clientId, redirect } = await authorize(mock, verifier);
      const res = await form(mock, { grant_type: "authorization_code", code: redirect.get("code") as string, redirect_uri: REDIRECT, code_verifier: verifier, client_id: clientId });
      expect(res.status, verifier).toBe(200);
    }
  });
});

describe("scope tokens (RFC 6749 section 3.3: printable ASCII without space, quote or backslash)", () => {
  test.each([
    ["a character beyond ASCII", "read 中文"],
    ["a double quote", 'read a"b'],
    ["a backslash", "read a\\b"],
    ["a newline", "read\nwrite"],
    ["a tab", "read\twrite"],
  ])("/authorize with %s redirects back invalid_scope, and no token carries it into a challenge", async (_, scope) => {
    await using mock = await McpMock.start({ auth: true, onUnmatched: "silent" });
    const { redirect } = await authorize(mock, VERIFIER, { scope });
    expect(redirect.get("code")).toBeNull();
    expect(redirect.get("error")).toBe("invalid_scope");
    expect(redirect.get("error_description")).toContain("is not a scope token");
  });

  test("client_credentials with a scope beyond ASCII is invalid_scope, not a token whose 403 challenge crashes the endpoint", async () => {
    await using mock = await McpMock.start({ auth: { grantTypes: ["client_credentials"], registration: false, clients: [{ clientId: "svc", clientSecret: "s3cret" }] }, onUnmatched: "silent" });
    const res = await form(mock, { grant_type: "client_credentials", scope: "read 中文" }, { authorization: `Basic ${Buffer.from("svc:s3cret").toString("base64")}` });
    expect(await oauthError(res)).toMatchObject({ status: 400, error: "invalid_scope" });
    // A well-formed scope still gets its token, whose 403 challenge names the scopes to ask for.
    const ok = (await (await form(mock, { grant_type: "client_credentials", scope: "read" }, { authorization: `Basic ${Buffer.from("svc:s3cret").toString("base64")}` })).json()) as { access_token: string };
    mock.auth.requireScopes(["write"]);
    const denied = await ping(mock, ok.access_token);
    expect(denied.status).toBe(403);
    expect(denied.headers.get("www-authenticate")).toContain('scope="read write"');
  });

  test("issueToken and requireScopes refuse a scope name the challenge could not carry, at the call", async () => {
    await using mock = await McpMock.start({ auth: true, onUnmatched: "silent" });
    expect(() => mock.auth.issueToken({ scopes: ["中文"] })).toThrow(McpMockError);
    expect(() => mock.auth.issueToken({ scopes: ['a"b'] })).toThrow(/scope names/);
    expect(() => mock.auth.requireScopes(["read write"])).toThrow(/scope names/);
    // Nothing was changed: a token without scopes still passes the bearer check.
    await (await ping(mock, mock.auth.issueToken())).text();
    mock.auth.verify({ endpoint: "mcp", status: 200, outcome: "ok" }, 1);
  });

  test("a refresh asking a scope twice is granted it once", async () => {
    await using mock = await McpMock.start({ auth: { scopes: ["read", "write"] }, onUnmatched: "silent" });
    const { clientId, redirect } = await authorize(mock, VERIFIER, { scope: "read write" });
    const first = (await (await form(mock, { grant_type: "authorization_code", code: redirect.get("code") as string, redirect_uri: REDIRECT, code_verifier: VERIFIER, client_id: clientId })).json()) as { refresh_token: string };
    const refreshed = (await (await form(mock, { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: clientId, scope: "read  read" })).json()) as { scope: string };
    expect(refreshed.scope).toBe("read");
  });
});

describe("assertions must expire (RFC 7523 section 3; an ID token's exp, OpenID Connect Core 2)", () => {
  async function es256(): Promise<{ jwk: JWK; privateKey: CryptoKey }> {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    return { jwk: await exportJWK(publicKey), privateKey };
  }

  test("a JWT bearer assertion without exp is invalid_grant, saying exp is required", async () => {
    const key = await es256();
    await using mock = await McpMock.start({ auth: { registration: false, clients: [{ clientId: "w" }], jwtBearer: { keys: [key.jwk] } }, onUnmatched: "silent" });
    const origin = new URL(mock.url).origin;
    const noExp = await new SignJWT({}).setProtectedHeader({ alg: "ES256" }).setSubject("agent").setAudience(origin).setIssuedAt().sign(key.privateKey);
    const refused = await oauthError(await form(mock, { grant_type: JWT_BEARER, client_id: "w", assertion: noExp }));
    expect(refused).toMatchObject({ status: 400, error: "invalid_grant" });
    expect(refused.description).toContain('"exp"');
    const withExp = await new SignJWT({}).setProtectedHeader({ alg: "ES256" }).setSubject("agent").setAudience(origin).setExpirationTime("5m").sign(key.privateKey);
    expect((await form(mock, { grant_type: JWT_BEARER, client_id: "w", assertion: withExp })).status).toBe(200);
  });

  test("token exchange of an ID token without exp is invalid_grant", async () => {
    const idp = await es256();
    const jag = await generateKeyPair("ES256", { extractable: true });
    await using mock = await McpMock.start({ auth: { registration: false, clients: [{ clientId: "idp-client" }], tokenExchange: { subjectKeys: [idp.jwk], signingKey: await exportJWK(jag.privateKey), clientId: "app" } }, onUnmatched: "silent" });
    const issuer = new URL(mock.url).origin;
    const exchange = (idToken: string): Promise<Response> =>
      form(mock, { grant_type: TOKEN_EXCHANGE, client_id: "idp-client", subject_token: idToken, subject_token_type: "urn:ietf:params:oauth:token-type:id_token", requested_token_type: "urn:ietf:params:oauth:token-type:id-jag", audience: "https://as.example", resource: "https://rs.example/mcp" });
    const noExp = await new SignJWT({}).setProtectedHeader({ alg: "ES256" }).setIssuer(issuer).setSubject("ada").setAudience("idp-client").setIssuedAt().sign(idp.privateKey);
    const refused = await oauthError(await exchange(noExp));
    expect(refused).toMatchObject({ status: 400, error: "invalid_grant" });
    expect(refused.description).toContain('"exp"');
    const withExp = await new SignJWT({}).setProtectedHeader({ alg: "ES256" }).setIssuer(issuer).setSubject("ada").setAudience("idp-client").setExpirationTime("5m").sign(idp.privateKey);
    expect((await exchange(withExp)).status).toBe(200);
  });
});

describe("private_key_jwt: the assertion's aud is the issuer as its sole value (rfc7523bis)", () => {
  test("an aud array naming the issuer and another audience, or the issuer alone in an array, is invalid_client", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    await using mock = await McpMock.start({ auth: { grantTypes: ["client_credentials"], tokenEndpointAuthMethods: ["private_key_jwt"], registration: false, clients: [{ clientId: "svc", jwks: { keys: [(await exportJWK(publicKey)) as JsonWebKey] } }] }, onUnmatched: "silent" });
    const origin = new URL(mock.url).origin;
    const assertion = (aud: string | string[]): Promise<string> => new SignJWT({}).setProtectedHeader({ alg: "ES256" }).setIssuer("svc").setSubject("svc").setAudience(aud).setExpirationTime("5m").setJti(crypto.randomUUID()).sign(privateKey);
    const send = async (aud: string | string[]): Promise<Response> => form(mock, { grant_type: "client_credentials", client_assertion_type: ASSERTION_TYPE, client_assertion: await assertion(aud) });
    for (const aud of [[origin, "https://attacker.example"], [origin]]) {
      const refused = await oauthError(await send(aud));
      expect(refused, JSON.stringify(aud)).toMatchObject({ status: 401, error: "invalid_client" });
      expect(refused.description).toContain("sole audience");
    }
    expect((await send(origin)).status).toBe(200);
  });
});

describe("private keys are never taken as public ones", () => {
  test("/register refuses jwks with a private key, a symmetric key or a key that is not a JWK: invalid_client_metadata, and nothing is echoed", async () => {
    await using mock = await McpMock.start({ auth: { tokenEndpointAuthMethods: ["private_key_jwt"], grantTypes: ["client_credentials"] }, onUnmatched: "silent" });
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const rsa = await exportJWK((await generateKeyPair("RS256", { extractable: true })).privateKey);
    const { d: _, ...factorsWithoutD } = rsa;
    for (const [label, key] of [["an EC private key", await exportJWK(privateKey)], ["RSA private factors without d", factorsWithoutD], ["a symmetric key", { kty: "oct", k: "c2VjcmV0" }], ["a number", 1], ["a key without kty", { x: "y" }]] as const) {
      const res = await register(mock, { redirect_uris: [REDIRECT], token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [key] } });
      const text = await res.text();
      expect(res.status, label).toBe(400);
      const body = JSON.parse(text) as { error: string; error_description: string };
      expect(body.error, label).toBe("invalid_client_metadata");
      expect(body.error_description, label).toContain("public");
      expect(text, label).not.toContain('"d"');
    }
    expect((await register(mock, { redirect_uris: [REDIRECT], token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [await exportJWK(publicKey)] } })).status).toBe(201);
  });

  test("a DPoP proof whose jwk carries RSA private factors (without d) is invalid_dpop_proof", async () => {
    await using mock = await McpMock.start({ auth: { dpop: true }, onUnmatched: "silent" });
    const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
    const { d: _, ...factors } = await exportJWK(privateKey);
    const htu = new URL("/token", mock.url).href;
    const proof = (jwk: JWK): Promise<string> => new SignJWT({ jti: randomBytes(8).toString("hex"), htm: "POST", htu, iat: Math.floor(Date.now() / 1000) }).setProtectedHeader({ alg: "RS256", typ: "dpop+jwt", jwk }).sign(privateKey);
    const { clientId, redirect } = await authorize(mock, VERIFIER);
    const request = { grant_type: "authorization_code", code: redirect.get("code") as string, redirect_uri: REDIRECT, code_verifier: VERIFIER, client_id: clientId };
    const refused = await oauthError(await form(mock, request, { dpop: await proof(factors) }));
    expect(refused).toMatchObject({ status: 400, error: "invalid_dpop_proof" });
    expect(refused.description).toContain("private key");
    // The proof is checked before the code is taken: the same code, with a public jwk, gets its token.
    const ok = (await (await form(mock, request, { dpop: await proof(await exportJWK(publicKey)) })).json()) as { token_type: string };
    expect(ok.token_type).toBe("DPoP");
  });
});

describe("one client authentication per token request (RFC 6749 section 2.3)", () => {
  const clients = [{ clientId: "a", clientSecret: "secret-a" }, { clientId: "b", clientSecret: "secret-b" }];
  const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

  test("HTTP Basic for one client and client_id for another is invalid_client, never a token for either", async () => {
    await using mock = await McpMock.start({ auth: { grantTypes: ["client_credentials"], registration: false, clients }, onUnmatched: "silent" });
    const refused = await oauthError(await form(mock, { grant_type: "client_credentials", client_id: "b" }, { authorization: basic("a", "secret-a") }));
    expect(refused).toMatchObject({ status: 401, error: "invalid_client" });
    expect(refused.description).toContain("client_id b");
    expect(mock.auth.issued()).toEqual([]);
    // The same client_id beside the Basic credentials is fine (RFC 6749 section 3.2.1).
    expect((await form(mock, { grant_type: "client_credentials", client_id: "a" }, { authorization: basic("a", "secret-a") })).status).toBe(200);
  });

  test("HTTP Basic and a client_secret in the body at once is invalid_request, naming both", async () => {
    await using mock = await McpMock.start({ auth: { grantTypes: ["client_credentials"], registration: false, clients }, onUnmatched: "silent" });
    const refused = await oauthError(await form(mock, { grant_type: "client_credentials", client_id: "a", client_secret: "secret-a" }, { authorization: basic("a", "secret-a") }));
    expect(refused).toMatchObject({ status: 400, error: "invalid_request" });
    expect(refused.description).toContain("more than one");
    expect(mock.auth.issued()).toEqual([]);
  });
});

describe("a token request is a form (RFC 6749 section 3.2)", () => {
  test.each([
    ["JSON", "application/json", (body: Record<string, string>) => JSON.stringify(body)],
    ["multipart", undefined, (body: Record<string, string>) => Object.entries(body).reduce((data, [k, v]) => (data.append(k, v), data), new FormData())],
  ])("%s: invalid_request naming the content type to send, and the code is not used up", async (_, type, encode) => {
    await using mock = await McpMock.start({ auth: true, onUnmatched: "silent" });
    const { clientId, redirect } = await authorize(mock, VERIFIER);
    const request = { grant_type: "authorization_code", code: redirect.get("code") as string, redirect_uri: REDIRECT, code_verifier: VERIFIER, client_id: clientId };
    const res = await fetch(new URL("/token", mock.url), { method: "POST", headers: type ? { "content-type": type } : {}, body: encode(request) });
    const refused = await oauthError(res);
    expect(refused).toMatchObject({ status: 400, error: "invalid_request" });
    expect(refused.description).toContain("application/x-www-form-urlencoded");
    expect((await form(mock, request)).status).toBe(200);
  });
});

describe("client registration and client ID metadata documents", () => {
  test("a registration's own client_secret, registration_access_token or expiry is never answered back as issued", async () => {
    await using mock = await McpMock.start({ auth: true, onUnmatched: "silent" });
    const res = await register(mock, { redirect_uris: [REDIRECT], client_name: "app", client_id: "admin", client_secret: "made-up", client_secret_expires_at: 5, registration_access_token: "x", registration_client_uri: "http://127.0.0.1:9/reg" });
    const info = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(201);
    expect(info).toMatchObject({ client_name: "app", token_endpoint_auth_method: "none" });
    expect(info["client_id"]).toMatch(/^client-/);
    for (const name of ["client_secret", "client_secret_expires_at", "registration_access_token", "registration_client_uri"]) expect(info, name).not.toHaveProperty(name);
  });

  test("a client ID metadata document that streams without end is refused past 64 KiB, at once, and its connection closed", async () => {
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    // 8 MiB of spaces, then the connection held open: a document without end (bounded here, so a mock that reads it all does not eat the machine).
    const server = http.createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(Buffer.alloc(8 << 20, 32));
      req.socket.on("close", closed);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      await using mock = await McpMock.start({ auth: true, onUnmatched: "silent" });
      const clientId = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client.json`;
      const url = new URL("/authorize", mock.url);
      for (const [k, v] of Object.entries({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: s256(VERIFIER), code_challenge_method: "S256", resource: mock.url })) url.searchParams.set(k, v);
      const started = Date.now();
      const refused = await oauthError(await fetch(url, { redirect: "manual" }));
      expect(refused).toMatchObject({ status: 400, error: "invalid_client" });
      expect(refused.description).toContain("is larger than 65536 bytes");
      // Not the 2-second fetch timeout: the read stopped at the limit.
      expect(Date.now() - started).toBeLessThan(1500);
      await gone;
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
