/**
 * DPoP (RFC 9449, SEP-1932) on the embedded authorization server and the MCP endpoint
 * (`auth.dpop`), over real HTTP with proofs signed by `jose`: a token request with a proof gets a
 * token bound to its key (`token_type: "DPoP"`), which the endpoint takes only with the `DPoP`
 * scheme and a fresh proof of that key for that request; nonces when asked; bearer tokens refused
 * with `required`. Every refusal says what was wrong, and the auth log says what passed.
 */
import { createHash, randomBytes } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { describe, expect, test } from "vitest";
import { assertMockDefinition, McpMock, type AuthOptions } from "../../src/index.js";
import { s256 } from "../../src/auth/tokens.js";

const VERIFIER = "v".repeat(43);
const REDIRECT = "http://127.0.0.1:9/callback";
const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "dpop-test", version: "1.0.0" } } };

interface Key {
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
  readonly jkt: string;
}

async function newKey(): Promise<Key> {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, "sha256") };
}

/** A proof of `key` for `method url` (with `ath` for `token`, and `nonce`); `claims` override any claim. */
async function proof(key: Key, method: string, url: string, extra: { token?: string; nonce?: string; claims?: Record<string, unknown> } = {}): Promise<string> {
  const payload: Record<string, unknown> = { jti: randomBytes(12).toString("base64url"), htm: method, htu: url, iat: Math.floor(Date.now() / 1000) };
  if (extra.token !== undefined) payload["ath"] = createHash("sha256").update(extra.token, "ascii").digest("base64url");
  if (extra.nonce !== undefined) payload["nonce"] = extra.nonce;
  return new SignJWT({ ...payload, ...extra.claims }).setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: key.jwk }).sign(key.privateKey);
}

/** Registers a public client and authorizes: the code and the form of its token request. */
async function codeFor(mock: McpMock): Promise<Record<string, string>> {
  const reg = (await (await fetch(new URL("/register", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }) })).json()) as { client_id: string };
  const url = new URL("/authorize", mock.url);
  for (const [k, v] of Object.entries({ response_type: "code", client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: s256(VERIFIER), code_challenge_method: "S256", resource: mock.url })) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: "manual" });
  const code = new URL(res.headers.get("location") as string).searchParams.get("code") as string;
  return { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: VERIFIER, client_id: reg.client_id, resource: mock.url };
}

function tokenRequest(mock: McpMock, form: Record<string, string>, dpop?: string): Promise<Response> {
  return fetch(new URL("/token", mock.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...(dpop ? { dpop } : {}) }, body: new URLSearchParams(form) });
}

function mcp(mock: McpMock, authorization: string, dpop?: string): Promise<Response> {
  return fetch(mock.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization, ...(dpop ? { dpop } : {}) }, body: JSON.stringify(INITIALIZE) });
}

/** A DPoP-bound token through the whole flow. */
async function boundToken(mock: McpMock, key: Key): Promise<{ access: string; refresh: string; form: Record<string, string> }> {
  const form = await codeFor(mock);
  const body = (await (await tokenRequest(mock, form, await proof(key, "POST", new URL("/token", mock.url).href))).json()) as { access_token: string; refresh_token: string; token_type: string };
  expect(body.token_type).toBe("DPoP");
  return { access: body.access_token, refresh: body.refresh_token, form };
}

async function refusal(res: Response): Promise<{ status: number; challenge: string | null; nonce: string | null; error: string; description: string }> {
  const body = (await res.json()) as { error: string; error_description: string };
  return { status: res.status, challenge: res.headers.get("www-authenticate"), nonce: res.headers.get("dpop-nonce"), error: body.error, description: body.error_description };
}

describe("DPoP on the embedded authorization server and MCP endpoint", () => {
  test("a token request with a proof gets a token bound to the key; the endpoint takes it with the DPoP scheme and a proof", async () => {
    await using mock = await McpMock.start({ auth: { dpop: true } });
    const metadata = (await (await fetch(new URL("/.well-known/oauth-authorization-server", mock.url))).json()) as Record<string, unknown>;
    expect(metadata["dpop_signing_alg_values_supported"]).toEqual(["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"]);
    const key = await newKey();
    const { access } = await boundToken(mock, key);
    expect(mock.auth.issued().find((t) => t.token === access)).toMatchObject({ kind: "access", jkt: key.jkt });
    const res = await mcp(mock, `DPoP ${access}`, await proof(key, "POST", mock.url, { token: access }));
    expect(res.status).toBe(200);
    await res.body?.cancel();
    expect(mock.auth.requests({ endpoint: "token", status: 200 })).toEqual([expect.objectContaining({ dpopJkt: key.jkt, grantType: "authorization_code" })]);
    expect(mock.auth.requests({ endpoint: "mcp", outcome: "ok" })).toEqual([expect.objectContaining({ dpopJkt: key.jkt })]);
    // Without a proof the token endpoint still answers a bearer token (auth.dpop.required is off), which the endpoint takes as before.
    const plain = (await (await tokenRequest(mock, await codeFor(mock))).json()) as { access_token: string; token_type: string };
    expect(plain.token_type).toBe("Bearer");
    const bearer = await mcp(mock, `Bearer ${plain.access_token}`);
    expect(bearer.status).toBe(200);
    await bearer.body?.cancel();
  });

  test("the MCP endpoint refuses a bound token without a good proof of its key, saying why", async () => {
    await using mock = await McpMock.start({ auth: { dpop: { algorithms: ["ES256"] } } });
    const key = await newKey();
    const { access } = await boundToken(mock, key);
    const fresh = (extra: Parameters<typeof proof>[3] = {}): Promise<string> => proof(key, "POST", mock.url, { token: access, ...extra });
    const asBearer = await refusal(await mcp(mock, `Bearer ${access}`, await fresh()));
    expect(asBearer).toMatchObject({ status: 401, error: "invalid_token", description: expect.stringContaining("DPoP-bound: present it as Authorization: DPoP <token>, not Bearer") });
    expect(asBearer.challenge).toMatch(/^DPoP error="invalid_token", error_description="[^"]+", resource_metadata="[^"]+", algs="ES256"$/);
    expect(await refusal(await mcp(mock, `DPoP ${access}`))).toMatchObject({ status: 401, error: "invalid_dpop_proof", description: expect.stringContaining("missing DPoP proof header") });
    expect((await refusal(await mcp(mock, `DPoP ${access}`, await fresh({ claims: { htu: "http://elsewhere.example/mcp" } })))).description).toContain("htu does not match the request URI");
    expect((await refusal(await mcp(mock, `DPoP ${access}`, await fresh({ token: "another-token" })))).description).toContain("ath does not match the presented access token");
    expect((await refusal(await mcp(mock, `DPoP ${access}`, await fresh({ claims: { iat: Math.floor(Date.now() / 1000) - 3600 } })))).description).toContain("iat outside the acceptable window");
    expect((await refusal(await mcp(mock, `DPoP ${access}`, await proof(await newKey(), "POST", mock.url, { token: access })))).description).toContain("signed by another key than the one the access token is bound to");
    const once = await fresh();
    const first = await mcp(mock, `DPoP ${access}`, once);
    expect(first.status).toBe(200);
    await first.body?.cancel();
    expect((await refusal(await mcp(mock, `DPoP ${access}`, once))).description).toContain("jti was used before");
    expect(mock.auth.requests({ endpoint: "mcp" }).map((e) => e.outcome)).toEqual(["dpop-token-as-bearer", "invalid_dpop_proof", "invalid_dpop_proof", "invalid_dpop_proof", "invalid_dpop_proof", "dpop-key-mismatch", "ok", "dpop-proof-replayed"]);
    // An unbound token with the DPoP scheme is refused too: nothing binds it to the proof's key.
    const unbound = mock.auth.issueToken();
    expect(await refusal(await mcp(mock, `DPoP ${unbound}`, await proof(key, "POST", mock.url, { token: unbound })))).toMatchObject({ status: 401, error: "invalid_token", description: expect.stringContaining("not DPoP-bound") });
  });

  test("nonces: use_dpop_nonce with the nonce in DPoP-Nonce at both servers, and the code is not used up by the challenge", async () => {
    await using mock = await McpMock.start({ auth: { dpop: { nonce: true } } });
    const key = await newKey();
    const form = await codeFor(mock);
    const tokenUrl = new URL("/token", mock.url).href;
    const challenged = await refusal(await tokenRequest(mock, form, await proof(key, "POST", tokenUrl)));
    expect(challenged).toMatchObject({ status: 400, error: "use_dpop_nonce", nonce: expect.stringMatching(/^as-/), description: expect.stringContaining("requires a DPoP nonce") });
    const issued = await tokenRequest(mock, form, await proof(key, "POST", tokenUrl, { nonce: challenged.nonce as string }));
    const { access_token: access } = (await issued.json()) as { access_token: string };
    expect(issued.status).toBe(200);
    const atResource = await refusal(await mcp(mock, `DPoP ${access}`, await proof(key, "POST", mock.url, { token: access })));
    expect(atResource).toMatchObject({ status: 401, error: "use_dpop_nonce", nonce: expect.stringMatching(/^rs-/) });
    expect(atResource.challenge).toMatch(/^DPoP error="use_dpop_nonce", /);
    const passed = await mcp(mock, `DPoP ${access}`, await proof(key, "POST", mock.url, { token: access, nonce: atResource.nonce as string }));
    expect(passed.status).toBe(200);
    await passed.body?.cancel();
    expect(mock.auth.requests().filter((e) => e.endpoint === "token" || e.endpoint === "mcp").map((e) => `${e.endpoint} ${e.outcome}`)).toEqual(["token use_dpop_nonce", "token ok", "mcp use_dpop_nonce", "mcp ok"]);
  });

  test("required: no token without a proof, no bearer token at the endpoint, and a DPoP-only challenge", async () => {
    await using mock = await McpMock.start({ auth: { dpop: { required: true } } });
    expect(await refusal(await tokenRequest(mock, await codeFor(mock)))).toMatchObject({ status: 400, error: "invalid_dpop_proof", description: expect.stringContaining("DPoP-bound tokens only") });
    const bearer = await refusal(await mcp(mock, `Bearer ${mock.auth.issueToken()}`));
    expect(bearer).toMatchObject({ status: 401, error: "invalid_token", description: expect.stringContaining("takes DPoP-bound tokens only") });
    expect(bearer.challenge).toMatch(/^DPoP /);
    const none = await fetch(mock.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(INITIALIZE) });
    expect(none.headers.get("www-authenticate")).toMatch(/^DPoP resource_metadata="[^"]+", algs="/);
    await none.body?.cancel();
  });

  test("a public client's refresh token is bound too: a refresh must prove the key", async () => {
    await using mock = await McpMock.start({ auth: { dpop: true } });
    const key = await newKey();
    const { refresh, form } = await boundToken(mock, key);
    const refreshForm = { grant_type: "refresh_token", refresh_token: refresh, client_id: form["client_id"] as string };
    const tokenUrl = new URL("/token", mock.url).href;
    expect(await refusal(await tokenRequest(mock, refreshForm))).toMatchObject({ status: 400, error: "invalid_dpop_proof", description: expect.stringContaining("refresh token is DPoP-bound") });
    expect((await refusal(await tokenRequest(mock, refreshForm, await proof(await newKey(), "POST", tokenUrl)))).description).toContain("another key than the one the refresh token is bound to");
    const refreshed = (await (await tokenRequest(mock, refreshForm, await proof(key, "POST", tokenUrl))).json()) as { token_type: string; access_token: string };
    expect(refreshed.token_type).toBe("DPoP");
    expect(mock.auth.issued().find((t) => t.token === refreshed.access_token)?.jkt).toBe(key.jkt);
  });

  test("a browser client may send the DPoP header and read DPoP-Nonce (CORS)", async () => {
    await using mock = await McpMock.start({ auth: { dpop: { nonce: true } } });
    const origin = "http://localhost:5173";
    const preflight = await fetch(mock.url, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, dpop, content-type" } });
    expect(preflight.headers.get("access-control-allow-headers")?.split(",").map((h) => h.trim())).toEqual(expect.arrayContaining(["authorization", "dpop"]));
    const key = await newKey();
    const token = mock.auth.issueToken({ dpopJkt: key.jkt });
    const res = await fetch(mock.url, { method: "POST", headers: { origin, "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `DPoP ${token}`, dpop: await proof(key, "POST", mock.url, { token }) }, body: JSON.stringify(INITIALIZE) });
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-expose-headers")?.split(",").map((h) => h.trim())).toEqual(expect.arrayContaining(["www-authenticate", "dpop-nonce"]));
    expect(res.headers.get("dpop-nonce")).toMatch(/^rs-/);
    await res.body?.cancel();
  });

  test("without auth.dpop the DPoP scheme is another scheme, as before", async () => {
    await using mock = await McpMock.start({ auth: true });
    const res = await mcp(mock, `DPoP ${mock.auth.issueToken()}`);
    expect([res.status, res.headers.get("www-authenticate")]).toEqual([401, expect.stringMatching(/^Bearer resource_metadata=/)]);
    expect(mock.auth.requests({ endpoint: "mcp" })[0]?.outcome).toBe("other-scheme");
    await res.body?.cancel();
  });

  test("issueToken({ dpopJkt }) binds a token without the flow; a bad thumbprint, or no auth.dpop, is refused at the call", async () => {
    await using mock = await McpMock.start({ auth: { dpop: true } });
    const key = await newKey();
    const token = mock.auth.issueToken({ dpopJkt: key.jkt });
    const res = await mcp(mock, `DPoP ${token}`, await proof(key, "POST", mock.url, { token }));
    expect(res.status).toBe(200);
    await res.body?.cancel();
    expect((await refusal(await mcp(mock, `DPoP ${token}`, await proof(await newKey(), "POST", mock.url, { token })))).description).toContain("another key");
    expect(() => mock.auth.issueToken({ dpopJkt: "abc" })).toThrow('issueToken: dpopJkt must be a JWK SHA-256 thumbprint (43 base64url characters, what jose\'s calculateJwkThumbprint(jwk) gives), received "abc".');
    await using plain = await McpMock.start({ auth: true });
    expect(() => plain.auth.issueToken({ dpopJkt: key.jkt })).toThrow("only an endpoint with auth.dpop checks: start the mock with auth: { dpop: true }.");
  });

  test("a definition's auth.dpop: served as the start option is, and a mistake named with its path", async () => {
    await using mock = await McpMock.fromDefinition({ auth: { dpop: { nonce: "token", algorithms: ["ES256", "EdDSA"] } } });
    const metadata = (await (await fetch(new URL("/.well-known/oauth-authorization-server", mock.url))).json()) as Record<string, unknown>;
    expect(metadata["dpop_signing_alg_values_supported"]).toEqual(["ES256", "EdDSA"]);
    const refusal = (auth: unknown): string => {
      try {
        assertMockDefinition({ auth }, "dpop.mock.json");
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refusal({ dpop: { nonce: "both" } })).toBe('[mcpmock] Invalid mock definition — dpop.mock.json: auth.dpop.nonce: must be one of true, false, "token", "resource", received "both".');
    expect(refusal({ dpop: { nunce: true } })).toContain('auth.dpop.nunce: "nunce" is not a field here (a typo?). Did you mean "nonce"?');
    expect(refusal({ dpop: { algorithms: ["HS256"] } })).toContain('auth.dpop.algorithms[0]: must match pattern "^(ES256|');
  });

  test("bad auth.dpop values are refused at start, every one with the fix", async () => {
    const bad = { algorithms: ["HS256"], nonce: "both", required: "yes" } as unknown as AuthOptions["dpop"];
    await expect(McpMock.start({ auth: { dpop: bad } })).rejects.toThrow(/auth has 3 problems:\n- auth\.dpop\.algorithms must be a non-empty list of ES256, .*asymmetric only.*HS256.*\n- auth\.dpop\.nonce must be true, false, "token" or "resource", received "both"\.\n- auth\.dpop\.required must be true or false, received "yes"\./);
    await expect(McpMock.start({ auth: { dpop: "on" as never } })).rejects.toThrow('auth.dpop must be true or an object like { nonce: true }, received "on".');
  });
});
