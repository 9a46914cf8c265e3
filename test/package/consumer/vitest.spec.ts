/**
 * Runs in the temporary project the package test creates, with vitest, against the
 * installed tarball: "mcpmock" here is node_modules/mcpmock, not src/.
 */
import { expect, test } from "vitest";
import { McpMock, toolsCall } from "mcpmock";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const tools = [{ name: "add", inputSchema: { type: "object",
  properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }] as const;

test("vitest: the installed mock answers the SDK client", async () => {
  await using mock = await McpMock.start({ tools });
  mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
  const client = new Client({ name: "vitest-consumer", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  const result = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
  expect(result.content).toEqual([{ type: "text", text: '{"sum":3}' }]);
  mock.verify(toolsCall("add").withArgs({ a: 1, b: 2 }), 1);
  await client.close();
});
