/**
 * Issue 43, item 5: after `mock.auth.expire()`, the SDK client that connected with
 * `mock.auth.clientProvider()` refreshes with its refresh token: `refresh_token` grants only, no
 * second authorization, and no `/token` 400 on the way (the SDK's own OAuth code, over HTTP).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "vitest";
import { McpMock } from "../../src/index.js";

test("an expired access token is refreshed with the refresh token, not a new authorization", async () => {
  await using mock = await McpMock.start({ auth: { scopes: ["read"], required: ["read"] }, tools: [{ name: "echo" }] });
  mock.toolsCall("echo").respondsWith("hi");
  const provider = mock.auth.clientProvider();
  const client = new Client({ name: "oauth-app", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url), { authProvider: provider }));
  const first = provider.tokens();
  expect(first?.refresh_token).toEqual(expect.any(String));
  const before = mock.auth.requests().length;

  mock.auth.expire();
  expect(await client.callTool({ name: "echo", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "hi" }] });
  await client.close();

  const after = mock.auth.requests().slice(before);
  expect(after.filter((e) => e.endpoint === "authorize")).toEqual([]);
  // The POST and the GET stream may both be told 401: each refresh uses the newest refresh token.
  const grants = after.filter((e) => e.endpoint === "token").map((e) => `${e.grantType} ${e.status}`);
  expect(grants.length).toBeGreaterThan(0);
  expect(new Set(grants)).toEqual(new Set(["refresh_token 200"]));
  expect(after.filter((e) => e.status >= 400 && e.endpoint !== "mcp")).toEqual([]);
  expect(provider.tokens()?.access_token).not.toBe(first?.access_token);
});

test("when the refresh token is revoked too, the client authorizes again, still without a spurious 400 logged", async () => {
  await using mock = await McpMock.start({ auth: { scopes: ["read"], required: ["read"] }, tools: [{ name: "echo" }] });
  mock.toolsCall("echo").respondsWith("hi");
  const provider = mock.auth.clientProvider();
  const client = new Client({ name: "oauth-app", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url), { authProvider: provider }));
  const before = mock.auth.requests().length;
  mock.auth.revoke();
  expect(await client.callTool({ name: "echo", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "hi" }] });
  await client.close();
  const tokens = mock.auth.requests().slice(before).filter((e) => e.endpoint === "token").map((e) => `${e.grantType} ${e.status}`);
  // The refused refresh is a real 400; then a new authorization (one per flow told 401), each with its own PKCE verifier.
  expect(tokens[0]).toBe("refresh_token 400");
  expect(new Set(tokens.slice(1))).toEqual(new Set(["authorization_code 200"]));
  expect(mock.auth.requests().slice(before).filter((e) => e.description?.includes("code_verifier"))).toEqual([]);
});
