/**
 * Definition files as a client sees them: the SDK v1 client over real HTTP against
 * `McpMock.fromDefinition(...)`. Lists, calls, reads and gets; placeholders filled from the
 * call, the URI, the client's answer inside a stream and the progress token; sequences,
 * scenarios, and a miss answer that points at the file rather than at code.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, test } from "vitest";
import { McpMock, toolsCall, type MockDefinition } from "../../src/index.js";

interface Connected {
  readonly mock: McpMock;
  readonly client: Client;
  /** Notifications the client received besides progress, in order. */
  readonly notes: Array<{ method: string; params: unknown }>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A mock from a definition and an SDK v1 client connected to it (elicitation declared and answered "Ada"). */
async function connected(definition: string | MockDefinition): Promise<Connected> {
  const mock = await McpMock.fromDefinition(definition, { onUnmatched: "silent" });
  const client = new Client({ name: "definition-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const notes: Array<{ method: string; params: unknown }> = [];
  client.fallbackNotificationHandler = async (n) => void notes.push({ method: n.method, params: n.params });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  } catch (error) {
    await mock.close();
    throw error;
  }
  return {
    mock,
    client,
    notes,
    async [Symbol.asyncDispose]() {
      await client.close();
      await mock.close();
    },
  };
}

const textOf = (result: unknown): string => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? "");

const weatherTool = {
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
} as const;

const catalog: MockDefinition = {
  server: { name: "weather", version: "1.2.3", instructions: "Ask about the weather." },
  tools: [weatherTool, { name: "greet", inputSchema: { type: "object" } }, { name: "counter" }, { name: "cart" }, { name: "ticket" }],
  responses: [
    { tool: "get_weather", args: { city: "Seoul" }, result: { city: "Seoul", temp: 21 } },
    { tool: "get_weather", result: { city: "{{args.city}}", temp: 15, note: "Forecast for {{args.city}}" } },
    {
      tool: "greet",
      stream: [
        { progress: 1, total: 2, message: "asking" },
        {
          request: "elicitation/create",
          params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
        },
        { progress: 2, total: 2 },
      ],
      result: "Hello, {{answer.content.name}}",
    },
    {
      tool: "ticket",
      stream: [{ notify: "notifications/ticket", params: { token: "{{progressToken}}", label: "token {{progressToken}}" } }],
      result: { ok: true },
    },
    { tool: "counter", result: "one", then: [{ result: "two" }, { result: "many", isError: true }] },
    { tool: "cart", scenario: { name: "checkout", whenState: "Started", setState: "Paid" }, result: "paying" },
    { tool: "cart", scenario: { name: "checkout", whenState: "Paid", setState: "Shipped" }, result: "already paid, shipping" },
    { tool: "cart", scenario: { name: "checkout", whenState: "Shipped" }, result: "shipped" },
    { method: "custom/echo", result: { echoed: "{{params.word}}" } },
  ],
  resources: [
    { uri: "test://hello", name: "hello", mimeType: "text/plain", text: "Hello, world" },
    { uriTemplate: "test://items/{id}", name: "item", mimeType: "application/json", text: '{"id":"{{uri.id}}"}' },
  ],
  prompts: [
    { name: "simple", description: "No arguments", messages: "No arguments here" },
    { name: "welcome", arguments: [{ name: "name", required: true }], messages: "Welcome, {{args.name}}!" },
    {
      name: "greet",
      arguments: [{ name: "name", required: true }],
      responses: [
        { args: { name: "Ada" }, messages: "Hello, Ada", description: "for Ada" },
        { messages: [{ role: "assistant", content: { type: "text", text: "Hi {{args.name}}, I am {{sessionId}}" } }] },
      ],
    },
  ],
  completions: [{ ref: { type: "ref/prompt", name: "greet" }, argument: "name", values: ["Ada", "Alan", "Grace"] }],
};

describe("the SDK v1 client against McpMock.fromDefinition", () => {
  test("initialize carries the server's name, version and instructions", async () => {
    await using ctx = await connected(catalog);
    expect(ctx.client.getServerVersion()).toEqual({ name: "weather", version: "1.2.3" });
    expect(ctx.client.getInstructions()).toBe("Ask about the weather.");
  });

  test("lists the declared tools, resources, templates and prompts", async () => {
    await using ctx = await connected(catalog);
    const { tools } = await ctx.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["get_weather", "greet", "counter", "cart", "ticket"]);
    expect(tools[0]).toMatchObject({ description: "Current weather for a city", inputSchema: weatherTool.inputSchema });
    expect((await ctx.client.listResources()).resources).toEqual([{ uri: "test://hello", name: "hello", mimeType: "text/plain" }]);
    expect((await ctx.client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: "test://items/{id}", name: "item", mimeType: "application/json" },
    ]);
    expect((await ctx.client.listPrompts()).prompts.map((p) => p.name)).toEqual(["simple", "welcome", "greet"]);
  });

  test("calls: the specific entry, then the entry without args for any arguments, with {{args.city}} filled", async () => {
    await using ctx = await connected(catalog);
    expect(await ctx.client.callTool({ name: "get_weather", arguments: { city: "Seoul" } })).toEqual({
      content: [{ type: "text", text: '{"city":"Seoul","temp":21}' }],
    });
    expect(await ctx.client.callTool({ name: "get_weather", arguments: { city: "Busan" } })).toEqual({
      content: [{ type: "text", text: '{"city":"Busan","temp":15,"note":"Forecast for Busan"}' }],
    });
    ctx.mock.verify(toolsCall("get_weather"), 2);
  });

  test("the inputSchema still guards the entry without args", async () => {
    await using ctx = await connected(catalog);
    const result = await ctx.client.callTool({ name: "get_weather", arguments: { town: "Busan" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("add to the responses of definition");
  });

  test("reads a fixed resource and a templated one with {{uri.id}} filled", async () => {
    await using ctx = await connected(catalog);
    expect((await ctx.client.readResource({ uri: "test://hello" })).contents).toEqual([{ uri: "test://hello", mimeType: "text/plain", text: "Hello, world" }]);
    expect((await ctx.client.readResource({ uri: "test://items/42" })).contents).toEqual([
      { uri: "test://items/42", mimeType: "application/json", text: '{"id":"42"}' },
    ]);
  });

  test("gets prompts: top-level messages, {{args.name}} filled, per-argument responses with a description", async () => {
    await using ctx = await connected(catalog);
    expect((await ctx.client.getPrompt({ name: "simple" })).messages).toEqual([{ role: "user", content: { type: "text", text: "No arguments here" } }]);
    expect((await ctx.client.getPrompt({ name: "welcome", arguments: { name: "Grace" } })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Welcome, Grace!" } },
    ]);
    expect(await ctx.client.getPrompt({ name: "greet", arguments: { name: "Ada" } })).toEqual({
      description: "for Ada",
      messages: [{ role: "user", content: { type: "text", text: "Hello, Ada" } }],
    });
    expect((await ctx.client.getPrompt({ name: "greet", arguments: { name: "Bob" } })).messages).toEqual([
      { role: "assistant", content: { type: "text", text: "Hi Bob, I am session-1" } },
    ]);
  });

  test("completions filter the values by what the user typed", async () => {
    await using ctx = await connected(catalog);
    const done = await ctx.client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "A" } });
    expect(done.completion.values).toEqual(["Ada", "Alan"]);
  });

  test("a method entry fills {{params.word}}", async () => {
    await using ctx = await connected(catalog);
    const { z } = await import("zod");
    expect(await ctx.client.request({ method: "custom/echo", params: { word: "hi" } } as never, z.looseObject({}))).toEqual({ echoed: "hi" });
  });

  test("a stream's request step: the client answers the elicitation, {{answer.content.name}} fills the result", async () => {
    await using ctx = await connected(catalog);
    const progress: number[] = [];
    const result = await ctx.client.callTool({ name: "greet", arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada" }]);
    expect(progress).toEqual([1, 2]);
    // The client's answer is in the journal, under the method it answers.
    expect(ctx.mock.requests().some((e) => e.kind === "response" && e.method === "elicitation/create")).toBe(true);
  });

  test("{{progressToken}} in a notify step is the request's progress token (a whole placeholder keeps its type)", async () => {
    await using ctx = await connected(catalog);
    const result = await ctx.client.callTool({ name: "ticket", arguments: {} }, undefined, { onprogress: () => undefined });
    expect(result.content).toEqual([{ type: "text", text: '{"ok":true}' }]);
    const [call] = ctx.mock.findRequests(toolsCall("ticket"));
    const token = (call?.params?.["_meta"] as { progressToken?: unknown } | undefined)?.progressToken;
    expect(token).toBeDefined();
    expect(ctx.notes).toEqual([{ method: "notifications/ticket", params: { token, label: `token ${String(token)}` } }]);
  });

  test("then: each call takes the next answer, the last repeats", async () => {
    await using ctx = await connected(catalog);
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const r = await ctx.client.callTool({ name: "counter", arguments: {} });
      answers.push(`${textOf(r)}${r.isError ? " (error)" : ""}`);
    }
    expect(answers).toEqual(["one", "two", "many (error)", "many (error)"]);
  });

  test("scenarios move from state to state", async () => {
    await using ctx = await connected(catalog);
    expect(ctx.mock.scenario("checkout").state).toBe("Started");
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(textOf(await ctx.client.callTool({ name: "cart", arguments: {} })));
    expect(answers).toEqual(["paying", "already paid, shipping", "shipped", "shipped"]);
    expect(ctx.mock.scenario("checkout").state).toBe("Shipped");
    ctx.mock.scenario("checkout").reset();
    expect(textOf(await ctx.client.callTool({ name: "cart", arguments: {} }))).toBe("paying");
  });

  // Guards that an initialize entry's "sessionId" is the session id to issue, not a session
  // matcher (which never matches an initialize: it has no session yet, so the client would get
  // the built-in answer and "session-1").
  test('an initialize entry with "sessionId" issues that session id', async () => {
    await using ctx = await connected({ responses: [{ method: "initialize", result: { instructions: "Be brief" }, sessionId: "s-1" }] });
    expect(ctx.client.getInstructions()).toBe("Be brief");
    expect(ctx.mock.sessions().map((s) => s.id)).toEqual(["s-1"]);
  });
});

describe("a miss answer for definition stubs points at the file", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpmock-clients-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('"responses of weather.mock.json" instead of mock.toolsCall', async () => {
    const file = join(dir, "weather.mock.json");
    writeFileSync(
      file,
      JSON.stringify({
        tools: [weatherTool],
        responses: [
          { tool: "get_weather", args: { city: "Seoul" }, result: { temp: 21 } },
          { tool: "get_weather", args: { city: "Busan" }, result: { temp: 19 } },
        ],
      }),
    );
    await using ctx = await connected(file);
    const result = await ctx.client.callTool({ name: "get_weather", arguments: { city: "Jeju" } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain("responses of weather.mock.json");
    expect(text).not.toContain("mock.toolsCall");
    expect(text).not.toContain(dir);
    await expect(text).toMatchFileSnapshot("../fixtures/definition-tool-miss.txt");
    expect(ctx.mock.unmatched()).toHaveLength(1);
  });
});
