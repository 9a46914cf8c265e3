/**
 * The authorization server attacked with bad input, over raw HTTP and through the SDK client's
 * own OAuth code: redirect URIs OAuth forbids (RFC 6749 section 3.1.2, the MCP authorization
 * pages: no fragment; HTTPS, or http on a loopback host), bad HTTP Basic credentials,
 * repeated parameters, a missing grant_type, a replayed code (which revokes what it gave), and
 * another scheme than Bearer on the MCP endpoint (RFC 6750 section 3.1: no error code).
 */
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpMock } from "../../src/index.js";
import { TestOAuthProvider } from "../support/oauth-provider.js";
import { HEADERS } from "../support/raw-http.js";
import { MAX_CLIENTS } from "../../src/auth/clients.js";

const REDIRECT = "http://127.0.0.1:9/cb";

async function start(): Promise<McpMock> {
  return McpMock.start({ auth: { scopes: ["read"] }, onUnmatched: "silent" });
}

function registerWith(mock: McpMock, redirectUris: unknown): Promise<Response> {
  return fetch(new URL("/register", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: redirectUris }) });
}

function tokenWith(mock: McpMock, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL("/token", mock.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body });
}

/** A registered public client and a code for it, as the flow gets them. */
async function codeFor(mock: McpMock): Promise<{ clientId: string; code: string; verifier: string }> {
  const clientId = ((await (await registerWith(mock, [REDIRECT])).json()) as { client_id: string }).client_id;
  const verifier = randomBytes(32).toString("base64url");
  const url = new URL("/authorize", mock.url);
  const q = { response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256", resource: mock.url };
  for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: "manual" });
  const code = new URL(res.headers.get("location") ?? "").searchParams.get("code") ?? "";
  return { clientId, code, verifier };
}

describe("/register refuses redirect URIs OAuth does not allow", () => {
  const refused = ["javascript:alert(document.domain)", "data:text/html,<script>alert(1)</script>", "file:///etc/passwd", "vbscript:msgbox(1)", "http://127.0.0.1:3000/cb#fragment", "http://evil.example/cb", "ftp://127.0.0.1/cb", "http://127.0.0.1.evil.example/cb"];
  test.each(refused)("%s: 400 invalid_redirect_uri, saying what is allowed", async (uri) => {
    await using mock = await start();
    const res = await registerWith(mock, [REDIRECT, uri]);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe("invalid_redirect_uri");
    expect(body.error_description).toContain(JSON.stringify(uri));
    expect(body.error_description).toMatch(/https, or http on a loopback host/);
  });

  test("https anywhere, and http on localhost, 127.x and [::1], are accepted", async () => {
    await using mock = await start();
    const res = await registerWith(mock, ["https://app.example/cb", "http://localhost:3000/cb", "http://127.0.0.1:1/cb?x=1", "http://[::1]:8080/cb"]);
    expect(res.status).toBe(201);
  });

  test("the SDK client with a javascript: redirect URL is refused at registration, never redirected there", async () => {
    await using mock = await start();
    const provider = new TestOAuthProvider({ redirect_uris: ["javascript:alert(document.domain)"] });
    const client = new Client({ name: "t", version: "1" });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(mock.url), { authProvider: provider }))).rejects.toThrow(/redirect/i);
    expect(provider.authorizations).toEqual([]);
    mock.auth.verify({ endpoint: "register", status: 400, outcome: "invalid_redirect_uri" }, 1);
    expect(mock.auth.requests({ endpoint: "authorize" })).toEqual([]);
  });
});

describe("/token with bad input", () => {
  test("HTTP Basic credentials with bad percent-encoding: 401 invalid_client, and the attempt is logged", async () => {
    await using mock = await start();
    for (const credentials of ["%zz:x", "client:%E0%A4%A", "%:%"]) {
      const res = await tokenWith(mock, "grant_type=authorization_code&code=x", { authorization: `Basic ${Buffer.from(credentials).toString("base64")}` });
      expect(res.status, credentials).toBe(401);
      expect(((await res.json()) as { error: string }).error).toBe("invalid_client");
    }
    mock.auth.verify({ endpoint: "token", status: 401, outcome: "invalid_client" }, 3);
  });

  test("a repeated code or redirect_uri, and a missing grant_type, are invalid_request", async () => {
    await using mock = await start();
    const { clientId, code, verifier } = await codeFor(mock);
    const base = `client_id=${clientId}&code_verifier=${verifier}`;
    const cases = [
      [`grant_type=authorization_code&code=${code}&code=${code}&redirect_uri=${encodeURIComponent(REDIRECT)}&${base}`, "code"],
      [`grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(REDIRECT)}&redirect_uri=${encodeURIComponent(REDIRECT)}&${base}`, "redirect_uri"],
      [`code=${code}&redirect_uri=${encodeURIComponent(REDIRECT)}&${base}`, "grant_type"],
    ] as const;
    for (const [body, name] of cases) {
      const res = await tokenWith(mock, body);
      expect(res.status, name).toBe(400);
      const answer = (await res.json()) as { error: string; error_description: string };
      expect(answer.error, name).toBe("invalid_request");
      expect(answer.error_description, name).toContain(name);
    }
    // None of them used the code up: it still exchanges once.
    const ok = await tokenWith(mock, `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(REDIRECT)}&${base}`);
    expect(ok.status).toBe(200);
  });

  test("a replayed code is refused and revokes the tokens issued for it (RFC 6749 section 4.1.2)", async () => {
    await using mock = await start();
    const { clientId, code, verifier } = await codeFor(mock);
    const form = `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(REDIRECT)}&client_id=${clientId}&code_verifier=${verifier}`;
    const first = (await (await tokenWith(mock, form)).json()) as { access_token: string; refresh_token: string };
    const call = (): Promise<Response> => fetch(mock.url, { method: "POST", headers: { ...HEADERS, authorization: `Bearer ${first.access_token}` }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
    expect((await call()).status).not.toBe(401);
    const replay = await tokenWith(mock, form);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringContaining("revoked") });
    expect((await call()).status).toBe(401);
    const refresh = await tokenWith(mock, `grant_type=refresh_token&refresh_token=${first.refresh_token}&client_id=${clientId}`);
    expect(refresh.status).toBe(400);
    expect(mock.auth.issued().every((t) => t.revoked)).toBe(true);
  });
});

describe("/authorize with a parameter twice", () => {
  test("client_id or redirect_uri twice is answered at the server (never redirected); another one twice is redirected as invalid_request", async () => {
    await using mock = await start();
    const clientId = ((await (await registerWith(mock, [REDIRECT])).json()) as { client_id: string }).client_id;
    const base = { response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: "c".repeat(43), code_challenge_method: "S256", resource: mock.url };
    const go = (extra: Record<string, string>): Promise<Response> => {
      const url = new URL("/authorize", mock.url);
      for (const [k, v] of Object.entries(base)) url.searchParams.set(k, v);
      for (const [k, v] of Object.entries(extra)) url.searchParams.append(k, v);
      return fetch(url, { redirect: "manual" });
    };
    const twiceRedirect = await go({ redirect_uri: "https://evil.example/cb" });
    expect(twiceRedirect.status).toBe(400);
    expect(twiceRedirect.headers.get("location")).toBeNull();
    expect(await twiceRedirect.json()).toMatchObject({ error: "invalid_request", error_description: expect.stringContaining("redirect_uri is sent more than once") });
    // resource may repeat (RFC 8707); another parameter may not.
    const twiceScope = await go({ code_challenge_method: "S256", resource: mock.url });
    expect(twiceScope.status).toBe(302);
    const back = new URL(twiceScope.headers.get("location") ?? "");
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("error_description")).toContain("code_challenge_method is sent more than once");
    expect(back.searchParams.get("error_description")).not.toContain("resource");
    expect(back.searchParams.get("code")).toBeNull();
  });
});

describe("resource more than once (RFC 8707: one for each resource asked for)", () => {
  /** An authorization request with these resources (each its own parameter); the redirect it got. */
  async function authorizeFor(mock: McpMock, clientId: string, verifier: string, resources: readonly string[]): Promise<URL> {
    const url = new URL("/authorize", mock.url);
    const q = { response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256" };
    for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
    for (const r of resources) url.searchParams.append("resource", r);
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(302);
    return new URL(res.headers.get("location") ?? "");
  }

  test("/authorize takes each of this server's resources, and /token a token for any of them, or for both at once", async () => {
    await using mock = await start();
    const clientId = ((await (await registerWith(mock, [REDIRECT])).json()) as { client_id: string }).client_id;
    const verifier = randomBytes(32).toString("base64url");
    const back = await authorizeFor(mock, clientId, verifier, [mock.url, mock.sseUrl]);
    expect(back.searchParams.get("error_description")).toBeNull();
    const code = back.searchParams.get("code") ?? "";
    expect(code).not.toBe("");
    const form = `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(REDIRECT)}&client_id=${clientId}&code_verifier=${verifier}`;
    const res = await tokenWith(mock, `${form}&resource=${encodeURIComponent(mock.sseUrl)}&resource=${encodeURIComponent(mock.url)}`);
    expect(res.status).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    const ping = await fetch(mock.url, { method: "POST", headers: { ...HEADERS, authorization: `Bearer ${access_token}` }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
    expect(ping.status).not.toBe(401);
    expect(mock.auth.issued().find((t) => t.token === access_token)?.resource).toBe(mock.sseUrl);
  });

  test("every resource must be this server's; /token may name only resources the authorization asked for", async () => {
    await using mock = await start();
    const clientId = ((await (await registerWith(mock, [REDIRECT])).json()) as { client_id: string }).client_id;
    const verifier = randomBytes(32).toString("base64url");
    const refused = await authorizeFor(mock, clientId, verifier, [mock.url, "https://elsewhere.example/mcp"]);
    expect(refused.searchParams.get("error")).toBe("invalid_target");
    expect(refused.searchParams.get("error_description")).toContain("resource https://elsewhere.example/mcp is not this server's protected resource");
    expect(refused.searchParams.get("code")).toBeNull();
    const code = (await authorizeFor(mock, clientId, verifier, [mock.url])).searchParams.get("code") ?? "";
    const form = `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(REDIRECT)}&client_id=${clientId}&code_verifier=${verifier}`;
    const res = await tokenWith(mock, `${form}&resource=${encodeURIComponent(mock.url)}&resource=${encodeURIComponent(mock.sseUrl)}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_target", error_description: expect.stringContaining(`resource ${mock.sseUrl} was not asked for in the authorization request`) });
  });
});

describe("the MCP endpoint and other schemes", () => {
  test("a Basic header gets a challenge without an error code (RFC 6750 section 3.1); a malformed Bearer one keeps invalid_request", async () => {
    await using mock = await start();
    const basic = await fetch(mock.url, { method: "POST", headers: { ...HEADERS, authorization: "Basic dXNlcjpwYXNz" }, body: "{}" });
    expect(basic.status).toBe(401);
    const challenge = basic.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).not.toContain("error=");
    expect(await basic.json()).not.toHaveProperty("error");
    const malformed = await fetch(mock.url, { method: "POST", headers: { ...HEADERS, authorization: "Bearer a b" }, body: "{}" });
    expect(malformed.headers.get("www-authenticate")).toContain('error="invalid_request"');
  });
});

describe("the registration cap", () => {
  test(`past ${MAX_CLIENTS} registered clients the oldest is dropped, the auth events say so, and its later use says why it is unknown`, async () => {
    await using mock = await start();
    const one = async (): Promise<string> => ((await (await registerWith(mock, [REDIRECT])).json()) as { client_id: string }).client_id;
    const ids = [await one()]; // the oldest; the others in batches
    for (let i = 0; i < MAX_CLIENTS; i += 50) ids.push(...(await Promise.all(Array.from({ length: 50 }, one))));
    const dropped = mock.auth.requests({ endpoint: "register", outcome: "client-dropped" });
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatchObject({ clientId: ids[0], description: expect.stringContaining(`keeps the latest ${MAX_CLIENTS} registered clients (at most 16 MiB of their metadata)`) });
    const res = await tokenWith(mock, `grant_type=authorization_code&code=x&client_id=${ids[0]}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "invalid_client", error_description: expect.stringContaining("was registered, then dropped") });
    // The newest are kept.
    expect((await tokenWith(mock, `grant_type=authorization_code&code=x&client_id=${ids[1]}`)).status).toBe(400);
  }, 30_000);
});
