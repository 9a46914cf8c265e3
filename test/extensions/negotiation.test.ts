/**
 * Extensions negotiation (SEP-2133) through real clients: what the mock advertises under
 * `capabilities.extensions` (start option, definition, admin fragment, at run time), in
 * 2025-11-25's initialize (v1 client) and 2026-07-28's server/discover (v2 client pinned);
 * what the client declared, on journal entries and as a matcher.
 */
import { describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { McpMock, McpMockError, toolsCall, assertMockDefinition } from "../../src/index.js";

const FEATURE = { "com.example/feature": { level: 2 } };
const TOOLS = [{ name: "add", inputSchema: { type: "object" as const } }];

async function v1(mock: McpMock, extensions?: Record<string, object>): Promise<Client> {
  const client = new Client({ name: "v1", version: "1" }, { capabilities: extensions ? { extensions } : {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  return client;
}

async function v2(mock: McpMock, extensions?: Record<string, object>): Promise<ClientV2> {
  const client = new ClientV2({ name: "v2", version: "1" }, { capabilities: extensions ? { extensions } : {}, versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
  await client.connect(new TransportV2(new URL(mock.url)));
  return client;
}

describe("advertised extensions", () => {
  test("the start option, at initialize (v1) and in server/discover (v2, 2026-07-28)", async () => {
    await using mock = await McpMock.start({ extensions: FEATURE, tools: TOOLS });
    const one = await v1(mock);
    expect(one.getServerCapabilities()?.extensions).toEqual(FEATURE);
    await one.close();
    const two = await v2(mock);
    expect((two.getServerCapabilities() as { extensions?: unknown }).extensions).toMatchObject(FEATURE);
    await two.close();
    expect(mock.requests().map((e) => e.method)).toContain("server/discover");
  });

  test("none declared: no extensions key at all", async () => {
    await using mock = await McpMock.start({ tools: TOOLS });
    const client = await v1(mock);
    expect(client.getServerCapabilities()).not.toHaveProperty("extensions");
    await client.close();
  });

  test("declared at run time and by an admin fragment, merged with the option's", async () => {
    await using mock = await McpMock.start({ extensions: FEATURE, admin: true });
    mock.declareExtension("org.acme/other");
    const res = await fetch(new URL("/__admin/stubs", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ extensions: { "net.third/x": { on: true } } }) });
    expect(res.status).toBeLessThan(300);
    const client = await v1(mock);
    expect(client.getServerCapabilities()?.extensions).toEqual({ ...FEATURE, "org.acme/other": {}, "net.third/x": { on: true } });
    await client.close();
  });

  test("a definition file's extensions", async () => {
    await using mock = await McpMock.fromDefinition({ extensions: FEATURE, tools: TOOLS, responses: [{ tool: "add", result: "without" }, { tool: "add", clientExtension: "com.example/feature", result: "with" }] });
    const plain = await v1(mock);
    expect(plain.getServerCapabilities()?.extensions).toEqual(FEATURE);
    expect(await plain.callTool({ name: "add", arguments: {} })).toMatchObject({ content: [{ text: "without" }] });
    const speaking = await v1(mock, { "com.example/feature": {} });
    expect(await speaking.callTool({ name: "add", arguments: {} })).toMatchObject({ content: [{ text: "with" }] });
    await plain.close();
    await speaking.close();
  });

  test("wrong identifiers and settings are refused where they are written, with the fix", async () => {
    await expect(McpMock.start({ extensions: { feature: {} } })).rejects.toThrow(/"feature" is not an extension identifier.*"com.example\/feature"/);
    await expect(McpMock.start({ extensions: { "com.example/x": true } as never })).rejects.toThrow(/settings are an object/);
    await using mock = await McpMock.start();
    expect(() => mock.declareExtension("bad id")).toThrow(McpMockError);
    expect(() => assertMockDefinition({ extensions: { nope: {} } }, "def.json")).toThrow(/extensions/);
    expect(() => assertMockDefinition({ extensions: { "com.example/x": 1 } }, "def.json")).toThrow(/extensions/);
  });
});

describe("the client's declared extensions", () => {
  test("on journal entries and matched by withClientExtension, in a session (v1)", async () => {
    await using mock = await McpMock.start({ tools: TOOLS });
    mock.toolsCall("add").respondsWith("plain host");
    mock.toolsCall("add").withClientExtension("io.modelcontextprotocol/ui", { mimeTypes: ["text/html;profile=mcp-app"] }).respondsWith("app host");
    const host = await v1(mock, { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } });
    const plain = await v1(mock);
    expect(await host.callTool({ name: "add", arguments: {} })).toMatchObject({ content: [{ text: "app host" }] });
    expect(await plain.callTool({ name: "add", arguments: {} })).toMatchObject({ content: [{ text: "plain host" }] });
    const calls = mock.findRequests(toolsCall("add"));
    expect(calls.map((e) => e.clientExtensions)).toEqual([{ "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } }, undefined]);
    expect(mock.requests().find((e) => e.method === "initialize")?.clientExtensions).toEqual({ "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } });
    mock.verify(toolsCall("add").withClientExtension("io.modelcontextprotocol/ui"), 1);
    expect(() => mock.verify(toolsCall("add").withClientExtension("com.example/absent"))).toThrow(/client extension/);
    await host.close();
    await plain.close();
  });

  test("per request in 2026-07-28 (v2 pinned)", async () => {
    await using mock = await McpMock.start({ tools: TOOLS });
    mock.toolsCall("add").withClientExtension("com.example/feature").respondsWith("yes");
    const client = await v2(mock, FEATURE);
    expect(await client.callTool({ name: "add", arguments: {} })).toMatchObject({ content: [{ text: "yes" }] });
    expect(mock.findRequests(toolsCall("add"))[0]?.clientExtensions).toEqual(FEATURE);
    await client.close();
  });

  test("the stub sentence says what it waits for; a bad identifier fails at the DSL call", async () => {
    await using mock = await McpMock.start({ tools: TOOLS });
    const handle = mock.toolsCall("add").withClientExtension("com.example/feature").respondsWith("x");
    expect(handle.toString()).toContain('from a client declaring the extension "com.example/feature"');
    expect(() => mock.toolsCall("add").withClientExtension("nope")).toThrow(/extension identifier like "com.example\/feature"/);
  });
});
