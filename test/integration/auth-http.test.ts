/**
 * Authorization mocking over raw HTTP: every 401 and 403 and its WWW-Authenticate challenge,
 * each token fault, each metadata variant, and the authorization server's refusals.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { McpMock, type AuthOptions } from "../../src/index.js";
import { HEADERS } from "../support/raw-http.js";
import { LegacyStream } from "../support/legacy-sse.js";

const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
const REDIRECT = "http://127.0.0.1:9/cb";

function post(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { ...HEADERS, ...headers }, body: INIT });
}

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

async function start(auth: AuthOptions | true = { scopes: ["read", "write"], required: ["read"] }): Promise<McpMock> {
  return McpMock.start({ auth, onUnmatched: "silent", admin: true });
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

async function register(mock: McpMock, extra: Record<string, unknown> = {}): Promise<Record<string, string>> {
  const res = await fetch(new URL("/register", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT], ...extra }) });
  expect(res.status).toBe(201);
  return (await res.json()) as Record<string, string>;
}

/** GETs /authorize with sensible parameters and `overrides` (null removes one); returns the response. */
async function authorize(mock: McpMock, clientId: string, challenge: string, overrides: Record<string, string | null> = {}): Promise<Response> {
  const url = new URL("/authorize", mock.url);
  const params: Record<string, string | null> = { response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", resource: mock.url, scope: "read", state: "s1", ...overrides };
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return fetch(url, { redirect: "manual" });
}

function location(res: Response): URLSearchParams {
  return new URL(res.headers.get("location") ?? "http://x/").searchParams;
}

async function token(mock: McpMock, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL("/token", mock.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form) });
}

describe("the protected MCP endpoint", () => {
  test("no token: 401 with resource_metadata and the required scope; the metadata documents name each other", async () => {
    await using mock = await start();
    const origin = new URL(mock.url).origin;
    const res = await post(mock.url);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer scope="read", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
    expect(((await res.json()) as { error_description: string }).error_description).toContain("Authorization: Bearer <token>");
    const prm = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(prm).toEqual({ resource: mock.url, authorization_servers: [origin], bearer_methods_supported: ["header"], scopes_supported: ["read", "write"], resource_name: "mcpmock" });
    const as = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      scopes_supported: ["read", "write"],
    });
    expect((await fetch(`${origin}/.well-known/openid-configuration`)).status).toBe(404);
    mock.auth.verify({ endpoint: "mcp", status: 401, outcome: "missing-token" }, 1);
  });

  test.each([
    ["an unknown token", (m: McpMock) => "not-a-token-it-issued", "unknown-token", "not one this authorization server issued"],
    ["an expired token", (m: McpMock) => m.auth.issueToken({ scopes: ["read"], expiresIn: 0 }), "expired-token", "expired"],
    ["a revoked token", (m: McpMock) => { const t = m.auth.issueToken({ scopes: ["read"] }); m.auth.revoke(t); return t; }, "revoked-token", "revoked"],
    ["a token for another resource (audience)", (m: McpMock) => m.auth.issueToken({ scopes: ["read"], resource: "http://127.0.0.1:1/mcp" }), "wrong-audience", "another resource"],
  ])("%s: 401 error=\"invalid_token\" with a description", async (_name, make, outcome, says) => {
    await using mock = await start();
    const res = await post(mock.url, bearer(make(mock)));
    expect(res.status).toBe(401);
    const challenge = res.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", scope="read", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/);
    expect(challenge).toContain(says);
    expect(await res.json()).toMatchObject({ error: "invalid_token" });
    mock.auth.verify({ endpoint: "mcp", status: 401, outcome }, 1);
  });

  test("a valid token without the required scope: 403 insufficient_scope naming the scopes to ask for", async () => {
    await using mock = await start();
    const res = await post(mock.url, bearer(mock.auth.issueToken({ scopes: ["write"] })));
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", error_description="The access token lacks the scope read\.", scope="write read", resource_metadata="[^"]+"$/);
    expect(mock.auth.requests({ status: 403 })[0]).toMatchObject({ outcome: "insufficient-scope", tokenId: "token-1", scopes: ["write"] });
  });

  test("a token in the query string is never read: 401 invalid_request, and the request goes no further", async () => {
    await using mock = await start();
    const t = mock.auth.issueToken({ scopes: ["read"] });
    const res = await post(`${mock.url}?access_token=${t}`);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_request"');
    expect(mock.requests()).toHaveLength(0);
  });

  test("a malformed Bearer header: 401 invalid_request (another scheme gets no error code: auth-hardening.test.ts)", async () => {
    await using mock = await start();
    for (const value of ["Bearer", "Bearer a b"]) {
      const res = await post(mock.url, { authorization: value });
      expect(res.status, value).toBe(401);
      expect(res.headers.get("www-authenticate"), value).toContain('error="invalid_request"');
    }
  });

  test("a valid token passes: initialize answers, the journal redacts the header, the auth event names the token by id", async () => {
    await using mock = await start();
    const t = mock.auth.issueToken({ scopes: ["read"], subject: "ada" });
    const res = await post(mock.url, bearer(t));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ result: { serverInfo: { name: "mcpmock" } } });
    expect(mock.requests()[0]?.headers["authorization"]).toBe("[redacted]");
    expect(mock.auth.requests({ endpoint: "mcp" })).toEqual([expect.objectContaining({ status: 200, outcome: "ok", tokenId: "token-1", subject: "ada", scopes: ["read"] })]);
    expect(JSON.stringify(mock.auth.requests())).not.toContain(t);
  });

  test("GET and DELETE on the endpoint and the legacy /sse are protected; the metadata, the admin API and a CORS preflight are not", async () => {
    await using mock = await start();
    const origin = new URL(mock.url).origin;
    expect((await fetch(mock.url, { headers: { accept: "text/event-stream" } })).status).toBe(401);
    expect((await fetch(mock.url, { method: "DELETE" })).status).toBe(401);
    expect((await fetch(`${origin}/sse`, { headers: { accept: "text/event-stream" } })).status).toBe(401);
    expect((await fetch(`${origin}/__admin/requests`)).status).toBe(200);
    const preflight = await fetch(mock.url, { method: "OPTIONS", headers: { origin: "http://localhost:3000", "access-control-request-method": "POST", "access-control-request-headers": "authorization" } });
    expect(preflight.status).toBe(204);
    const browser = await post(mock.url, { origin: "http://localhost:3000" });
    expect(browser.status).toBe(401);
    expect(browser.headers.get("access-control-expose-headers")).toContain("www-authenticate");
  });

  test("a stateless 2026-07-28 request passes the same check: 401 without a token, answered with one", async () => {
    await using mock = await start();
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } });
    const headers = { ...HEADERS, "mcp-protocol-version": "2026-07-28" };
    expect((await fetch(mock.url, { method: "POST", headers, body })).status).toBe(401);
    const answered = await fetch(mock.url, { method: "POST", headers: { ...headers, ...bearer(mock.auth.issueToken({ scopes: ["read"] })) }, body });
    expect(answered.status).not.toBe(401);
    mock.auth.verify({ endpoint: "mcp", status: 200, tokenId: "token-1" }, 1);
  });

  test("auth: true protects the endpoint with no scope required; mock.auth without auth says how to turn it on", async () => {
    await using mock = await start(true);
    const res = await post(mock.url);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata="[^"]+"$/);
    expect((await post(mock.url, bearer(mock.auth.issueToken()))).status).toBe(200);
    await using plain = await McpMock.start();
    expect(() => plain.auth).toThrow(/started without auth.*auth: \{ required/);
  });
});

describe("metadata variants", () => {
  test("challengeMetadata: false: a bare challenge; metadataAt: root: the document at the root path only", async () => {
    await using mock = await start({ challengeMetadata: false, metadataAt: "root" });
    const origin = new URL(mock.url).origin;
    expect((await post(mock.url)).headers.get("www-authenticate")).toBe("Bearer");
    expect((await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);
    expect(await (await fetch(`${origin}/.well-known/oauth-protected-resource`)).json()).toMatchObject({ resource: mock.url });
  });

  test("serverMetadata: openid: OpenID Connect discovery only, with jwks_uri", async () => {
    await using mock = await start({ serverMetadata: "openid" });
    const origin = new URL(mock.url).origin;
    expect((await fetch(`${origin}/.well-known/oauth-authorization-server`)).status).toBe(404);
    const doc = (await (await fetch(`${origin}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(doc).toMatchObject({ issuer: origin, jwks_uri: `${origin}/jwks`, subject_types_supported: ["public"] });
    expect(await (await fetch(`${origin}/jwks`)).json()).toEqual({ keys: [] });
  });
});

describe("the authorization server's rules", () => {
  test("the whole code flow by hand: register, authorize (code, state, iss), exchange, refresh with rotation", async () => {
    await using mock = await start();
    const client = await register(mock);
    expect(client).toMatchObject({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" });
    const { verifier, challenge } = pkce();
    const res = await authorize(mock, client.client_id as string, challenge);
    expect(res.status).toBe(302);
    const back = location(res);
    expect([back.get("state"), back.get("iss")]).toEqual(["s1", new URL(mock.url).origin]);
    const exchange = await token(mock, { grant_type: "authorization_code", code: back.get("code") ?? "", code_verifier: verifier, redirect_uri: REDIRECT, client_id: client.client_id as string, resource: mock.url });
    expect(exchange.headers.get("cache-control")).toBe("no-store");
    const tokens = (await exchange.json()) as Record<string, string>;
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "read" });
    expect((await post(mock.url, bearer(tokens.access_token as string))).status).toBe(200);
    const refreshed = (await (await token(mock, { grant_type: "refresh_token", refresh_token: tokens.refresh_token as string, client_id: client.client_id as string })).json()) as Record<string, string>;
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const wider = await token(mock, { grant_type: "refresh_token", refresh_token: refreshed.refresh_token as string, client_id: client.client_id as string, scope: "read write" });
    expect(((await wider.json()) as { error: string }).error).toBe("invalid_scope");
    // A replayed code is refused, and what it gave (its refreshes too) is revoked (RFC 6749 section 4.1.2).
    const again = await token(mock, { grant_type: "authorization_code", code: back.get("code") ?? "", code_verifier: verifier, redirect_uri: REDIRECT, client_id: client.client_id as string });
    expect([again.status, ((await again.json()) as { error: string }).error]).toEqual([400, "invalid_grant"]);
    expect((await post(mock.url, bearer(refreshed.access_token as string))).status).toBe(401);
  });

  test.each<[string, Record<string, string | null>, string]>([
    ["no PKCE", { code_challenge: null }, "invalid_request"],
    ["PKCE plain", { code_challenge_method: "plain" }, "invalid_request"],
    ["no resource parameter", { resource: null }, "invalid_target"],
    ["another resource", { resource: "http://127.0.0.1:1/mcp" }, "invalid_target"],
    ["an unknown scope", { scope: "read admin" }, "invalid_scope"],
    ["response_type token", { response_type: "token" }, "unsupported_response_type"],
  ])("/authorize with %s redirects back with error=%s (and state, iss)", async (_name, overrides, error) => {
    await using mock = await start();
    const client = await register(mock);
    const res = await authorize(mock, client.client_id as string, pkce().challenge, overrides);
    expect(res.status).toBe(302);
    const back = location(res);
    expect([back.get("error"), back.get("state"), back.get("code")]).toEqual([error, "s1", null]);
    expect(back.get("error_description")).toMatch(/^\[mcpmock\] /);
  });

  test("/authorize for an unknown client or an unregistered redirect_uri answers 400 itself, never redirecting", async () => {
    await using mock = await start();
    const client = await register(mock);
    const unknown = await authorize(mock, "client-nobody", pkce().challenge);
    expect([unknown.status, ((await unknown.json()) as { error: string }).error]).toEqual([400, "invalid_client"]);
    const elsewhere = await authorize(mock, client.client_id as string, pkce().challenge, { redirect_uri: "http://127.0.0.1:9/evil" });
    expect([elsewhere.status, elsewhere.headers.get("location")]).toEqual([400, null]);
  });

  test("/token refuses a wrong code_verifier, another redirect_uri, an unknown grant type and an unknown client", async () => {
    await using mock = await start();
    const client = await register(mock);
    const id = client.client_id as string;
    const code = async (): Promise<string> => location(await authorize(mock, id, pkce().challenge)).get("code") ?? "";
    const cases: [Record<string, string>, number, string][] = [
      [{ grant_type: "authorization_code", code: await code(), code_verifier: pkce().verifier, redirect_uri: REDIRECT, client_id: id }, 400, "invalid_grant"],
      [{ grant_type: "authorization_code", code: await code(), code_verifier: "x", redirect_uri: "http://127.0.0.1:9/other", client_id: id }, 400, "invalid_grant"],
      [{ grant_type: "password", client_id: id }, 400, "unsupported_grant_type"],
      [{ grant_type: "authorization_code", code: "c", client_id: "client-nobody" }, 401, "invalid_client"],
    ];
    for (const [form, status, error] of cases) {
      const res = await token(mock, form);
      expect([res.status, ((await res.json()) as { error: string }).error], JSON.stringify(form)).toEqual([status, error]);
    }
  });

  test("a confidential client (client_secret_basic) must authenticate at /token", async () => {
    await using mock = await start();
    const client = await register(mock, { token_endpoint_auth_method: "client_secret_basic" });
    expect(client.client_secret).toEqual(expect.any(String));
    const { verifier, challenge } = pkce();
    const code = location(await authorize(mock, client.client_id as string, challenge)).get("code") ?? "";
    const form = { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT };
    expect((await token(mock, { ...form, client_id: client.client_id as string })).status).toBe(401);
    const code2 = location(await authorize(mock, client.client_id as string, challenge)).get("code") ?? "";
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64");
    expect((await token(mock, { ...form, code: code2 }, { authorization: `Basic ${basic}` })).status).toBe(200);
  });

  test("/register refuses a body without redirect_uris and an unknown auth method, saying the fix", async () => {
    await using mock = await start();
    const post = (body: unknown): Promise<Response> => fetch(new URL("/register", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(await (await post({ client_name: "x" })).json()).toMatchObject({ error: "invalid_redirect_uri", error_description: expect.stringContaining("redirect_uris must be a non-empty list") });
    expect(await (await post({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "private_key_jwt" })).json()).toMatchObject({ error: "invalid_client_metadata" });
  });

  test("/register and /token read at most 64 KiB: 413 past it", async () => {
    await using mock = await start();
    const big = JSON.stringify({ redirect_uris: [REDIRECT], client_name: "x".repeat(70_000) });
    const res = await fetch(new URL("/register", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: big });
    expect(res.status).toBe(413);
    expect((await token(mock, { grant_type: "x".repeat(70_000) })).status).toBe(413);
    mock.auth.verify({ endpoint: "register", status: 413, outcome: "body-too-large" }, 1);
  });

  test("refreshRotation: false answers the same refresh token again, and it stays valid", async () => {
    await using mock = await start({ refreshRotation: false });
    const client = await register(mock);
    const { verifier, challenge } = pkce();
    const code = location(await authorize(mock, client.client_id as string, challenge)).get("code") ?? "";
    const first = (await (await token(mock, { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: client.client_id as string })).json()) as Record<string, string>;
    for (let i = 0; i < 2; i++) {
      const again = (await (await token(mock, { grant_type: "refresh_token", refresh_token: first.refresh_token as string, client_id: client.client_id as string })).json()) as Record<string, string>;
      expect(again.refresh_token).toBe(first.refresh_token);
      expect(again.access_token).not.toBe(first.access_token);
    }
  });

  test("consent: deny; accessTokenTtl; refreshTokens: false", async () => {
    await using mock = await start({ consent: "deny" });
    const client = await register(mock);
    expect(location(await authorize(mock, client.client_id as string, pkce().challenge)).get("error")).toBe("access_denied");
    await using short = await start({ accessTokenTtl: 5, refreshTokens: false });
    const c2 = await register(short);
    const { verifier, challenge } = pkce();
    const code = location(await authorize(short, c2.client_id as string, challenge)).get("code") ?? "";
    const body = (await (await token(short, { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: c2.client_id as string })).json()) as Record<string, unknown>;
    expect(body["expires_in"]).toBe(5);
    expect(body["refresh_token"]).toBeUndefined();
  });
});

describe("client ID metadata documents", () => {
  test("a loopback document URL is fetched and used as the client; one beyond loopback is refused without a fetch", async () => {
    const server = http.createServer((req, res) => {
      const { port } = server.address() as AddressInfo;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ client_id: `http://127.0.0.1:${port}/client.json`, client_name: "cimd", redirect_uris: [REDIRECT] }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      await using mock = await start();
      const id = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client.json`;
      const { verifier, challenge } = pkce();
      const code = location(await authorize(mock, id, challenge)).get("code") ?? "";
      expect(code).not.toBe("");
      expect((await token(mock, { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: id })).status).toBe(200);
      const remote = await authorize(mock, "https://client.example.com/client.json", challenge);
      expect(remote.status).toBe(400);
      expect(((await remote.json()) as { error_description: string }).error_description).toContain("loopback URLs only");
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe("hand-made challenges: respondsWithStatus with headers", () => {
  test("a stub answers 401 with its own WWW-Authenticate, on a request and on DELETE; the sentence names the header", async () => {
    await using mock = await McpMock.start({ tools: [{ name: "echo", inputSchema: { type: "object" } }] });
    const challenge = 'Bearer error="invalid_token", error_description="made by hand"';
    const stub = mock.toolsCall("echo").respondsWithStatus(401, { error: "invalid_token" }, { headers: { "www-authenticate": challenge } });
    mock.deleteSession().respondsWithStatus(403, undefined, { headers: { "www-authenticate": 'Bearer error="insufficient_scope", scope="admin"' } });
    expect(stub.toString()).toContain("HTTP 401 with www-authenticate");
    const headers = { ...HEADERS, "mcp-protocol-version": "2025-11-25" };
    const init = await fetch(mock.url, { method: "POST", headers, body: INIT });
    await init.text();
    const session = { ...headers, "mcp-session-id": init.headers.get("mcp-session-id") ?? "" };
    const res = await fetch(mock.url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: {} } }) });
    expect([res.status, res.headers.get("www-authenticate"), res.headers.get("content-type")]).toEqual([401, challenge, "application/json"]);
    expect(await res.json()).toEqual({ error: "invalid_token" });
    const del = await fetch(mock.url, { method: "DELETE", headers: session });
    expect([del.status, del.headers.get("www-authenticate")]).toEqual([403, 'Bearer error="insufficient_scope", scope="admin"']);
    expect(() => mock.toolsCall("echo").respondsWithStatus(401, undefined, { headers: { "bad name": "x" } })).toThrow(/headers must be an object of header names and string values/);
  });
});

describe("stubs that answer by the token", () => {
  test("tokenWith matches a live token by its scopes and subject; the stub sentence says so", async () => {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    await using mock = await McpMock.start({ auth: { scopes: ["read", "write"] }, tools: [{ name: "delete", inputSchema: { type: "object" } }] });
    mock.toolsCall("delete").respondsWith("read-only", { isError: true });
    // Registered later, so it is tried first (the newest stub wins among equals).
    const writer = mock.toolsCall("delete").withHeader("authorization", mock.auth.tokenWith({ scopes: ["write"], subject: "ada" })).respondsWith("deleted");
    expect(writer.toString()).toContain('a bearer token with scopes write, subject "ada"');
    const call = async (token: string): Promise<unknown> => {
      const client = new Client({ name: "t", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(mock.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      try {
        return (await client.callTool({ name: "delete", arguments: {} })).content;
      } finally {
        await client.close();
      }
    };
    expect(await call(mock.auth.issueToken({ scopes: ["read", "write"], subject: "ada" }))).toEqual([{ type: "text", text: "deleted" }]);
    expect(await call(mock.auth.issueToken({ scopes: ["read"], subject: "ada" }))).toEqual([{ type: "text", text: "read-only" }]);
    expect(await call(mock.auth.issueToken({ scopes: ["write"], subject: "bob" }))).toEqual([{ type: "text", text: "read-only" }]);
    expect(writer.calls()).toBe(1);
  });
});

describe("reset()", () => {
  test("clears the auth events and restores the required scopes; tokens stay valid", async () => {
    await using mock = await start();
    const t = mock.auth.issueToken({ scopes: ["read"] });
    mock.auth.requireScopes(["read", "write"]);
    expect((await post(mock.url, bearer(t))).status).toBe(403);
    mock.reset();
    expect(mock.auth.requests()).toEqual([]);
    expect((await post(mock.url, bearer(t))).status).toBe(200);
    expect(() => mock.auth.requireScopes(["admin"])).toThrow(/admin is not in auth\.scopes/);
    expect(() => mock.auth.expire("token-99")).toThrow(/no token "token-99" was issued by this mock/);
  });
});

describe("sessions belong to the token that opened them", () => {
  test("a GET /sse session: another token's POST to it is 404, naming why; the opener's is taken", async () => {
    await using mock = await start();
    const mine = { authorization: `Bearer ${mock.auth.issueToken({ scopes: ["read"], clientId: "app-a" })}` };
    const theirs = { authorization: `Bearer ${mock.auth.issueToken({ scopes: ["read"], clientId: "app-b" })}` };
    const stream = await LegacyStream.open(mock.sseUrl, mine);
    try {
      // Before initialize and after it (initialize opens the session anew, still the opener's).
      expect((await stream.post({ jsonrpc: "2.0", id: 0, method: "ping" }, theirs)).status).toBe(404);
      await stream.initialize("2024-11-05", {}, mine);
      const other = await stream.post({ jsonrpc: "2.0", id: 1, method: "ping" }, theirs);
      expect(other.status).toBe(404);
      expect(await other.text()).toContain("no GET /sse connection with this token opened session");
      const own = await stream.post({ jsonrpc: "2.0", id: 2, method: "ping" }, mine);
      expect(own.status).toBe(202);
      // The same client and user with a new token is the same principal.
      const again = await stream.post({ jsonrpc: "2.0", id: 3, method: "ping" }, { authorization: `Bearer ${mock.auth.issueToken({ scopes: ["read"], clientId: "app-a" })}` });
      expect(again.status).toBe(202);
    } finally {
      stream.close();
    }
  });
});
