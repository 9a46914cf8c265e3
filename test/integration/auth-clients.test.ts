/**
 * Authorization mocking driven by the official clients' own OAuth code: discovery from the 401,
 * dynamic registration, authorization with PKCE, the token exchange, then MCP calls; a refresh
 * after the token expires mid-test; step-up on insufficient_scope; every metadata variant.
 */
import { describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2, UnauthorizedError as UnauthorizedErrorV2 } from "@modelcontextprotocol/client";
import { McpMock, type AuthOptions } from "../../src/index.js";
import { TestOAuthProvider } from "../support/oauth-provider.js";

const tools = [{ name: "echo", inputSchema: { type: "object" } }] as const;

/** The v1 client's flow: connect (401, discovery, registration, redirect), finish, connect again. */
async function authorizedClient(mock: McpMock, provider: TestOAuthProvider): Promise<Client> {
  const first = new Client({ name: "t", version: "1" });
  await expect(first.connect(new StreamableHTTPClientTransport(new URL(mock.url), { authProvider: provider }))).rejects.toThrow(UnauthorizedError);
  const transport = new StreamableHTTPClientTransport(new URL(mock.url), { authProvider: provider });
  await transport.finishAuth(provider.code());
  const client = new Client({ name: "t", version: "1" });
  await client.connect(transport);
  // The client opens its GET stream after initialize, on its own: wait for it, so a test that
  // expires the token next does not race it (a GET and a POST refreshing at once, the second
  // with a rotated refresh token).
  await until(() => mock.auth.requests({ endpoint: "mcp", method: "GET", status: 200 }).length > 0);
  return client;
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; !done(); i++) {
    if (i > 200) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function started(auth: AuthOptions): Promise<McpMock> {
  const mock = await McpMock.start({ tools, auth });
  mock.toolsCall("echo").respondsWith("hi");
  return mock;
}

describe("the v1 client's OAuth flow against the mock", () => {
  test("discovery, registration, PKCE, token exchange, then a tool call; the journal and the auth events show it", async () => {
    await using mock = await started({ scopes: ["read", "write"], required: ["read"] });
    const provider = new TestOAuthProvider();
    const client = await authorizedClient(mock, provider);
    expect(await client.callTool({ name: "echo", arguments: {} })).toEqual({ content: [{ type: "text", text: "hi" }] });
    await client.close();

    const auth = provider.authorizations[0] as URL;
    expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
    expect(auth.searchParams.get("resource")).toBe(mock.url);
    expect(auth.searchParams.get("scope")).toBe("read");
    expect(provider.lastRedirect?.searchParams.get("state")).toBe("state-1");
    expect(provider.lastRedirect?.searchParams.get("iss")).toBe(new URL(mock.url).origin);
    const endpoints = mock.auth.requests().map((e) => `${e.endpoint} ${e.status} ${e.outcome}`);
    // finishAuth() reads the discovery the provider kept.
    expect(endpoints.slice(0, 6)).toEqual([
      "mcp 401 missing-token",
      "resource-metadata 200 ok",
      "server-metadata 200 ok",
      "register 201 ok",
      "authorize 302 ok",
      "token 200 ok",
    ]);
    const [access] = mock.auth.issued();
    expect(access).toMatchObject({ id: "token-1", kind: "access", scopes: ["read"], subject: "user", resource: mock.url });
    expect(mock.auth.requests({ endpoint: "mcp", status: 200 }).every((e) => e.tokenId === "token-1")).toBe(true);
    // The MCP journal keeps the header redacted.
    expect(mock.requests().every((e) => e.headers["authorization"] === "[redacted]")).toBe(true);
    mock.auth.verify({ endpoint: "token", grantType: "authorization_code", status: 200 }, 1);
  });

  test("a token expired mid-test is refreshed by the client (rotation), and the next call succeeds", async () => {
    await using mock = await started({ required: ["read"] });
    const provider = new TestOAuthProvider();
    const client = await authorizedClient(mock, provider);
    const firstRefresh = provider.tokens()?.refresh_token;
    mock.auth.expire();
    expect(await client.callTool({ name: "echo", arguments: {} })).toEqual({ content: [{ type: "text", text: "hi" }] });
    mock.auth.verify({ endpoint: "mcp", status: 401, outcome: "expired-token" }, 1);
    mock.auth.verify({ endpoint: "token", grantType: "refresh_token", status: 200 }, 1);
    expect(provider.tokens()?.refresh_token).not.toBe(firstRefresh);
    // The rotated refresh token is used up.
    const reused = await fetch(new URL("/token", mock.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: firstRefresh ?? "", client_id: String(provider.clientInformation()?.client_id) }) });
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: "invalid_grant" });
    await client.close();
  });

  test("step-up: a 403 insufficient_scope sends the client to authorize again with the scopes it names", async () => {
    await using mock = await started({ scopes: ["read", "write"], required: ["read"], refreshTokens: false });
    const provider = new TestOAuthProvider();
    const client = await authorizedClient(mock, provider);
    mock.auth.requireScopes(["read", "write"]);
    await expect(client.callTool({ name: "echo", arguments: {} })).rejects.toThrow(UnauthorizedError);
    expect(provider.authorizations[1]?.searchParams.get("scope")).toBe("read write");
    const transport = client.transport as StreamableHTTPClientTransport;
    await transport.finishAuth(provider.code());
    expect(await client.callTool({ name: "echo", arguments: {} })).toEqual({ content: [{ type: "text", text: "hi" }] });
    mock.auth.verify({ endpoint: "mcp", status: 403, outcome: "insufficient-scope" });
    expect(mock.auth.issued().at(-1)?.scopes).toEqual(["read", "write"]);
    await client.close();
  });

  test("step-up with a refresh token: v1 refreshes (the same scopes) instead of authorizing again, and gives up", async () => {
    // A client limitation the mock shows (SDK 1.32): a refresh cannot widen a grant (RFC 6749 section 6).
    await using mock = await started({ scopes: ["read", "write"], required: ["read"] });
    const client = await authorizedClient(mock, new TestOAuthProvider());
    mock.auth.requireScopes(["read", "write"]);
    await expect(client.callTool({ name: "echo", arguments: {} })).rejects.toThrow("403 after trying upscoping");
    mock.auth.verify({ endpoint: "token", grantType: "refresh_token", status: 200 }, 1);
    mock.auth.verify({ endpoint: "authorize" }, 1);
    await client.close();
  });

  test.each<[string, AuthOptions]>([
    ["metadata at the root path", { metadataAt: "root" }],
    ["a challenge without resource_metadata (the client probes the well-known URLs)", { challengeMetadata: false }],
    ["no resource_metadata and metadata at the root (path probe 404, then root)", { challengeMetadata: false, metadataAt: "root" }],
    ["OpenID Connect discovery only (the client falls back to openid-configuration)", { serverMetadata: "openid" }],
  ])("variant: %s", async (_name, variant) => {
    await using mock = await started({ required: ["read"], ...variant });
    const client = await authorizedClient(mock, new TestOAuthProvider());
    expect(await client.callTool({ name: "echo", arguments: {} })).toEqual({ content: [{ type: "text", text: "hi" }] });
    await client.close();
    mock.auth.verify({ endpoint: "resource-metadata", status: 200, path: variant.metadataAt === "root" ? "/.well-known/oauth-protected-resource" : "/.well-known/oauth-protected-resource/mcp" });
    mock.auth.verify({ endpoint: "server-metadata", status: 200, path: variant.serverMetadata === "openid" ? "/.well-known/openid-configuration" : "/.well-known/oauth-authorization-server" });
  });

  test("consent: \"deny\" redirects back with access_denied, state and iss", async () => {
    await using mock = await started({ consent: "deny" });
    const provider = new TestOAuthProvider();
    await expect(new Client({ name: "t", version: "1" }).connect(new StreamableHTTPClientTransport(new URL(mock.url), { authProvider: provider }))).rejects.toThrow(UnauthorizedError);
    expect(provider.lastRedirect?.searchParams.get("error")).toBe("access_denied");
    expect(provider.lastRedirect?.searchParams.get("state")).toBe("state-1");
    expect(provider.lastRedirect?.searchParams.get("iss")).toBe(new URL(mock.url).origin);
  });
});

describe("the v2 client's OAuth flow against the mock", () => {
  /** The v2 flow: connect (401 ... redirect), finishAuth with the callback's parameters (code and iss), connect again. */
  async function authorizedV2(mock: McpMock, provider: TestOAuthProvider): Promise<ClientV2> {
    const first = new ClientV2({ name: "t", version: "1" });
    await expect(first.connect(new TransportV2(new URL(mock.url), { authProvider: provider as never }))).rejects.toThrow(UnauthorizedErrorV2);
    const transport = new TransportV2(new URL(mock.url), { authProvider: provider as never });
    await transport.finishAuth((provider.lastRedirect as URL).searchParams);
    const client = new ClientV2({ name: "t", version: "1" });
    await client.connect(transport);
    await until(() => mock.auth.requests({ endpoint: "mcp", method: "GET", status: 200 }).length > 0);
    return client;
  }

  test("discovery, registration, PKCE, the exchange (iss checked by the client), then a tool call", async () => {
    await using mock = await started({ scopes: ["read", "write"], required: ["read"] });
    const provider = new TestOAuthProvider();
    const client = await authorizedV2(mock, provider);
    expect(await client.callTool({ name: "echo", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    expect(provider.authorizations[0]?.searchParams.get("resource")).toBe(mock.url);
    mock.auth.verify({ endpoint: "token", grantType: "authorization_code", status: 200 }, 1);
    await client.close();
  });

  test("a token expired mid-test is refreshed, and the next call succeeds", async () => {
    await using mock = await started({ required: ["read"] });
    const client = await authorizedV2(mock, new TestOAuthProvider());
    mock.auth.expire();
    expect(await client.callTool({ name: "echo", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    mock.auth.verify({ endpoint: "token", grantType: "refresh_token", status: 200 }, 1);
    await client.close();
  });

  test("step-up on insufficient_scope: the client authorizes again for the scopes the 403 names", async () => {
    await using mock = await started({ scopes: ["read", "write"], required: ["read"], refreshTokens: false });
    const provider = new TestOAuthProvider();
    const client = await authorizedV2(mock, provider);
    mock.auth.requireScopes(["read", "write"]);
    await expect(client.callTool({ name: "echo", arguments: {} })).rejects.toThrow();
    expect(provider.authorizations.at(-1)?.searchParams.get("scope")).toBe("read write");
    await (client.transport as TransportV2).finishAuth((provider.lastRedirect as URL).searchParams);
    expect(await client.callTool({ name: "echo", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    expect(mock.auth.issued().at(-1)?.scopes).toEqual(["read", "write"]);
    await client.close();
  });
});

describe("the legacy HTTP+SSE client's OAuth flow", () => {
  test("GET /sse is a protected resource of its own (<origin>/sse): the v1 SSEClientTransport authorizes, then calls a tool over /messages", async () => {
    const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
    await using mock = await started({ required: ["read"] });
    const provider = new TestOAuthProvider();
    await expect(new Client({ name: "t", version: "1" }).connect(new SSEClientTransport(new URL(mock.sseUrl), { authProvider: provider }))).rejects.toThrow(UnauthorizedError);
    expect(provider.authorizations[0]?.searchParams.get("resource")).toBe(mock.sseUrl);
    const transport = new SSEClientTransport(new URL(mock.sseUrl), { authProvider: provider });
    await transport.finishAuth(provider.code());
    const client = new Client({ name: "t", version: "1" });
    await client.connect(transport);
    expect(await client.callTool({ name: "echo", arguments: {} })).toEqual({ content: [{ type: "text", text: "hi" }] });
    mock.auth.verify({ endpoint: "resource-metadata", path: "/.well-known/oauth-protected-resource/sse" });
    mock.auth.verify({ endpoint: "mcp", path: "/messages", status: 200 });
    await client.close();
  });
});
