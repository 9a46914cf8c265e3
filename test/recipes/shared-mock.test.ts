// recipe: test/recipes/shared-mock.test.ts
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { McpMock, never, toolsCall } from "mcpmock";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const tools = [{ name: "get_weather", inputSchema: { type: "object",
  properties: { city: { type: "string" } }, required: ["city"] } }] as const;
let mock: McpMock<typeof tools>;
let client: Client;

beforeAll(async () => {
  mock = await McpMock.start({ tools });
  client = new Client({ name: "weather-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
});

// Stubs, journal and scenarios start empty in every test; declarations and sessions stay.
afterEach(() => mock.reset());

afterAll(async () => {
  await client.close();
  await mock.close();
});

test("Paris", async () => {
  mock.toolsCall("get_weather").withArgs({ city: "Paris" }).respondsWith({ temp: 21 });
  const result = await client.callTool({ name: "get_weather", arguments: { city: "Paris" } });
  expect(result.content).toEqual([{ type: "text", text: '{"temp":21}' }]);
});

test("Oslo, without the stubs and calls of the test before", async () => {
  mock.verify(toolsCall("get_weather"), never());
  mock.toolsCall("get_weather").withArgs({ city: "Oslo" }).respondsWith({ temp: -3 });
  const result = await client.callTool({ name: "get_weather", arguments: { city: "Oslo" } });
  expect(result.content).toEqual([{ type: "text", text: '{"temp":-3}' }]);
  mock.verify(toolsCall("get_weather"), 1);
});
