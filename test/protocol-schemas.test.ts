/**
 * Every answer the mock builds by itself is one the SDK client accepts: each is checked
 * against the SDK's result schema, at every protocol version the mock speaks. And with
 * `strict: true`, a stub whose answer the client would reject is refused where it is written.
 */
import * as sdk from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { ANY, audio, embeddedResource, image, McpMock, McpMockError, resourceLink, text } from "../src/index.js";
import { HEADERS } from "./support/raw-http.js";
import { SESSION_PROTOCOL_VERSIONS } from "../src/protocol/revisions.js";

async function rpc(url: string, method: string, params: Record<string, unknown>, headers: Record<string, string>): Promise<{ result?: unknown; error?: unknown }> {
  const response = await fetch(url, { method: "POST", headers: { ...HEADERS, ...headers }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return (await response.json()) as { result?: unknown; error?: unknown };
}

const tools = [
  { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] } },
  { name: "weather", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { temp: { type: "number" } } } },
] as const;

// The session era's versions; the 2026-07-28 answers are checked in methods.test.ts and by the v2 client.
describe.each(SESSION_PROTOCOL_VERSIONS)("protocol %s", (version) => {
  test("every built-in answer parses with the SDK's result schema", async () => {
    await using mock = await McpMock.start({
      tools,
      onUnmatched: "silent",
      instructions: "Be brief",
      resources: [
        { uri: "test://a", name: "a", text: "A" },
        { uri: "test://b", name: "b", blob: new Uint8Array([1, 2, 3]), mimeType: "application/octet-stream" },
        { uriTemplate: "test://t/{id}", name: "t", text: "T" },
      ],
      prompts: [{ name: "p", arguments: [{ name: "x", required: true }], messages: "Hello" }],
    });
    mock.toolsCall("add").withArgs({ a: 1 }).respondsWith({ sum: 1 });
    mock.toolsCall("add").withArgs({ a: 2 }).respondsWith([text("t"), image("aGk=", "image/png"), audio("aGk=", "audio/wav")]);
    mock.toolsCall("add").withArgs({ a: 3 }).respondsWith(resourceLink({ uri: "test://a", name: "a" }));
    mock.toolsCall("add").withArgs({ a: 4 }).respondsWith(embeddedResource({ uri: "test://a", text: "A" }), { isError: true });
    mock.toolsCall("weather").withArgs(ANY).respondsWith({ temp: 1 });
    const init = await rpc(mock.url, "initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } }, {});
    expect(sdk.InitializeResultSchema.safeParse(init.result).success).toBe(true);
    expect((init.result as { protocolVersion: string }).protocolVersion).toBe(version);
    const h = { "mcp-session-id": "session-1", "mcp-protocol-version": version };
    const checks: Array<[string, Record<string, unknown>, { safeParse(v: unknown): { success: boolean } }]> = [
      ["ping", {}, sdk.EmptyResultSchema],
      ["tools/list", {}, sdk.ListToolsResultSchema],
      ["resources/list", {}, sdk.ListResourcesResultSchema],
      ["resources/templates/list", {}, sdk.ListResourceTemplatesResultSchema],
      ["prompts/list", {}, sdk.ListPromptsResultSchema],
      ["resources/read", { uri: "test://a" }, sdk.ReadResourceResultSchema],
      ["resources/read", { uri: "test://b" }, sdk.ReadResourceResultSchema],
      ["resources/read", { uri: "test://t/9" }, sdk.ReadResourceResultSchema],
      ["prompts/get", { name: "p", arguments: { x: "1" } }, sdk.GetPromptResultSchema],
      ["completion/complete", { ref: { type: "ref/prompt", name: "p" }, argument: { name: "x", value: "" } }, sdk.CompleteResultSchema],
      ["logging/setLevel", { level: "info" }, sdk.EmptyResultSchema],
      ["resources/subscribe", { uri: "test://a" }, sdk.EmptyResultSchema],
      ["resources/unsubscribe", { uri: "test://a" }, sdk.EmptyResultSchema],
      ["tools/call", { name: "add", arguments: { a: 1 } }, sdk.CallToolResultSchema],
      ["tools/call", { name: "add", arguments: { a: 2 } }, sdk.CallToolResultSchema],
      ["tools/call", { name: "add", arguments: { a: 3 } }, sdk.CallToolResultSchema],
      ["tools/call", { name: "add", arguments: { a: 4 } }, sdk.CallToolResultSchema],
      ["tools/call", { name: "add", arguments: { a: 99 } }, sdk.CallToolResultSchema], // the miss answer
      ["tools/call", { name: "add", arguments: { a: "x" } }, sdk.CallToolResultSchema], // the schema diagnostic
      ["tools/call", { name: "weather", arguments: {} }, sdk.CallToolResultSchema],
    ];
    for (const [method, params, schema] of checks) {
      const answer = await rpc(mock.url, method, params, h);
      expect(answer.error, `${method} ${JSON.stringify(params)}`).toBeUndefined();
      const parsed = schema.safeParse(answer.result);
      expect(parsed.success, `${method} ${JSON.stringify(params)} → ${JSON.stringify(answer.result)}`).toBe(true);
    }
  });
});

describe("strict", () => {
  test("a tool answer the client would reject is refused at the stub, with the rule", async () => {
    await using mock = await McpMock.start({ tools, strict: true });
    expect(() => mock.toolsCall("add").respondsWith({ content: [{ type: "image", data: "not base64!", mimeType: "image/png" }] })).toThrow(McpMockError);
    expect(() => mock.toolsCall("add").respondsWith({ content: [{ type: "resource_link", uri: "x" }] } as never)).toThrow(
      /is not a valid tools\/call result, so SDK clients would reject it:\n {2}- result\.content\.0/,
    );
    expect(() => mock.toolsList().respondsWith({ tools: [{ name: "x", inputSchema: { type: "array" } }] })).toThrow(/not a valid tools\/list result/);
    expect(() => mock.ping().respondsWith({ extra: 1 } as never)).toThrow(/not a valid ping result/);
    expect(() => mock.toolsCall("add").respondsWith("fine").andThen({ content: [{ type: "bogus" }] } as never)).toThrow(/andThen/);
    expect(() => mock.toolsCall("add").respondsWith({ sum: 1 })).not.toThrow();
  });

  test("without strict, a broken answer goes out on purpose", async () => {
    await using mock = await McpMock.start({ tools });
    expect(() => mock.ping().respondsWith({ extra: 1 } as never)).not.toThrow();
  });
});
