/**
 * Issue 32, "Beyond": `mock.auth.clientProvider()` is an `OAuthClientProvider` that completes
 * the embedded OAuth flow by itself, so a client's real OAuth code (discovery, dynamic
 * registration, PKCE, the token request with `resource`, refresh) runs in a test in three
 * lines, without `finishAuth` or hand-made `fetch(..., { redirect: "manual" })`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "vitest";
import { McpMock } from "mcpmock";

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
