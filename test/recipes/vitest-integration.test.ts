// recipe: test/recipes/vitest-integration.test.ts
import { expect } from "vitest";
import { toolsCall } from "mcpmock";
import { mcpTest } from "mcpmock/vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

// A fresh mock per test, closed after it; the test fails if a request matched no stub.
const test = mcpTest({ tools: [{ name: "search", inputSchema: { type: "object" } }] });

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "search-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

test.concurrent("finds cats", async ({ mock }) => {
  mock.toolsCall("search").withArgs({ q: "cats" }).respondsWith("3 cats");
  const client = await connect(mock.url);
  await client.callTool({ name: "search", arguments: { q: "cats" } });
  await client.callTool({ name: "search", arguments: { q: "cats" } });
  await client.close();
  expect(mock).toHaveReceived(toolsCall("search").withArgs({ q: "cats" }));
  expect(mock).toHaveReceivedTimes(toolsCall("search"), 2);
  expect(mock).not.toHaveReceived(toolsCall("search").withArgs({ q: "dogs" }));
});

test.concurrent("an unstubbed call on purpose", async ({ mock }) => {
  mock.allowUnmatched(); // without it, this test would fail with the miss report
  const client = await connect(mock.url);
  const result = await client.callTool({ name: "search", arguments: { q: "dogs" } });
  expect(result.isError).toBe(true);
  await client.close();
});
