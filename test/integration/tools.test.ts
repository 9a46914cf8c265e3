/**
 * The core contract, driven by the real SDK clients (v1 and v2) over real HTTP, in every
 * session mode and response mode.
 */
import { describe, expect, test } from "vitest";
import { ANY, McpMock, text } from "../../src/index.js";
import { CLIENT_KINDS, connect } from "../support/clients.js";
import { startWithClient } from "../support/setup.js";
import { addTool } from "../support/tools.js";

const tools = [
  { ...addTool, description: "Adds two numbers" },
  {
    name: "get_weather",
    inputSchema: {
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer", minimum: 1, maximum: 7 },
        options: { type: "object", properties: { units: { enum: ["c", "f"] } } },
      },
      required: ["city"],
    },
    outputSchema: { type: "object", properties: { temp: { type: "number" } }, required: ["temp"] },
  },
] as const;

const matrix = CLIENT_KINDS.flatMap((kind) =>
  (["stateful", "stateless"] as const).flatMap((sessions) =>
    (["json", "sse"] as const).map((responseMode) => ({ kind, sessions, responseMode })),
  ),
);

describe.each(matrix)("$kind client, $sessions, $responseMode answers", ({ kind, sessions, responseMode }) => {
  // Misses here are asserted through the client; silent keeps a passing run quiet.
  const setup = () => startWithClient({ tools, sessions, responseMode, onUnmatched: "silent" }, (url) => connect(kind, url));

  test("connects, negotiates the latest version and lists the declared tools", async () => {
    await using ctx = await setup();
    expect(ctx.client.serverVersion()).toMatchObject({ name: "mcpmock" });
    expect(ctx.client.protocolVersion()).toBe("2025-11-25");
    if (sessions === "stateful") expect(ctx.client.sessionId()).toBe("session-1");
    else expect(ctx.client.sessionId()).toBeUndefined();
    const listed = await ctx.client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(["add", "get_weather"]);
    expect(listed.tools[0]).toMatchObject({ description: "Adds two numbers", inputSchema: tools[0].inputSchema });
    expect(await ctx.client.ping()).toEqual({});
    expect(ctx.client.transportErrors).toEqual([]);
  });

  test("a stub with matching arguments answers, key order free", async () => {
    await using ctx = await setup();
    const stub = ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    expect(await ctx.client.callTool("add", { b: 2, a: 1 })).toEqual({ content: [{ type: "text", text: '{"sum":3}' }] });
    expect(stub.calls()).toBe(1);
  });

  test("ANY answers arguments no specific stub matches", async () => {
    await using ctx = await setup();
    ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith(text("fallback"));
    expect(await ctx.client.callTool("add", { a: 5, b: 5 })).toEqual({ content: [{ type: "text", text: "fallback" }] });
    expect(await ctx.client.callTool("add", { a: 1, b: 2 })).toEqual({ content: [{ type: "text", text: '{"sum":3}' }] });
  });

  test("a schema violation is an isError result naming the field, the rule and the value", async () => {
    await using ctx = await setup();
    ctx.mock.toolsCall("get_weather").withArgs(ANY).respondsWith({ temp: 20 });
    const result = await ctx.client.callTool("get_weather", { city: "Paris", days: 9, options: { units: "k" } });
    expect(result["isError"]).toBe(true);
    const message = (result["content"] as Array<{ text: string }>)[0]?.text;
    expect(message).toContain("args.days must be <= 7 (rule: maximum), received 9 (number)");
    expect(message).toContain('args.options.units must be one of "c", "f" (rule: enum), received "k" (string)');
  });

  test("a specified-arguments stub wins before the schema check", async () => {
    await using ctx = await setup();
    ctx.mock.toolsCall("get_weather").withArgs({ city: 0 } as never).respondsWith("City must be a name", { isError: true });
    const result = await ctx.client.callTool("get_weather", { city: 0 });
    expect(result).toEqual({ content: [{ type: "text", text: "City must be a name" }], isError: true });
  });

  test("a miss is an isError result listing what is stubbed and how to stub the call", async () => {
    await using ctx = await setup();
    ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    const result = await ctx.client.callTool("add", { a: 1, b: 3 });
    expect(result["isError"]).toBe(true);
    const message = (result["content"] as Array<{ text: string }>)[0]?.text ?? "";
    expect(message).toContain('No stub answers tools/call "add" with arguments {"a":1,"b":3}');
    expect(message).toMatch(/args\.b: 2 +\| args\.b: 3 +<<<<< arguments do not match/);
    expect(message).toContain('mock.toolsCall("add").withArgs({"a":1,"b":3}).respondsWith(...)');
  });

  test("an object payload also goes out as structuredContent when the tool declares an outputSchema", async () => {
    await using ctx = await setup();
    await ctx.client.listTools(); // the SDK client validates structuredContent only after listing
    ctx.mock.toolsCall("get_weather").withArgs({ city: "Paris" }).respondsWith({ temp: 21 });
    expect(await ctx.client.callTool("get_weather", { city: "Paris" })).toEqual({
      content: [{ type: "text", text: '{"temp":21}' }],
      structuredContent: { temp: 21 },
    });
  });

  test("an answer may be a function of the call", async () => {
    await using ctx = await setup();
    ctx.mock.toolsCall("add").respondsWith((call) => ({ sum: call.args.a + call.args.b, session: call.sessionId ?? null }));
    const result = await ctx.client.callTool("add", { a: 2, b: 40 });
    const expected = { sum: 42, session: sessions === "stateful" ? "session-1" : null };
    expect(JSON.parse((result["content"] as Array<{ text: string }>)[0]?.text ?? "")).toEqual(expected);
  });

  test("respondsWithError becomes a JSON-RPC error the client throws, with code and data", async () => {
    await using ctx = await setup();
    ctx.mock.toolsCall("add").respondsWithError(-32603, "internal", { why: "test" });
    await expect(ctx.client.callTool("add", { a: 1, b: 2 })).rejects.toMatchObject({ code: -32603, data: { why: "test" } });
  });

  test("an undeclared tool is the protocol error -32602 with the declared tools in data", async () => {
    await using ctx = await setup();
    await expect(ctx.client.callTool("nope", {})).rejects.toMatchObject({
      code: -32602,
      data: { unknownTool: "nope", declaredTools: ["add", "get_weather"] },
    });
  });

  test("an unknown method is -32601 with a report in data", async () => {
    await using ctx = await setup();
    ctx.mock.method("custom/thing").withParams({ id: 1 }).respondsWith({ ok: true });
    expect(await ctx.client.request("custom/thing", { id: 1 })).toEqual({ ok: true });
    await expect(ctx.client.request("custom/thing", { id: 2 })).rejects.toMatchObject({ code: -32601 });
    await expect(ctx.client.request("custom/nothing", {})).rejects.toMatchObject({ code: -32601 });
  });
});

describe("constant answers", () => {
  test("are copied when stubbed: changing the object later changes nothing; each call gets the same answer with its own id", async () => {
    await using mock = await McpMock.start({ tools });
    const client = await connect("v1", mock.url);
    const payload = { sum: 3, parts: [1, 2] };
    mock.toolsCall("add").withArgs(ANY).respondsWith(payload);
    payload.sum = 99;
    payload.parts.push(7);
    for (let i = 0; i < 3; i++) expect(await client.callTool("add", { a: 1, b: 2 })).toEqual({ content: [{ type: "text", text: '{"sum":3,"parts":[1,2]}' }] });
    const answers = mock.requests().filter((e) => e.method === "tools/call").map((e) => e.answer as { id: unknown; result: unknown });
    expect(answers.map((a) => a.result)).toEqual(Array(3).fill({ content: [{ type: "text", text: '{"sum":3,"parts":[1,2]}' }] }));
    expect(new Set(answers.map((a) => a.id)).size).toBe(3);
    await client.close();
  });

  test("every entry point copies them: a prompt's messages, an andThen answer, a resource's contents", async () => {
    await using mock = await McpMock.start({ tools, prompts: [{ name: "greet" }], resources: [{ uri: "test://note", name: "note" }] });
    const client = await connect("v1", mock.url);
    const messages = [{ role: "user" as const, content: { type: "text" as const, text: "hello" } }];
    const second = { sum: 2 };
    const contents = { text: "first draft" };
    mock.promptsGet("greet").respondsWith(messages);
    mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 1 }).andThen(second);
    mock.resourcesRead("test://note").respondsWith(contents);
    messages[0]!.content.text = "changed";
    second.sum = 99;
    contents.text = "changed";
    expect(await client.request("prompts/get", { name: "greet" })).toEqual({ messages: [{ role: "user", content: { type: "text", text: "hello" } }] });
    await client.callTool("add", { a: 1, b: 1 });
    expect(await client.callTool("add", { a: 1, b: 1 })).toEqual({ content: [{ type: "text", text: '{"sum":2}' }] });
    expect(await client.request("resources/read", { uri: "test://note" })).toEqual({ contents: [{ uri: "test://note", text: "first draft" }] });
    await client.close();
  });

  test("follow the tool's declaration as it changes: structuredContent once it declares an outputSchema", async () => {
    await using mock = await McpMock.start({ tools: [{ name: "weather", inputSchema: { type: "object" } }] });
    const client = await connect("v2", mock.url);
    mock.toolsCall("weather").respondsWith({ temp: 21 });
    expect(await client.callTool("weather", {})).toEqual({ content: [{ type: "text", text: '{"temp":21}' }] });
    mock.declareTool({ name: "weather", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { temp: { type: "number" } } } });
    await client.listTools();
    expect(await client.callTool("weather", {})).toEqual({ content: [{ type: "text", text: '{"temp":21}' }], structuredContent: { temp: 21 } });
    await client.close();
  });
});

describe("answer functions that return nothing", () => {
  // A JSON-RPC result cannot be nothing: a method's client got a response without "result"
  // (the SDK failed to parse it), a tool's the text "null". Now -32603, saying why.
  test("are a -32603 error naming the stub and the fix, for a method and for a tool", async () => {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
    const client = await connect("v1", mock.url);
    mock.method("custom/nothing").respondsWith((() => undefined) as never);
    mock.toolsCall("add").withArgs(ANY).respondsWith((async () => undefined) as never);
    const fix = 'returned undefined, which is no answer. Return a value: {} for an empty result, "" for an empty text.';
    await expect(client.request("custom/nothing", {})).rejects.toThrow(`MCP error -32603: [mcpmock] the answer of stub-1 failed: McpMockError: [mcpmock] the answer function of stub-1 ${fix}`);
    await expect(client.callTool("add", { a: 1, b: 2 })).rejects.toThrow(`the answer function of stub-2 ${fix}`);
    await client.close();
  });
});

describe("stub ordering", () => {
  test("higher priority first, then the newest; an exhausted stub falls through", async () => {
    await using mock = await McpMock.start({ tools });
    const client = await connect("v1", mock.url);
    mock.toolsCall("add").withArgs(ANY).respondsWith("old");
    mock.toolsCall("add").withArgs(ANY).respondsWith("new");
    const first = await client.callTool("add", { a: 1, b: 1 });
    expect(first["content"]).toEqual([{ type: "text", text: "new" }]);
    mock.toolsCall("add").withArgs(ANY).priority(-1).respondsWith("low");
    mock.toolsCall("add").withArgs(ANY).priority(5).once().respondsWith("high once");
    expect((await client.callTool("add", { a: 1, b: 1 }))["content"]).toEqual([{ type: "text", text: "high once" }]);
    expect((await client.callTool("add", { a: 1, b: 1 }))["content"]).toEqual([{ type: "text", text: "new" }]);
    await client.close();
  });

  test("andThen answers each call in turn and the last repeats", async () => {
    await using mock = await McpMock.start({ tools });
    const client = await connect("v2", mock.url);
    const stub = mock.toolsCall("add").respondsWith("one").andThen("two");
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push(((await client.callTool("add", { a: 1, b: 1 }))["content"] as Array<{ text: string }>)[0]?.text);
    expect(texts).toEqual(["one", "two", "two"]);
    expect(stub.calls()).toBe(3);
    expect(stub.isPending()).toBe(false);
    await client.close();
  });

  test("withSessionId and withHeader narrow a stub", async () => {
    await using mock = await McpMock.start({ tools });
    const a = await connect("v1", mock.url);
    const b = await connect("v2", mock.url);
    mock.toolsCall("add").respondsWith("anyone");
    mock.toolsCall("add").withSessionId("session-2").respondsWith("second session");
    expect((await a.callTool("add", { a: 1, b: 1 }))["content"]).toEqual([{ type: "text", text: "anyone" }]);
    expect((await b.callTool("add", { a: 1, b: 1 }))["content"]).toEqual([{ type: "text", text: "second session" }]);
    mock.toolsCall("add").withHeader("MCP-Protocol-Version", /^2025-/).withProtocolVersion("2025-11-25").respondsWith("versioned");
    expect((await a.callTool("add", { a: 1, b: 1 }))["content"]).toEqual([{ type: "text", text: "versioned" }]);
    await a.close();
    await b.close();
  });

  test("initialize can be stubbed with a partial result and a chosen session id", async () => {
    await using mock = await McpMock.start({ tools, serverInfo: { name: "weather", version: "2.0.0" } });
    mock.initialize().respondsWith({ instructions: "Be brief" }, { sessionId: "s-1" });
    const client = await connect("v1", mock.url);
    expect(client.sessionId()).toBe("s-1");
    expect(client.serverVersion()).toEqual({ name: "weather", version: "2.0.0" });
    mock.toolsCall("add").withSessionId("s-1").respondsWith("in s-1");
    expect((await client.callTool("add", { a: 1, b: 1 }))["content"]).toEqual([{ type: "text", text: "in s-1" }]);
    await client.close();
  });
});
