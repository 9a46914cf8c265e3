/**
 * Issue 32, "Beyond": `mock.auth.clientProvider()` is an `OAuthClientProvider` that completes
 * the embedded OAuth flow by itself, so a client's real OAuth code (discovery, dynamic
 * registration, PKCE, the token request with `resource`, refresh) runs in a test in three
 * lines, without `finishAuth` or hand-made `fetch(..., { redirect: "manual" })`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { AuthorizationServerMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { McpMock } from "mcpmock";
import { MockOAuthClientProvider } from "../../src/auth/client-provider.js";

test("the SDK client's own OAuth code connects with it on the first try", async () => {
  await using mock = await McpMock.start({ auth: { scopes: ["read", "write"], required: ["read"] }, tools: [{ name: "echo" }] });
  mock.toolsCall("echo").respondsWith("hi");
  const provider = mock.auth.clientProvider();
  const client = new Client({ name: "oauth-app", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url), { authProvider: provider }));
  expect(await client.callTool({ name: "echo", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "hi" }] });
  await client.close();
  // The flow ran through the mock's endpoints, as a real client's would.
  const endpoints = mock.auth.requests().map((e) => `${e.endpoint} ${e.status}`);
  expect(endpoints).toEqual(expect.arrayContaining(["mcp 401", "resource-metadata 200", "server-metadata 200", "register 201", "authorize 302", "token 200", "mcp 200"]));
  expect(provider.tokens()?.access_token).toEqual(expect.any(String));
  expect(mock.auth.issued().some((t) => t.scopes.includes("read"))).toBe(true);
});

test("it asks for the scopes it is given, and a second client reuses nothing of the first", async () => {
  await using mock = await McpMock.start({ auth: { scopes: ["read", "write"], required: ["read"] }, tools: [{ name: "echo" }] });
  mock.toolsCall("echo").respondsWith("hi");
  const provider = mock.auth.clientProvider({ scope: "read write" });
  const client = new Client({ name: "oauth-app", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url), { authProvider: provider }));
  await client.close();
  expect(mock.auth.issued().find((t) => t.kind === "access")?.scopes).toEqual(["read", "write"]);
  expect(mock.auth.clientProvider().tokens()).toBeUndefined();
});

describe("the provider on its own", () => {
  const metadataAt = (base: string, authorize: string): AuthorizationServerMetadata => ({
    issuer: base,
    authorization_endpoint: `${base}${authorize}`,
    token_endpoint: `${base}/token`,
    response_types_supported: ["code"],
  });

  test("it sends the browser to the authorization endpoint the metadata names, with PKCE S256 and the resource", async () => {
    const seen: URL[] = [];
    const server = createServer((req, res) => {
      seen.push(new URL(req.url ?? "/", "http://127.0.0.1"));
      res.writeHead(302, { location: "http://127.0.0.1/mcpmock-oauth-callback?code=the-code" }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const provider = new MockOAuthClientProvider("/mcp");
      provider.saveClientInformation({ client_id: "client-1" });
      provider.saveDiscoveryState({ authorizationServerUrl: base, authorizationServerMetadata: metadataAt(base, "/oauth2/v1/authorize") });
      const request = await provider.prepareTokenRequest();
      expect(seen.map((u) => u.pathname)).toEqual(["/oauth2/v1/authorize"]);
      const q = (seen[0] as URL).searchParams;
      expect(q.get("resource")).toBe(`${base}/mcp`);
      expect(q.get("code_challenge")).toBe(createHash("sha256").update(provider.codeVerifier()).digest("base64url"));
      expect(Object.fromEntries(request)).toMatchObject({ grant_type: "authorization_code", code: "the-code", code_verifier: provider.codeVerifier() });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("an SDK that does not run the flow it needs is told which version does, and what it did instead", async () => {
    const provider = new MockOAuthClientProvider("/mcp");
    expect(() => provider.redirectToAuthorization(new URL("http://127.0.0.1:1/authorize?x=1"))).toThrow(
      "[mcpmock] clientProvider() needs @modelcontextprotocol/sdk 1.27.0 or later: the client's SDK asked to send a browser to http://127.0.0.1:1/authorize?x=1, as SDKs before 1.24.0 do without a redirectUrl",
    );
    provider.saveClientInformation({ client_id: "client-1" });
    await expect(provider.prepareTokenRequest()).rejects.toThrow(
      "[mcpmock] clientProvider() needs @modelcontextprotocol/sdk 1.27.0 or later: the client's SDK asked for a token without handing over the authorization server's metadata (saveDiscoveryState was not called)",
    );
  });
});
