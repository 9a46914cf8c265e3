// recipe: test/recipes/design-first.test.ts
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { McpMock, toolsCall } from "mcpmock";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const design = fileURLToPath(new URL("./weather.mock.json", import.meta.url));

test("the design is a valid definition", () => {
  expect(execFileSync("npx", ["--no-install", "mcpmock", "validate", design], { encoding: "utf8" })).toContain("is a valid mcpmock definition");
});

test("over stdio, the way the desktop client starts it", async () => {
  const client = new Client({ name: "desktop", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: "npx", args: ["--no-install", "mcpmock", "stdio", design] }));
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(["get_weather"]);
  const result = await client.callTool({ name: "get_weather", arguments: { city: "Seoul" } });
  expect(result.content).toEqual([{ type: "text", text: '{"city":"Seoul","temp":21}' }]);
  await client.close();
});

test("over HTTP, as the fixture of the client's own tests", async () => {
  await using mock = await McpMock.fromDefinition(design);
  mock.toolsCall("get_weather").withArgs({ city: "Busan" }).respondsWith({ city: "Busan", temp: 25 });
  const client = new Client({ name: "weather-app", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  const busan = await client.callTool({ name: "get_weather", arguments: { city: "Busan" } });
  expect(busan.content).toEqual([{ type: "text", text: '{"city":"Busan","temp":25}' }]);
  const elsewhere = await client.callTool({ name: "get_weather", arguments: { city: "Jeju" } });
  expect(elsewhere).toMatchObject({ isError: true, content: [{ text: "No weather for Jeju in this design" }] });
  mock.verify(toolsCall("get_weather"), 2);
  await client.close();
});
