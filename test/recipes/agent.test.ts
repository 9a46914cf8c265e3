// recipe: test/recipes/agent.test.ts
import { expect, test } from "vitest";
import { McpMock, toolsCall, toolsList } from "mcpmock";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

// The code under test: an agent that is given an MCP server's URL. Agent frameworks take the
// same URL in their MCP client options (the AI SDK's createMCPClient, LangChain's
// MultiServerMCPClient, ...): the test passes them mock.url.
async function weatherAgent(question: string, config: { mcpServerUrl: string }): Promise<string> {
  const client = new Client({ name: "weather-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(config.mcpServerUrl)));
  try {
    const { tools } = await client.listTools();
    if (!tools.some((tool) => tool.name === "get_weather")) return "I cannot check the weather.";
    const city = /in (\w+)/.exec(question)?.[1] ?? "Paris"; // stands in for the model's tool call
    const result = await client.callTool({ name: "get_weather", arguments: { city } });
    const [block] = result.content as Array<{ type: string; text: string }>;
    if (result.isError) return `Sorry: ${block?.text}`;
    return `It is ${JSON.parse(block?.text ?? "{}").temp}°C in ${city}.`;
  } finally {
    await client.close();
  }
}

const tools = [{ name: "get_weather", description: "Current weather for a city", inputSchema: { type: "object",
  properties: { city: { type: "string" } }, required: ["city"] } }] as const;

test("the agent lists the tools, calls get_weather with the city, and uses the answer", async () => {
  await using mock = await McpMock.start({ tools });
  mock.toolsCall("get_weather").withArgs({ city: "Seoul" }).respondsWith({ temp: 21 });

  const answer = await weatherAgent("What is the weather in Seoul?", { mcpServerUrl: mock.url });

  expect(answer).toBe("It is 21°C in Seoul.");
  mock.verifyInOrder(toolsList(), toolsCall("get_weather").withArgs({ city: "Seoul" }));
  mock.assertNoUnmatched();
});

test("the agent passes a tool's error on instead of inventing an answer", async () => {
  await using mock = await McpMock.start({ tools });
  mock.toolsCall("get_weather").respondsWith("Unknown city: Atlantis", { isError: true });

  const answer = await weatherAgent("What is the weather in Atlantis?", { mcpServerUrl: mock.url });

  expect(answer).toBe("Sorry: Unknown city: Atlantis");
});

test("the agent copes with a server that has no such tool", async () => {
  await using mock = await McpMock.start({ tools: [{ name: "get_time" }] });

  expect(await weatherAgent("What is the weather in Seoul?", { mcpServerUrl: mock.url })).toBe("I cannot check the weather.");
  mock.verify(toolsCall(), 0);
});
