/**
 * SSE frames byte for byte (WIRE.md §2.3): the priming event (2025-11-25 only), `event:
 * message` events with ids `<stream>-<event>` unique in the session, keep-alive comments,
 * and what a stateless mock sends. Raw fetch only, so every byte is visible.
 */
import { describe, expect, test } from "vitest";
import { McpMock, type McpMockOptions } from "../../src/index.js";
import { HEADERS } from "../support/raw-http.js";

const tools = [{ name: "x", inputSchema: { type: "object" } }] as const;

async function start(options: McpMockOptions<typeof tools> = {}) {
  return McpMock.start({ tools, onUnmatched: "silent", keepAliveMs: 0, ...options });
}

/** Initializes a session at `version` (raw), sends notifications/initialized, returns request helpers. */
async function session(url: string, version = "2025-11-25") {
  const init = await fetch(url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
  });
  // In responseMode "sse" the initialize answer is an SSE stream too (the session's stream 1).
  const text = await init.text();
  const json = text.startsWith("{") ? text : (/^data: (\{.*)$/m.exec(text)?.[1] ?? "null");
  expect((JSON.parse(json) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(version);
  const sessionId = init.headers.get("mcp-session-id") as string;
  const headers = { ...HEADERS, "mcp-session-id": sessionId, "mcp-protocol-version": version };
  expect((await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).status).toBe(202);
  return {
    sessionId,
    post: (message: object) => fetch(url, { method: "POST", headers, body: JSON.stringify(message) }),
    get: (signal: AbortSignal) => fetch(url, { method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": version }, signal }),
  };
}

const call = (id: number, name = "x", meta?: object) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {}, ...(meta ? { _meta: meta } : {}) } });
const frame = (id: string, message: unknown) => `event: message\nid: ${id}\ndata: ${JSON.stringify(message)}\n\n`;
/** An event without an `id:` line (a stateless mock's: nothing can be resumed). */
const bare = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const toolResult = (id: number, text: string) => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });

/** Reads a held-open SSE body until `until` holds for the text so far (or `ms` pass), then stops. */
async function readUntil(response: Response, until: (text: string) => boolean, ms: number, abort: AbortController): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = setTimeout(() => abort.abort(), ms);
  try {
    while (!until(text)) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // aborted at the deadline: return what arrived
  } finally {
    clearTimeout(deadline);
    abort.abort();
  }
  return text;
}

function idsOf(body: string): string[] {
  return [...body.matchAll(/^id: (.*)$/gm)].map((m) => m[1] as string);
}

describe("a streamed answer, byte for byte", () => {
  test("2025-11-25: the priming event, then one event per message with ids <stream>-<n>", async () => {
    await using mock = await start();
    mock.toolsCall("x").streams((s) => s.progress(1, 2, "half").log("info", "working").notify("notifications/custom", { a: 1 }).result({ done: true }));
    const s = await session(mock.url);
    const response = await s.post(call(1, "x", { progressToken: 5 }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(response.headers.get("mcp-session-id")).toBe(s.sessionId);
    expect(await response.text()).toBe(
      "id: 1-0\nretry: 1000\ndata: \n\n" +
        frame("1-1", { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 5, progress: 1, total: 2, message: "half" } }) +
        frame("1-2", { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } }) +
        frame("1-3", { jsonrpc: "2.0", method: "notifications/custom", params: { a: 1 } }) +
        frame("1-4", toolResult(1, '{"done":true}')),
    );
  });

  test("sseRetryMs sets the retry: field of the priming event", async () => {
    await using mock = await start({ sseRetryMs: 250 });
    mock.toolsCall("x").streams((s) => s.result("ok"));
    const s = await session(mock.url);
    expect(await (await s.post(call(3))).text()).toBe("id: 1-0\nretry: 250\ndata: \n\n" + frame("1-1", toolResult(3, "ok")));
  });

  test("2025-06-18: no priming event (older clients cannot take empty data), ids still there", async () => {
    await using mock = await start();
    mock.toolsCall("x").streams((s) => s.log("info", "w").result("ok"));
    const s = await session(mock.url, "2025-06-18");
    expect(await (await s.post(call(1))).text()).toBe(
      frame("1-1", { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "w" } }) + frame("1-2", toolResult(1, "ok")),
    );
  });

  test("2025-03-26: no priming event either", async () => {
    await using mock = await start();
    mock.toolsCall("x").streams((s) => s.result("ok"));
    const s = await session(mock.url, "2025-03-26");
    expect(await (await s.post(call(1))).text()).toBe(frame("1-1", toolResult(1, "ok")));
  });

  test("event ids are unique in a session across its streams (POST answers and the GET stream)", async () => {
    await using mock = await start({ responseMode: "sse" });
    mock.toolsCall("x").streams((s) => s.log("info", "a").log("info", "b").result("ok"));
    const s = await session(mock.url);
    const first = await (await s.post(call(1))).text();
    const second = await (await s.post(call(2))).text();
    const ping = await (await s.post({ jsonrpc: "2.0", id: 3, method: "ping" })).text();
    const abort = new AbortController();
    const get = await s.get(abort.signal);
    expect(get.status).toBe(200);
    const reading = readUntil(get, (t) => t.includes("notifications/pushed"), 1000, abort);
    await mock.notify("notifications/pushed", { n: 1 });
    const pushed = await reading;
    // Stream 1 carried the initialize answer.
    expect(idsOf(first)).toEqual(["2-0", "2-1", "2-2", "2-3"]);
    expect(idsOf(second)).toEqual(["3-0", "3-1", "3-2", "3-3"]);
    expect(idsOf(ping)).toEqual(["4-0", "4-1"]);
    expect(pushed).toBe("id: 5-0\nretry: 1000\ndata: \n\n" + frame("5-1", { jsonrpc: "2.0", method: "notifications/pushed", params: { n: 1 } }));
    const all = [first, second, ping, pushed].flatMap(idsOf);
    expect(new Set(all).size).toBe(all.length);
  });

  test("each session numbers its own streams", async () => {
    await using mock = await start();
    mock.toolsCall("x").streams((s) => s.result("ok"));
    const a = await session(mock.url);
    const b = await session(mock.url);
    expect(a.sessionId).not.toBe(b.sessionId);
    expect(idsOf(await (await a.post(call(1))).text())).toEqual(["1-0", "1-1"]);
    expect(idsOf(await (await a.post(call(2))).text())).toEqual(["2-0", "2-1"]);
    expect(idsOf(await (await b.post(call(1))).text())).toEqual(["1-0", "1-1"]);
  });
});

describe("keep-alives", () => {
  test("an idle GET stream gets `: keepalive` comments every keepAliveMs", async () => {
    await using mock = await start({ keepAliveMs: 30 });
    const s = await session(mock.url);
    const abort = new AbortController();
    const get = await s.get(abort.signal);
    const text = await readUntil(get, (t) => t.split(": keepalive\n\n").length > 3, 1000, abort);
    expect(text.startsWith("id: 1-0\nretry: 1000\ndata: \n\n")).toBe(true);
    // After the priming event: nothing but keep-alive comments.
    expect(text.slice("id: 1-0\nretry: 1000\ndata: \n\n".length)).toMatch(/^(: keepalive\n\n){3,}$/);
  });

  test("a streamed answer waiting on a delay is kept alive too, and the frames stay whole", async () => {
    await using mock = await start({ keepAliveMs: 30 });
    mock.toolsCall("x").streams((s) => s.log("info", "before").delay(150).result("after"));
    const s = await session(mock.url);
    const body = await (await s.post(call(1))).text();
    const before = "id: 1-0\nretry: 1000\ndata: \n\n" + frame("1-1", { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "before" } });
    expect(body.startsWith(before)).toBe(true);
    expect(body.endsWith(frame("1-2", toolResult(1, "after")))).toBe(true);
    const middle = body.slice(before.length, body.length - frame("1-2", toolResult(1, "after")).length);
    expect(middle).toMatch(/^(: keepalive\n\n){2,}$/);
  });

  test("keepAliveMs: 0 sends none", async () => {
    await using mock = await start({ keepAliveMs: 0 });
    mock.toolsCall("x").streams((s) => s.delay(100).result("after"));
    const s = await session(mock.url);
    expect(await (await s.post(call(1))).text()).toBe("id: 1-0\nretry: 1000\ndata: \n\n" + frame("1-1", toolResult(1, "after")));
  });
});

describe("a stateless mock", () => {
  // Guards that without a session nothing looks resumable: no `id:` lines, no priming event.
  test("a streamed answer has no event ids and no priming event (nothing to resume)", async () => {
    await using mock = await start({ sessions: "stateless" });
    mock.toolsCall("x").streams((s) => s.log("info", "w").notify("notifications/custom").result("ok"));
    const response = await fetch(mock.url, { method: "POST", headers: { ...HEADERS, "mcp-protocol-version": "2025-11-25" }, body: JSON.stringify(call(7)) });
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await response.text()).toBe(
      bare({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "w" } }) +
        bare({ jsonrpc: "2.0", method: "notifications/custom" }) +
        bare(toolResult(7, "ok")),
    );
  });

  // Guards the same for a plain answer sent as SSE (responseMode "sse"): one event, no id.
  test("responseMode sse: a plain answer is one event without an id", async () => {
    await using mock = await start({ sessions: "stateless", responseMode: "sse" });
    mock.toolsCall("x").respondsWith("plain");
    const response = await fetch(mock.url, { method: "POST", headers: { ...HEADERS, "mcp-protocol-version": "2025-11-25" }, body: JSON.stringify(call(8)) });
    expect(await response.text()).toBe(bare(toolResult(8, "plain")));
  });
});
