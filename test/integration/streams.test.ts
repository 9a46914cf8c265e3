/**
 * Streamed answers (`streams(...)`): progress, logs, notifications, raw messages, pauses,
 * generators and error endings, seen by the real SDK clients v1 and v2 over HTTP, and byte
 * for byte by raw fetch where a client would hide a detail (a skipped progress, a raw message).
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { describe, expect, test } from "vitest";
import { McpMock, toolsCall, type LogLevel, type McpMockOptions, type StreamCall } from "../../src/index.js";
import { textOrUndefined as textOf } from "../support/clients.js";
import { initializedHeaders, openSession } from "../support/raw-http.js";
import { startWithClient } from "../support/setup.js";

const tools = [
  { name: "x", inputSchema: { type: "object" } },
  { name: "slow", inputSchema: { type: "object" } },
] as const;

type Kind = "v1" | "v2";
const KINDS: readonly Kind[] = ["v1", "v2"];

interface Note {
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  readonly at: number;
}

interface Progress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** An SDK client (v1 or v2) that records every notification it receives, in order. */
interface Sdk {
  readonly kind: Kind;
  /** Every server notification except progress (logs, custom ones), in arrival order. */
  readonly notes: Note[];
  /** Only `notifications/message`, as the client's own log handler received them. */
  readonly logs: Array<Record<string, unknown>>;
  callTool(name: string, args?: Record<string, unknown>, onprogress?: (p: Progress) => void): Promise<Record<string, unknown>>;
  setLoggingLevel(level: LogLevel): Promise<unknown>;
  getPrompt(name: string, args?: Record<string, string>): Promise<Record<string, unknown>>;
  readResource(uri: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

async function sdk(kind: Kind, url: string): Promise<Sdk> {
  const notes: Note[] = [];
  const logs: Array<Record<string, unknown>> = [];
  const record = (method: string, params: unknown): void => {
    notes.push({ method, params: params as Record<string, unknown> | undefined, at: performance.now() });
  };
  if (kind === "v1") {
    const client = new ClientV1({ name: "streams-test", version: "1.0.0" });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
      record(n.method, n.params);
    });
    client.fallbackNotificationHandler = async (n) => record(n.method, n.params);
    await client.connect(new TransportV1(new URL(url)));
    return {
      kind,
      notes,
      logs,
      callTool: (name, args = {}, onprogress) =>
        client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress, timeout: 5000 } : { timeout: 5000 }) as Promise<Record<string, unknown>>,
      setLoggingLevel: (level) => client.setLoggingLevel(level),
      getPrompt: (name, args) => client.getPrompt({ name, ...(args ? { arguments: args } : {}) }) as Promise<Record<string, unknown>>,
      readResource: (uri) => client.readResource({ uri }) as Promise<Record<string, unknown>>,
      close: () => client.close(),
    };
  }
  const client = new ClientV2({ name: "streams-test", version: "1.0.0" });
  client.setNotificationHandler("notifications/message", (n) => {
    logs.push(n.params as Record<string, unknown>);
    record(n.method, n.params);
  });
  client.fallbackNotificationHandler = async (n) => record(n.method, n.params);
  await client.connect(new TransportV2(new URL(url)));
  return {
    kind,
    notes,
    logs,
    callTool: (name, args = {}, onprogress) =>
      client.callTool({ name, arguments: args }, onprogress ? { onprogress, timeout: 5000 } : { timeout: 5000 }) as Promise<Record<string, unknown>>,
    setLoggingLevel: (level) => client.setLoggingLevel(level),
    getPrompt: (name, args) => client.getPrompt({ name, ...(args ? { arguments: args } : {}) }) as Promise<Record<string, unknown>>,
    readResource: (uri) => client.readResource({ uri }) as Promise<Record<string, unknown>>,
    close: () => client.close(),
  };
}

const setup = (kind: Kind, options: McpMockOptions<typeof tools> = {}) =>
  startWithClient({ tools, onUnmatched: "silent", ...options }, (url) => sdk(kind, url));

/** A raw-fetch session: initialize, notifications/initialized, then POSTs with its headers. */
async function rawSession(url: string, version = "2025-11-25") {
  const { sessionId, headers } = await openSession(url, version);
  return {
    sessionId,
    /** POSTs a request and returns the raw body text. */
    async post(id: number, method: string, params?: Record<string, unknown>): Promise<string> {
      const response = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) }) });
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      return response.text();
    },
  };
}

/** The JSON-RPC messages of an SSE body, in order (priming events, with empty data, skipped). */
function messagesOf(body: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const frame of body.split("\n\n")) {
    const data = frame
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => line.slice(6))
      .join("\n");
    if (data !== "") out.push(JSON.parse(data) as Record<string, unknown>);
  }
  return out;
}

describe.each(KINDS)("streamed tools/call, SDK %s", (kind) => {
  test("progress and log messages arrive during the call, then the result", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("x").streams((s) => s.progress(1, 3, "a").log("info", "working").progress(2, 3).result({ done: true }));
    const progress: Progress[] = [];
    const result = await ctx.client.callTool("x", {}, (p) => progress.push(p));
    expect(progress).toEqual([
      { progress: 1, total: 3, message: "a" },
      { progress: 2, total: 3 },
    ]);
    expect(ctx.client.logs).toEqual([{ level: "info", data: "working" }]);
    expect(textOf(result)).toBe('{"done":true}');
    // The journal keeps the final answer of the stream, not "a stream".
    const [entry] = ctx.mock.findRequests(toolsCall("x"));
    expect(entry?.answer).toMatchObject({ jsonrpc: "2.0", id: entry?.id, result: { content: [{ type: "text", text: '{"done":true}' }] } });
  });

  test("log steps below the session's logging/setLevel are not sent", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("x").streams((s) =>
      s.log("debug", "d").log("info", "i").log("warning", "w", "core").log("error", { code: 7 }).log("emergency", "e").result("ok"),
    );
    await ctx.client.callTool("x");
    expect(ctx.client.logs.map((l) => l["data"])).toEqual(["d", "i", "w", { code: 7 }, "e"]);
    ctx.client.logs.length = 0;

    await ctx.client.setLoggingLevel("warning");
    expect(ctx.mock.sessions()[0]?.logLevel).toBe("warning");
    expect(textOf(await ctx.client.callTool("x"))).toBe("ok");
    expect(ctx.client.logs).toEqual([
      { level: "warning", logger: "core", data: "w" },
      { level: "error", data: { code: 7 } },
      { level: "emergency", data: "e" },
    ]);
  });

  test("notify steps send any notification, with params computed from the call", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("x").streams((s) =>
      s
        .notify("notifications/resources/updated", (call: StreamCall) => ({ uri: `test://${String(call.args["id"])}` }))
        .notify("notifications/custom/ping")
        .result("ok"),
    );
    await ctx.client.callTool("x", { id: 42 });
    expect(ctx.client.notes.map(({ method, params }) => ({ method, params }))).toEqual([
      { method: "notifications/resources/updated", params: { uri: "test://42" } },
      { method: "notifications/custom/ping", params: undefined },
    ]);
  });

  test("send() puts a raw message on the stream as is", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("x").streams((s) => s.send({ jsonrpc: "2.0", method: "notifications/raw", params: { n: 1, nested: [true, null] } }).result("ok"));
    expect(textOf(await ctx.client.callTool("x"))).toBe("ok");
    expect(ctx.client.notes.map(({ method, params }) => ({ method, params }))).toEqual([{ method: "notifications/raw", params: { n: 1, nested: [true, null] } }]);
  });

  test("delayBetween waits between steps", async () => {
    await using ctx = await setup(kind);
    const gap = 120;
    ctx.mock.toolsCall("slow").streams((s) => s.notify("notifications/n", { i: 1 }).notify("notifications/n", { i: 2 }).notify("notifications/n", { i: 3 }).result("ok"), { delayBetween: gap });
    const started = performance.now();
    expect(textOf(await ctx.client.callTool("slow"))).toBe("ok");
    const elapsed = performance.now() - started;
    const times = ctx.client.notes.map((n) => n.at);
    expect(times).toHaveLength(3);
    expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(gap - 15);
    expect((times[2] as number) - (times[1] as number)).toBeGreaterThanOrEqual(gap - 15);
    expect(elapsed).toBeGreaterThanOrEqual(2 * gap - 15);
    expect(elapsed).toBeLessThan(1500);
  });

  test("a delay step pauses the stream for that long", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("slow").streams((s) => s.notify("notifications/n", { i: 1 }).delay(150).notify("notifications/n", { i: 2 }).result("ok"));
    await ctx.client.callTool("slow");
    const [first, second] = ctx.client.notes;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(135);
  });

  test("an async generator yields notifications and the final response", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("x").streams(async function* (call: StreamCall) {
      yield { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: `start ${String(call.args["n"])}` } };
      await new Promise((r) => setTimeout(r, 5));
      yield { jsonrpc: "2.0", method: "notifications/gen", params: { step: 2 } };
      yield { jsonrpc: "2.0", id: call.id, result: { content: [{ type: "text", text: `generated for ${call.name}` }] } };
    });
    const result = await ctx.client.callTool("x", { n: 5 });
    expect(textOf(result)).toBe("generated for x");
    expect(ctx.client.logs).toEqual([{ level: "info", data: "start 5" }]);
    expect(ctx.client.notes.map((n) => n.method)).toEqual(["notifications/message", "notifications/gen"]);
  });

  test("a sync generator works the same", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("x").streams(function* (call: StreamCall) {
      yield { jsonrpc: "2.0", method: "notifications/gen", params: { sync: true } };
      yield { jsonrpc: "2.0", id: call.id, result: { content: [{ type: "text", text: "sync" }] } };
    });
    expect(textOf(await ctx.client.callTool("x"))).toBe("sync");
    expect(ctx.client.notes.map(({ method, params }) => ({ method, params }))).toEqual([{ method: "notifications/gen", params: { sync: true } }]);
  });

  test("error(code, message) ends the stream with a JSON-RPC error after its steps", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("x").streams((s) => s.log("error", "about to fail").error(-32050, "stream refused", { why: "test" }));
    const error = (await ctx.client.callTool("x").then(
      () => undefined,
      (e: unknown) => e,
    )) as (Error & { code?: unknown; data?: unknown }) | undefined;
    expect(error).toBeInstanceOf(Error);
    expect(error?.code).toBe(-32050);
    expect(error?.message).toContain("stream refused");
    expect(error?.data).toEqual({ why: "test" });
    expect(ctx.client.logs).toEqual([{ level: "error", data: "about to fail" }]);
    const [entry] = ctx.mock.findRequests(toolsCall("x"));
    expect(entry?.answer).toMatchObject({ error: { code: -32050, message: "stream refused" } });
  });

  test("a result function sees the call", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("x").streams((s) => s.progress(1).result((call: StreamCall) => `hello ${String(call.args["who"])}`));
    expect(textOf(await ctx.client.callTool("x", { who: "Ada" }))).toBe("hello Ada");
  });
});

describe.each(KINDS)("streams on other entry points, SDK %s", (kind) => {
  const options = {
    prompts: [{ name: "greet", arguments: [{ name: "name", required: true }] }],
    resources: [
      { uri: "test://doc", name: "doc", mimeType: "text/plain" },
      { uriTemplate: "test://items/{id}", name: "item" },
    ],
  };

  test("promptsGet(...).streams ends with the prompt result, wrapped", async () => {
    await using ctx = await setup(kind, options);
    ctx.mock.promptsGet("greet").streams((s) => s.log("info", "rendering").result((call: StreamCall) => `Hello, ${String(call.args["name"])}`));
    const prompt = await ctx.client.getPrompt("greet", { name: "Ada" });
    expect(prompt["messages"]).toEqual([{ role: "user", content: { type: "text", text: "Hello, Ada" } }]);
    expect(ctx.client.logs).toEqual([{ level: "info", data: "rendering" }]);
  });

  test("resourcesRead(...).streams ends with the read result, wrapped", async () => {
    await using ctx = await setup(kind, options);
    ctx.mock.resourcesRead("test://doc").streams((s) => s.notify("notifications/reading", { uri: "test://doc" }).result("the body"));
    const read = await ctx.client.readResource("test://doc");
    expect(read["contents"]).toEqual([{ uri: "test://doc", text: "the body" }]);
    expect(ctx.client.notes.map((n) => n.method)).toEqual(["notifications/reading"]);
  });
});

describe("streams seen byte for byte (raw fetch)", () => {
  test("progress steps are skipped when the request carries no progressToken", async () => {
    await using mock = await McpMock.start({ tools, keepAliveMs: 0 });
    mock.toolsCall("x").streams((s) => s.progress(1, 3, "a").log("info", "working").progress(2, 3).result("ok"));
    const raw = await rawSession(mock.url);
    const without = messagesOf(await raw.post(1, "tools/call", { name: "x", arguments: {} }));
    expect(without.map((m) => m["method"] ?? "response")).toEqual(["notifications/message", "response"]);
    const withToken = messagesOf(await raw.post(2, "tools/call", { name: "x", arguments: {}, _meta: { progressToken: "tok" } }));
    expect(withToken).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 1, total: 3, message: "a" } },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 2, total: 3 } },
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "ok" }] } },
    ]);
  });

  test("send() carries even a broken message unchanged", async () => {
    await using mock = await McpMock.start({ tools, keepAliveMs: 0 });
    mock.toolsCall("x").streams((s) => s.send({ not: "json-rpc", n: 1 }).send((call: StreamCall) => ({ jsonrpc: "2.0", method: "notifications/echo", params: { id: call.id } })).result("ok"));
    const raw = await rawSession(mock.url);
    const messages = messagesOf(await raw.post(9, "tools/call", { name: "x", arguments: {} }));
    expect(messages.slice(0, 2)).toEqual([{ not: "json-rpc", n: 1 }, { jsonrpc: "2.0", method: "notifications/echo", params: { id: 9 } }]);
    expect(messages[2]).toEqual({ jsonrpc: "2.0", id: 9, result: { content: [{ type: "text", text: "ok" }] } });
  });

  test('method("custom/x").streams ends with its result as is', async () => {
    await using mock = await McpMock.start({ keepAliveMs: 0 });
    mock.method("custom/x").streams((s) => s.notify("notifications/custom", { n: 1 }).result((call: StreamCall) => ({ ok: true, echoed: call.params?.["q"] })));
    const raw = await rawSession(mock.url);
    expect(messagesOf(await raw.post(3, "custom/x", { q: "hi" }))).toEqual([
      { jsonrpc: "2.0", method: "notifications/custom", params: { n: 1 } },
      { jsonrpc: "2.0", id: 3, result: { ok: true, echoed: "hi" } },
    ]);
  });

  test("a stream with only steps and no end sends its steps and closes", async () => {
    await using mock = await McpMock.start({ keepAliveMs: 0 });
    mock.method("custom/x").streams((s) => s.notify("notifications/a"));
    const raw = await rawSession(mock.url);
    expect(messagesOf(await raw.post(4, "custom/x"))).toEqual([{ jsonrpc: "2.0", method: "notifications/a" }]);
  });

  // Guards that the result ending a streamed template read is played with its stub, so
  // `call.variables` holds the URI-template captures (as with respondsWith).
  test("a streamed template read sees the template's variables", async () => {
    await using mock = await McpMock.start({ keepAliveMs: 0, resources: [{ uriTemplate: "test://items/{id}", name: "item" }] });
    mock.resourcesRead("test://items/{id}").streams((s) => s.result((call: StreamCall) => `item ${String((call as StreamCall & { variables?: Record<string, unknown> }).variables?.["id"])}`));
    const raw = await rawSession(mock.url);
    const [result] = messagesOf(await raw.post(5, "resources/read", { uri: "test://items/7" }));
    expect(result).toEqual({ jsonrpc: "2.0", id: 5, result: { contents: [{ uri: "test://items/7", text: "item 7" }] } });
  });
  // Guards that a streamed read's result keeps what the stream's call carries: the client's
  // answers (`call.answer`) to requests sent inside the stream.
  test("a streamed read's result sees the client's answers", async () => {
    await using mock = await McpMock.start({ keepAliveMs: 0, resources: [{ uri: "test://doc", name: "doc" }] });
    mock.resourcesRead("test://doc").streams((s) => s.request("roots/list").result((call: StreamCall) => `answer=${JSON.stringify(call.answer)}`));
    const headers = await initializedHeaders(mock.url, { roots: {} });
    const response = await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "test://doc" } }) });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("roots/list")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const request = messagesOf(text).find((m) => m["method"] === "roots/list");
    expect((await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: request?.["id"], result: { roots: [] } }) })).status).toBe(202);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(messagesOf(text).at(-1)).toEqual({ jsonrpc: "2.0", id: 1, result: { contents: [{ uri: "test://doc", text: 'answer={"roots":[]}' }] } });
  });
});
