/**
 * The embedded authorization server's client credentials grant (RFC 6749 section 4.4, SEP-1046)
 * and `private_key_jwt` client authentication (RFC 7523), driven by the SDK's own machine-to-machine
 * providers (`ClientCredentialsProvider`, `PrivateKeyJwtProvider`) over real HTTP, and by hand
 * where a client must be refused: an assertion for the token endpoint instead of the issuer, one
 * signed by another key, a secret where a key was registered, a public client, a grant not turned on.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { exportJWK, exportPKCS8, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { describe, expect, test } from "vitest";
import { McpMock, type AuthOptions } from "../../src/index.js";

const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

async function keys(): Promise<{ jwk: JsonWebKey; pem: string; privateKey: CryptoKey }> {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  return { jwk: (await exportJWK(publicKey)) as JsonWebKey, pem: await exportPKCS8(privateKey), privateKey };
}

/** Connects the SDK client with a machine-to-machine provider and lists the tools. */
async function listWith(mock: McpMock, provider: OAuthClientProvider): Promise<string[]> {
  const client = new Client({ name: "m2m", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url), { authProvider: provider }));
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

function token(mock: McpMock, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL("/token", mock.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form) });
}

async function assertion(privateKey: CryptoKey, claims: { iss?: string; sub?: string; aud: string }): Promise<string> {
  return new SignJWT({}).setProtectedHeader({ alg: "ES256" }).setIssuer(claims.iss ?? "svc").setSubject(claims.sub ?? "svc").setAudience(claims.aud).setIssuedAt().setExpirationTime("5m").setJti(crypto.randomUUID()).sign(privateKey);
}

const issuer = (mock: McpMock): string => new URL(mock.url).origin;

describe("the client credentials grant", () => {
  test("client_secret_basic: the SDK's ClientCredentialsProvider gets a token for the client itself, with no refresh token, and the endpoint takes it", async () => {
    await using mock = await McpMock.start({ tools: [{ name: "search" }], auth: { grantTypes: ["client_credentials"], tokenEndpointAuthMethods: ["client_secret_basic"], clients: [{ clientId: "svc", clientSecret: "s3cret" }] } });
    const metadata = (await (await fetch(new URL("/.well-known/oauth-authorization-server", mock.url))).json()) as Record<string, unknown>;
    expect(metadata["grant_types_supported"]).toEqual(["client_credentials"]);
    expect(await listWith(mock, new ClientCredentialsProvider({ clientId: "svc", clientSecret: "s3cret", expectedIssuer: issuer(mock) }))).toEqual(["search"]);
    expect(mock.auth.issued().map((t) => ({ kind: t.kind, clientId: t.clientId, subject: t.subject }))).toEqual([{ kind: "access", clientId: "svc", subject: "svc" }]);
    mock.auth.verify({ endpoint: "token", grantType: "client_credentials", status: 200, clientId: "svc" });
  });

  test("a wrong secret is invalid_client; a public client is unauthorized_client; a grant not turned on is unsupported_grant_type, with the fix", async () => {
    await using mock = await McpMock.start({ auth: { grantTypes: ["client_credentials"], clients: [{ clientId: "svc", clientSecret: "s3cret" }, { clientId: "public-app" }] } });
    const wrong = await token(mock, { grant_type: "client_credentials" }, { authorization: `Basic ${Buffer.from("svc:nope").toString("base64")}` });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: "invalid_client" });
    const open = await token(mock, { grant_type: "client_credentials", client_id: "public-app" });
    expect(await open.json()).toEqual({ error: "unauthorized_client", error_description: "[mcpmock] Client public-app is a public client (token_endpoint_auth_method none); the client_credentials grant is for confidential clients only (RFC 6749 section 4.4): give it a clientSecret or jwks." });
    await using plain = await McpMock.start({ auth: { clients: [{ clientId: "svc", clientSecret: "s3cret" }] } });
    const off = await token(plain, { grant_type: "client_credentials", client_id: "svc", client_secret: "s3cret" });
    expect(off.status).toBe(400);
    expect(await off.json()).toEqual({ error: "unsupported_grant_type", error_description: '[mcpmock] grant_type "client_credentials" is not supported; use authorization_code or refresh_token (auth.grantTypes adds the others).' });
  });

  test("a resource of another server is invalid_target; scopes are those asked, checked against the known ones", async () => {
    await using mock = await McpMock.start({ auth: { grantTypes: ["client_credentials"], scopes: ["read", "write"], clients: [{ clientId: "svc", clientSecret: "s3cret" }] } });
    const basic = { authorization: `Basic ${Buffer.from("svc:s3cret").toString("base64")}` };
    expect(await (await token(mock, { grant_type: "client_credentials", resource: "https://other.example.com/mcp" }, basic)).json()).toMatchObject({ error: "invalid_target" });
    expect(await (await token(mock, { grant_type: "client_credentials", scope: "admin" }, basic)).json()).toMatchObject({ error: "invalid_scope" });
    const granted = (await (await token(mock, { grant_type: "client_credentials", scope: "read", resource: mock.url }, basic)).json()) as Record<string, unknown>;
    expect(granted).toMatchObject({ token_type: "Bearer", scope: "read" });
    expect(granted["refresh_token"]).toBeUndefined();
  });
});

describe("private_key_jwt", () => {
  test("the SDK's PrivateKeyJwtProvider: an ES256 assertion whose aud is the issuer gets a token; the metadata lists the signing algorithms", async () => {
    const { jwk, pem } = await keys();
    await using mock = await McpMock.start({ tools: [{ name: "search" }], auth: { grantTypes: ["client_credentials"], tokenEndpointAuthMethods: ["private_key_jwt"], clients: [{ clientId: "svc", jwks: { keys: [jwk] } }] } });
    const metadata = (await (await fetch(new URL("/.well-known/oauth-authorization-server", mock.url))).json()) as Record<string, unknown>;
    expect(metadata["token_endpoint_auth_methods_supported"]).toEqual(["private_key_jwt"]);
    expect(metadata["token_endpoint_auth_signing_alg_values_supported"]).toContain("ES256");
    expect(metadata["token_endpoint_auth_signing_alg_values_supported"]).not.toContain("HS256");
    expect(await listWith(mock, new PrivateKeyJwtProvider({ clientId: "svc", privateKey: pem, algorithm: "ES256", expectedIssuer: issuer(mock) }))).toEqual(["search"]);
    mock.auth.verify({ endpoint: "token", grantType: "client_credentials", status: 200, clientId: "svc" });
  });

  test("refused, saying why: aud the token endpoint, another key, another iss, a secret instead of an assertion, the wrong assertion type", async () => {
    const right = await keys();
    const other = await keys();
    await using mock = await McpMock.start({ auth: { grantTypes: ["client_credentials"], tokenEndpointAuthMethods: ["private_key_jwt"], clients: [{ clientId: "svc", jwks: { keys: [right.jwk] } }] } });
    const refused = async (form: Record<string, string>, headers: Record<string, string> = {}): Promise<unknown> => {
      const res = await token(mock, { grant_type: "client_credentials", ...form }, headers);
      expect(res.status).toBe(401);
      return ((await res.json()) as { error_description: string }).error_description;
    };
    const send = (jwt: string): Record<string, string> => ({ client_assertion: jwt, client_assertion_type: ASSERTION_TYPE });
    expect(await refused(send(await assertion(right.privateKey, { aud: `${issuer(mock)}/token` })))).toMatch(/^\[mcpmock\] The client assertion does not verify against client svc's registered keys: its aud must be the authorization server's issuer, http:\/\/127\.0\.0\.1:\d+ \(not the token endpoint\): unexpected "aud" claim value\.$/);
    expect(await refused(send(await assertion(other.privateKey, { aud: issuer(mock) })))).toBe("[mcpmock] The client assertion does not verify against client svc's registered keys: signature verification failed.");
    expect(await refused(send(await assertion(right.privateKey, { iss: "mallory", aud: issuer(mock) })))).toBe('[mcpmock] The client assertion\'s iss is "mallory"; it must be the client_id svc (RFC 7523 section 3).');
    expect(await refused({ client_id: "svc", client_secret: "guess" })).toBe("[mcpmock] Client svc registered private_key_jwt: send a client_assertion signed with its key (RFC 7523), not a client_secret.");
    expect(await refused({ client_assertion: await assertion(right.privateKey, { aud: issuer(mock) }), client_assertion_type: "jwt" })).toBe('[mcpmock] client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer (RFC 7523 section 2.2), received "jwt".');
    expect(mock.auth.issued()).toEqual([]);
  });

  test("a registration may ask private_key_jwt with its jwks (and gets no secret); without jwks it is refused", async () => {
    const { jwk } = await keys();
    await using mock = await McpMock.start({ auth: { tokenEndpointAuthMethods: ["private_key_jwt"] } });
    const register = (body: unknown): Promise<Response> => fetch(new URL("/register", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const ok = await register({ redirect_uris: ["http://127.0.0.1:9/cb"], token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [jwk] } });
    const info = (await ok.json()) as Record<string, unknown>;
    expect(ok.status).toBe(201);
    expect(info).toMatchObject({ token_endpoint_auth_method: "private_key_jwt" });
    expect(info["client_secret"]).toBeUndefined();
    const bad = await register({ redirect_uris: ["http://127.0.0.1:9/cb"], token_endpoint_auth_method: "private_key_jwt" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid_client_metadata" });
  });

  test("bad options are refused at start, each saying what it takes", async () => {
    const { jwk } = await keys();
    const start = (auth: AuthOptions): Promise<McpMock> => McpMock.start({ auth });
    await expect(start({ clients: [{ clientId: "svc", jwks: { keys: [{ ...jwk, d: "private" }] } }] })).rejects.toThrow('auth.clients[0].jwks must be { keys: [...] } with at least one public JWK (a kty, no private "d"), like { keys: [await exportJWK(publicKey)] }.');
    await expect(start({ clients: [{ clientId: "svc", tokenEndpointAuthMethod: "private_key_jwt" }] })).rejects.toThrow("auth.clients[0]: tokenEndpointAuthMethod private_key_jwt needs jwks (the client's public keys).");
    await expect(start({ clients: [{ clientId: "svc", clientSecret: "s", tokenEndpointAuthMethod: "client_secret_basic", jwks: { keys: [jwk] } }] })).rejects.toThrow("auth.clients[0]: jwks is for private_key_jwt, not client_secret_basic.");
    await expect(start({ grantTypes: ["password" as never] })).rejects.toThrow('auth.grantTypes must be a non-empty list of authorization_code, refresh_token, client_credentials; received ["password"].');
  });
});
