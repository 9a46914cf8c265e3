import { expect, test } from "vitest";
import { ANY, McpMock, text } from "../src/index.js";
import { connect } from "./support/clients.js";

test.each(["v1", "v2"] as const)("smoke %s", async (kind) => {
  const tools = [{ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }] as const;
  await using mock = await McpMock.start({ tools });
  mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
  mock.toolsCall("add").withArgs(ANY).respondsWith(text("fallback"));
  const client = await connect(kind, mock.url);
  const list = await client.listTools();
  expect(list.tools.map((t) => t.name)).toEqual(["add"]);
  expect(await client.callTool("add", { a: 1, b: 2 })).toEqual({ content: [{ type: "text", text: '{"sum":3}' }] });
  expect(await client.callTool("add", { a: 5, b: 2 })).toEqual({ content: [{ type: "text", text: "fallback" }] });
  const bad = await client.callTool("add", { a: "x" });
  console.log(bad);
  console.log(client.transportErrors);
  await client.close();
});
