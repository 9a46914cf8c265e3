/**
 * Icons (SEP-973, 2025-11-25) on serverInfo, tools, prompts, resources and templates: listed
 * as declared to a real client, checked where they are declared (start options, run-time
 * declarations, definition files), every problem at once with the fix.
 */
import { expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpMock, assertMockDefinition, type Icon } from "../../src/index.js";

const LIGHT: Icon = { src: "https://example.com/light.png", mimeType: "image/png", sizes: ["48x48", "96x96"], theme: "light" };
const SVG: Icon = { src: "data:image/svg+xml;base64,PHN2Zy8+", mimeType: "image/svg+xml", sizes: ["any"], theme: "dark" };

test("listed as declared, on every kind of declaration and on serverInfo", async () => {
  await using mock = await McpMock.start({
    serverInfo: { name: "w", version: "1", icons: [LIGHT] },
    tools: [{ name: "add", inputSchema: { type: "object" }, icons: [LIGHT, SVG] }],
    prompts: [{ name: "greet", icons: [SVG] }],
    resources: [{ uri: "test://a", name: "a", icons: [LIGHT] }, { uriTemplate: "test://items/{id}", name: "item", icons: [SVG] }],
  });
  const client = new Client({ name: "c", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  expect(client.getServerVersion()?.icons).toEqual([LIGHT]);
  expect((await client.listTools()).tools[0]?.icons).toEqual([LIGHT, SVG]);
  expect((await client.listPrompts()).prompts[0]?.icons).toEqual([SVG]);
  expect((await client.listResources()).resources[0]?.icons).toEqual([LIGHT]);
  expect((await client.listResourceTemplates()).resourceTemplates[0]?.icons).toEqual([SVG]);
  await client.close();
});

test("a wrong icon is refused where it is declared, every problem at once, with the fix", async () => {
  const bad = [{ src: "ftp://x/icon.png", sizes: ["big"], theme: "blue", color: "red" }] as never;
  const refusal = McpMock.start({ tools: [{ name: "add", icons: bad }] });
  await expect(refusal).rejects.toThrow(/tools\[0\]\.icons\[0\]\.src must be an http\(s\) URL or a data: URI/);
  await expect(McpMock.start({ tools: [{ name: "add", icons: bad }] })).rejects.toThrow(/sizes must be a list of "WxH" sizes or "any".*theme must be "light" or "dark".*"color", which an icon does not/);
  await expect(McpMock.start({ serverInfo: { name: "w", version: "1", icons: "x" as never } })).rejects.toThrow(/serverInfo\.icons must be an array of icons/);
  await using mock = await McpMock.start();
  expect(() => mock.declarePrompt({ name: "p", icons: [{ mimeType: "image/png" }] as never })).toThrow(/icons\[0\]\.src/);
  expect(() => mock.declareResource({ uri: "test://r", name: "r", icons: [null] as never })).toThrow(/must be an object with "src"/);
});

test("definition files: icons validated by the schema, server icons reach serverInfo", async () => {
  expect(() => assertMockDefinition({ tools: [{ name: "t", icons: [{ src: "https://x/i.png", theme: "blue" }] }] }, "def.json")).toThrow(/icons\[0\]\.theme/);
  expect(() => assertMockDefinition({ server: { name: "w", version: "1", icons: [{ href: "x" }] } }, "def.json")).toThrow(/server\.icons\[0\]/);
  await using mock = await McpMock.fromDefinition({ server: { name: "w", version: "1", description: "Weather", icons: [LIGHT] } });
  const client = new Client({ name: "c", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  expect(client.getServerVersion()).toMatchObject({ description: "Weather", icons: [LIGHT] });
  await client.close();
});
