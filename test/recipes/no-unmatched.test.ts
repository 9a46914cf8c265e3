// recipe: test/recipes/no-unmatched.test.ts
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { McpMock } from "mcpmock";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

// The code under test turns a tool error into a fallback: a call no stub answers would not
// fail the test by itself.
async function forecast(client: Client, city: string): Promise<string> {
  const result = await client.callTool({ name: "get_weather", arguments: { city } });
  const [block] = result.content as Array<{ type: string; text: string }>;
  return result.isError || !block ? "no forecast" : `${JSON.parse(block.text).temp}°C`;
}

const tools = [{ name: "get_weather", inputSchema: { type: "object",
  properties: { city: { type: "string" } }, required: ["city"] } }] as const;
let mock: McpMock<typeof tools>;
let client: Client;

beforeAll(async () => {
  mock = await McpMock.start({ tools });
  client = new Client({ name: "weather-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
});

afterEach(() => {
  try {
    mock.assertNoUnmatched(); // a call no stub answered fails its test, with the miss report
    mock.assertAllStubsUsed(); // so does a stub never called (skip one with .optional())
  } finally {
    mock.reset(); // after the checks: reset() clears the journal they read
  }
});

afterAll(async () => {
  await client.close();
  await mock.close();
});

test("the forecast for Paris", async () => {
  mock.toolsCall("get_weather").withArgs({ city: "Paris" }).respondsWith({ temp: 21 });
  mock.toolsCall("get_weather").withArgs({ city: "Oslo" }).optional().respondsWith({ temp: -3 });
  expect(await forecast(client, "Paris")).toBe("21°C");
});

test("the fallback, when the tool fails on purpose", async () => {
  mock.toolsCall("get_weather").respondsWith("Service unavailable", { isError: true });
  expect(await forecast(client, "Paris")).toBe("no forecast");
});
