/**
 * The embedded authorization server's assertion grants over real HTTP: the JWT bearer grant
 * (RFC 7523, `auth.jwtBearer`) for a workload's JWT and for an ID-JAG (SEP-990), and token
 * exchange (RFC 8693, `auth.tokenExchange`) of an ID token for an ID-JAG, which a second mock
 * takes. The tokens they issue open the MCP endpoint; what is wrong is refused with the reason,
 * and bad options are refused at start.
 */
import { exportJWK, generateKeyPair, decodeJwt, decodeProtectedHeader, SignJWT, type CryptoKey, type JWK } from "jose";
import { describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

function post(mock: McpMock, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL("/token", mock.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form) });
}

async function answer(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

function jwt(key: CryptoKey, claims: Record<string, unknown>, audience: string, expiresIn = "5m", typ?: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: "ES256", ...(typ ? { typ } : {}) }).setSubject("workload").setAudience(audience).setIssuedAt().setExpirationTime(expiresIn).sign(key);
}

/** Lists the tools with `token`: the MCP endpoint's status. */
async function listWith(mock: McpMock, token: string): Promise<number> {
  const res = await fetch(mock.url, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }) });
  await res.text();
  return res.status;
}

describe("the JWT bearer grant (auth.jwtBearer)", () => {
  test("a workload's JWT signed by a trusted key, for this issuer, gets an access token that opens the endpoint; no refresh token", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    await using mock = await McpMock.start({ auth: { registration: false, clients: [{ clientId: "workload" }], jwtBearer: { keys: [await exportJWK(publicKey)] } } });
    const issuer = new URL(mock.url).origin;
    const metadata = await answer(await fetch(new URL("/.well-known/oauth-authorization-server", mock.url)));
    expect(metadata["grant_types_supported"]).toEqual(["authorization_code", "refresh_token", JWT_BEARER]);
    const res = await post(mock, { grant_type: JWT_BEARER, client_id: "workload", assertion: await jwt(privateKey, {}, issuer) });
    const body = await answer(res);
    expect(res.status).toBe(200);
    expect(body["refresh_token"]).toBeUndefined();
    expect(await listWith(mock, body["access_token"] as string)).toBe(200);
    mock.auth.verify({ endpoint: "token", grantType: JWT_BEARER, status: 200, subject: "workload", clientId: "workload" }, 1);
  });

  test("refused, each saying why: no assertion, another audience, expired, an untrusted key, not a JWT", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    const stranger = await generateKeyPair("ES256");
    await using mock = await McpMock.start({ auth: { registration: false, clients: [{ clientId: "workload" }], jwtBearer: { keys: [await exportJWK(publicKey)] } } });
    const issuer = new URL(mock.url).origin;
    const cases: Array<[assertion: string | undefined, error: string, description: RegExp]> = [
      [undefined, "invalid_request", /^\[mcpmock\] The assertion parameter is missing/],
      [await jwt(privateKey, {}, "https://wrong.example"), "invalid_grant", /^\[mcpmock\] The assertion's aud \("https:\/\/wrong.example"\) does not name this authorization server\.$/],
      [await jwt(privateKey, {}, issuer, "-60s"), "invalid_grant", /^\[mcpmock\] The assertion has expired \(exp \d+, now \d+\)\.$/],
      [await jwt(stranger.privateKey, {}, issuer), "invalid_grant", /^\[mcpmock\] The assertion's signature does not verify with any key auth\.jwtBearer\.keys trusts: sign it with a private key whose public half is listed there\.$/],
      ["not-a-jwt", "invalid_grant", /^\[mcpmock\] The assertion is not a signed JWT this server can read/],
    ];
    for (const [assertion, error, description] of cases) {
      const res = await post(mock, { grant_type: JWT_BEARER, client_id: "workload", ...(assertion ? { assertion } : {}) });
      const body = await answer(res);
      expect({ status: res.status, error: body["error"] }).toEqual({ status: 400, error });
      expect(body["error_description"]).toMatch(description);
    }
    expect(mock.auth.issued()).toEqual([]);
  });

  test("an ID-JAG must say so (typ), name the authenticating client and this server's resource", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    await using mock = await McpMock.start({ auth: { tokenEndpointAuthMethods: ["client_secret_basic"], clients: [{ clientId: "app", clientSecret: "s3cret" }], jwtBearer: { keys: [await exportJWK(publicKey)], assertion: "id-jag" } } });
    const issuer = new URL(mock.url).origin;
    const basic = { authorization: `Basic ${Buffer.from("app:s3cret").toString("base64")}` };
    const jag = (claims: Record<string, unknown>, typ = "oauth-id-jag+jwt"): Promise<string> => jwt(privateKey, claims, issuer, "5m", typ);
    const refused = async (assertion: string): Promise<unknown> => (await answer(await post(mock, { grant_type: JWT_BEARER, assertion }, basic)))["error_description"];
    expect(await refused(await jag({ client_id: "app", resource: mock.url }, "JWT"))).toBe('[mcpmock] The assertion\'s typ is "JWT", not "oauth-id-jag+jwt": it is not an ID-JAG (SEP-990).');
    expect(await refused(await jag({ client_id: "other", resource: mock.url }))).toBe('[mcpmock] The ID-JAG was issued for client "other", not for app, which presents it.');
    expect(await refused(await jag({ client_id: "app", resource: issuer }))).toMatch(/^\[mcpmock\] The ID-JAG's resource "http:\/\/127\.0\.0\.1:\d+" is not this server's protected resource/);
    const res = await post(mock, { grant_type: JWT_BEARER, assertion: await jag({ client_id: "app", resource: mock.url }) }, basic);
    expect(res.status).toBe(200);
    expect(await listWith(mock, (await answer(res))["access_token"] as string)).toBe(200);
  });
});

describe("token exchange (auth.tokenExchange): an ID token for an ID-JAG, which a second mock takes", () => {
  test("the IdP checks the ID token and the parameters; the ID-JAG it signs opens the resource's authorization server", async () => {
    const idpKey = await generateKeyPair("ES256", { extractable: true });
    const jagKey = await generateKeyPair("ES256", { extractable: true });
    await using resource = await McpMock.start({ auth: { tokenEndpointAuthMethods: ["client_secret_basic"], clients: [{ clientId: "app", clientSecret: "s3cret" }], jwtBearer: { keys: [await exportJWK(jagKey.publicKey)], assertion: "id-jag" } } });
    await using idp = await McpMock.start({ auth: { registration: false, clients: [{ clientId: "idp-client" }], tokenExchange: { subjectKeys: [await exportJWK(idpKey.publicKey)], signingKey: await exportJWK(jagKey.privateKey), clientId: "app" } } });
    const idpIssuer = new URL(idp.url).origin;
    const asIssuer = new URL(resource.url).origin;
    const idToken = await new SignJWT({ sub: "alice", aud: "idp-client" }).setProtectedHeader({ alg: "ES256" }).setIssuer(idpIssuer).setIssuedAt().setExpirationTime("1h").sign(idpKey.privateKey);
    const form = { grant_type: TOKEN_EXCHANGE, client_id: "idp-client", subject_token: idToken, subject_token_type: "urn:ietf:params:oauth:token-type:id_token", requested_token_type: "urn:ietf:params:oauth:token-type:id-jag", audience: asIssuer, resource: resource.url };
    const { requested_token_type: _, ...missing } = form;
    const refused = await answer(await post(idp, missing));
    expect(refused).toEqual({ error: "invalid_request", error_description: "[mcpmock] The token exchange is missing or has invalid parameters: requested_token_type (expected urn:ietf:params:oauth:token-type:id-jag, got missing) (RFC 8693 section 2.1, SEP-990)." });
    const forged = await new SignJWT({ sub: "alice", aud: "idp-client" }).setProtectedHeader({ alg: "ES256" }).setIssuer(idpIssuer).setExpirationTime("1h").sign(jagKey.privateKey);
    expect((await answer(await post(idp, { ...form, subject_token: forged })))["error_description"]).toMatch(/^\[mcpmock\] The subject_token is not a valid ID token of this IdP for client idp-client/);
    const exchanged = await answer(await post(idp, form));
    expect(exchanged).toMatchObject({ issued_token_type: "urn:ietf:params:oauth:token-type:id-jag", token_type: "N_A", expires_in: 300 });
    const jag = exchanged["access_token"] as string;
    expect(decodeProtectedHeader(jag).typ).toBe("oauth-id-jag+jwt");
    expect(decodeJwt(jag)).toMatchObject({ iss: idpIssuer, aud: asIssuer, sub: "alice", client_id: "app", resource: resource.url });
    const res = await post(resource, { grant_type: JWT_BEARER, assertion: jag }, { authorization: `Basic ${Buffer.from("app:s3cret").toString("base64")}` });
    expect(res.status).toBe(200);
    expect(await listWith(resource, (await answer(res))["access_token"] as string)).toBe(200);
    idp.auth.verify({ endpoint: "token", grantType: TOKEN_EXCHANGE, status: 200, subject: "alice" }, 1);
  });
});

test("a signing key that cannot sign is a server error naming the option, never a crash", async () => {
  const idpKey = await generateKeyPair("ES256", { extractable: true });
  // An EC key claiming RS256: it passes the check at start (a private JWK), and fails at signing.
  const wrong = { ...(await exportJWK(idpKey.privateKey)), alg: "RS256" };
  await using idp = await McpMock.start({ auth: { registration: false, clients: [{ clientId: "idp-client" }], tokenExchange: { subjectKeys: [await exportJWK(idpKey.publicKey)], signingKey: wrong, clientId: "app" } } });
  const idToken = await new SignJWT({ sub: "alice", aud: "idp-client" }).setProtectedHeader({ alg: "ES256" }).setIssuer(new URL(idp.url).origin).setExpirationTime("1h").sign(idpKey.privateKey);
  const res = await post(idp, { grant_type: TOKEN_EXCHANGE, client_id: "idp-client", subject_token: idToken, subject_token_type: "urn:ietf:params:oauth:token-type:id_token", requested_token_type: "urn:ietf:params:oauth:token-type:id-jag", audience: "https://as.example", resource: "https://rs.example/mcp" });
  expect(res.status).toBe(500);
  expect((await answer(res))["error_description"]).toMatch(/^\[mcpmock\] auth\.tokenExchange\.signingKey cannot sign an ID-JAG with RS256: /);
});

test("bad options are refused at start, every one, with the fix", async () => {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const secret = await exportJWK(privateKey);
  await expect(McpMock.start({ auth: { jwtBearer: { keys: [] } } })).rejects.toThrow("auth.jwtBearer.keys must be a non-empty list of public JWKs (each with a kty), received [].");
  await expect(McpMock.start({ auth: { jwtBearer: { keys: [secret], assertion: "saml" as "jwt" } } })).rejects.toThrow(/auth has 2 problems:\n- auth.jwtBearer.keys must hold public keys only: one has a private part \(d\)\.\n- auth.jwtBearer.assertion must be "jwt" or "id-jag", received "saml"\./);
  await expect(McpMock.start({ auth: { jwtBearer: { keys: [{ kty: "EC", crv: "P-256", x: "AA", y: "AA" }] } } })).rejects.toThrow(/^\[mcpmock\] auth\.jwtBearer\.keys\[0\] is not a JWK a key can be made of: /);
  await expect(McpMock.start({ auth: { tokenExchange: { subjectKeys: [{ kty: "EC" } as JWK], signingKey: { kty: "EC" } as JWK, clientId: "" } } })).rejects.toThrow(/auth.tokenExchange.signingKey must be a private JWK[\s\S]*auth.tokenExchange.clientId must be a non-empty string/);
});
