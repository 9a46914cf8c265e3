// recipe: test/recipes/per-test-mock.test.ts
import { expect, test } from "vitest";
import { McpMock } from "mcpmock";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const tools = [{ name: "get_weather", inputSchema: { type: "object",
  properties: { city: { type: "string" } }, required: ["city"] } }] as const;

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "weather-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

// Each test owns a mock on its own free port, so tests may run concurrently.
test.concurrent("sunny in Paris", async () => {
  await using mock = await McpMock.start({ tools }); // closed when the test ends, passed or failed
  mock.toolsCall("get_weather").withArgs({ city: "Paris" }).respondsWith({ temp: 21 });
  const client = await connect(mock.url);
  const result = await client.callTool({ name: "get_weather", arguments: { city: "Paris" } });
  expect(result.content).toEqual([{ type: "text", text: '{"temp":21}' }]);
  await client.close();
});

test.concurrent("the weather service is down", async () => {
  await using mock = await McpMock.start({ tools });
  mock.toolsCall("get_weather").respondsWith("Service unavailable", { isError: true });
  const client = await connect(mock.url);
  const result = await client.callTool({ name: "get_weather", arguments: { city: "Paris" } });
  expect(result.isError).toBe(true);
  await client.close();
});
