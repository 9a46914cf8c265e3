// Runs in the temporary project with jest in ESM mode
// (node --experimental-vm-modules node_modules/jest/bin/jest.js), against the installed tarball.
import { expect, test } from "@jest/globals";
import { McpMock, toolsCall } from "mcpmock";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

test("jest: the installed mock answers the SDK client", async () => {
  const mock = await McpMock.start({ tools: [{ name: "add" }] });
  try {
    mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    const client = new Client({ name: "jest-consumer", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
    const result = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    expect(result.content).toEqual([{ type: "text", text: '{"sum":3}' }]);
    mock.verify(toolsCall("add"), 1);
    await client.close();
  } finally {
    await mock.close();
  }
});
