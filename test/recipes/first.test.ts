// recipe: test/recipes/first.test.ts
import { expect, test } from "vitest";
import { McpMock } from "mcpmock";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

test("the client gets the stubbed answer", async () => {
  await using mock = await McpMock.start({ tools: [{ name: "add" }] }); // a free port on 127.0.0.1
  mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });

  const client = new Client({ name: "my-test", version: "1.0.0" }); // the code under test's client
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  const result = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
  expect(result.content).toEqual([{ type: "text", text: '{"sum":3}' }]);
  await client.close();
});
