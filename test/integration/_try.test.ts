import { test, expect } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Client as Client2 } from "@modelcontextprotocol/client";
import { McpMock } from "../../src/index.js";
test("try", async () => {
  const mock = await McpMock.start({ transport: "none", tools: [{ name: "echo", inputSchema: { type: "object" } }] });
  mock.toolsCall("echo").respondsWith("hi");
  const c1 = new Client({ name: "a", version: "1" });
  await c1.connect(mock.clientTransport());
  expect((await c1.callTool({ name: "echo", arguments: {} })).content).toEqual([{ type: "text", text: "hi" }]);
  const c2 = new Client2({ name: "b", version: "1" });
  await c2.connect(mock.clientTransport());
  expect((await c2.callTool({ name: "echo", arguments: {} })).content).toEqual([{ type: "text", text: "hi" }]);
  console.log(mock.sessions().map(s=>s.id), mock.requests().map(r=>r.transport));
  await mock.close();
});
