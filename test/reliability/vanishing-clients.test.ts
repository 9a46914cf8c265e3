/**
 * Clients that vanish: a POST aborted while its answer is delayed, an SSE answer aborted
 * mid-stream, a GET stream aborted, fifty clients gone at once. The mock stays healthy (the
 * next request works), the journal keeps the aborted request, and `close()` with 100 streams
 * still open is fast and leaves no server, socket or timer behind.
 */
import { describe, expect, test, vi } from "vitest";
import { McpMock, toolsCall } from "../../src/index.js";
import { HEADERS, postInitialize, readUntil, sessionHeaders } from "../support/raw-http.js";
import { counts, expectNoMoreThan, settle } from "../support/resources.js";

const tools = [
  { name: "slow", inputSchema: { type: "object" } },
  { name: "stream", inputSchema: { type: "object" } },
  { name: "echo", inputSchema: { type: "object" } },
] as const;

async function start(options: Parameters<typeof McpMock.start>[0] = {}): Promise<McpMock<typeof tools>> {
  const mock = await McpMock.start({ tools, onUnmatched: "silent", ...options });
  mock.toolsCall("slow").withDelay(500).respondsWith("slow answer");
  mock.toolsCall("stream").streams((s) => s.log("info", "started").delay(300).progress(1, 1).result("streamed answer"));
  mock.toolsCall("echo").respondsWith((c) => ({ echoed: c.args }));
  return mock;
}

async function initialize(url: string): Promise<Record<string, string>> {
  const res = await postInitialize(url, { clientName: "vanishing" });
  expect(res.status).toBe(200);
  return sessionHeaders(res);
}

function callTool(url: string, session: Record<string, string>, id: number | string, name: string, args: Record<string, unknown> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { ...HEADERS, ...session },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }),
    ...(signal ? { signal } : {}),
  });
}

/** A valid call right after: answered as stubbed. */
async function expectHealthy(url: string, session: Record<string, string>, n = 1): Promise<void> {
  const res = await callTool(url, session, `health-${n}`, "echo", { n });
  expect(await res.json()).toStrictEqual({ jsonrpc: "2.0", id: `health-${n}`, result: { content: [{ type: "text", text: `{"echoed":{"n":${n}}}` }] } });
  expect(res.status).toBe(200);
}

describe("a client that aborts", () => {
  test("mid-POST, while a withDelay(500) answer is pending: the mock stays healthy and journals the request", async () => {
    await using mock = await start();
    const session = await initialize(mock.url);
    const abort = new AbortController();
    const pending = callTool(mock.url, session, 1, "slow", { which: "aborted" }, abort.signal);
    await mock.waitFor(toolsCall("slow"));
    abort.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    // Healthy at once, while the aborted answer is still being delayed.
    const started = performance.now();
    await expectHealthy(mock.url, session);
    expect(performance.now() - started).toBeLessThan(400);
    const [entry] = mock.findRequests(toolsCall("slow").withArgs({ which: "aborted" }));
    expect(entry).toMatchObject({ kind: "request", method: "tools/call", id: 1, sessionId: session["mcp-session-id"] });
    // The answer was produced all the same (there was no one left to send it to).
    await vi.waitFor(() => expect(entry?.answer).toStrictEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "slow answer" }] } }), { timeout: 2000 });
    expect(entry?.durationMs).toBeGreaterThanOrEqual(450);
    // The same request id is free again once the aborted one is answered.
    const again = await callTool(mock.url, session, 1, "echo", { again: true });
    expect(await again.json()).toMatchObject({ id: 1, result: { content: [{ text: '{"echoed":{"again":true}}' }] } });
  });

  test("mid-SSE, after the first event of a streamed answer: the mock stays healthy and journals the request", async () => {
    await using mock = await start();
    const session = await initialize(mock.url);
    const abort = new AbortController();
    const res = await callTool(mock.url, session, 2, "stream", {}, abort.signal);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    await readUntil(res, '"data":"started"');
    abort.abort();
    await expectHealthy(mock.url, session);
    const [entry] = mock.findRequests(toolsCall("stream"));
    expect(entry).toMatchObject({ kind: "request", id: 2, sessionId: session["mcp-session-id"] });
    // A disconnect is not a cancellation: the stream plays on, to be resumed, and ends with its result.
    await vi.waitFor(() => expect(entry?.answer).toMatchObject({ id: 2, result: { content: [{ type: "text", text: "streamed answer" }] } }), { timeout: 2000 });
    await expectHealthy(mock.url, session, 2);
  });

  test("mid-GET-stream: the stream is free again, a new one opens and receives notifications", async () => {
    await using mock = await start();
    const session = await initialize(mock.url);
    const first = new AbortController();
    const get = await fetch(mock.url, { headers: { accept: "text/event-stream", ...session }, signal: first.signal });
    expect(get.status).toBe(200);
    await readUntil(get, "id: ");
    expect(mock.sessions()[0]?.streamOpen).toBe(true);
    first.abort();
    await vi.waitFor(() => expect(mock.sessions()[0]?.streamOpen).toBe(false), { timeout: 1000, interval: 10 });
    await expectHealthy(mock.url, session);
    const second = new AbortController();
    try {
      const again = await fetch(mock.url, { headers: { accept: "text/event-stream", ...session }, signal: second.signal });
      expect(again.status).toBe(200);
      await readUntil(again, "id: ");
      expect(await mock.notify("notifications/message", { level: "info", data: "still here" })).toEqual([session["mcp-session-id"]]);
      await readUntil(again, '"data":"still here"');
    } finally {
      second.abort();
    }
  });

  test("fifty clients gone at once mid-POST: every request is journaled and the mock stays healthy", async () => {
    await using mock = await start();
    const session = await initialize(mock.url);
    const aborts = Array.from({ length: 50 }, () => new AbortController());
    const pending = aborts.map((a, i) => callTool(mock.url, session, 100 + i, "slow", { i }, a.signal).catch((e: unknown) => e));
    await vi.waitFor(() => expect(mock.findRequests(toolsCall("slow"))).toHaveLength(50), { timeout: 2000, interval: 10 });
    for (const a of aborts) a.abort();
    for (const outcome of await Promise.all(pending)) expect(String(outcome)).toMatch(/abort/i);
    await expectHealthy(mock.url, session);
    await vi.waitFor(() => expect(mock.findRequests(toolsCall("slow")).filter((e) => e.answer === undefined)).toEqual([]), { timeout: 2000 });
    expect(mock.findRequests(toolsCall("slow")).map((e) => e.id).sort()).toEqual(Array.from({ length: 50 }, (_, i) => 100 + i).sort());
  });
});

describe("close() with clients still attached", () => {
  test("100 open streams (50 GET streams, 50 streamed answers): close() resolves well under a second and leaves no handles", async () => {
    await settle();
    const baseline = counts();
    const mock = await McpMock.start({ tools, onUnmatched: "silent" });
    try {
      mock.toolsCall("stream").streams((s) => s.log("info", "started").delay(10_000).result("never"));
      const sessions = await Promise.all(Array.from({ length: 50 }, () => initialize(mock.url)));
      const opened = await Promise.all([
        ...sessions.map(async (session) => {
          const res = await fetch(mock.url, { headers: { accept: "text/event-stream", ...session } });
          expect(res.status).toBe(200);
          await readUntil(res, "id: ");
          return res;
        }),
        ...sessions.map(async (session, i) => {
          const res = await callTool(mock.url, session, i + 1, "stream");
          await readUntil(res, '"data":"started"');
          return res;
        }),
      ]);
      expect(opened).toHaveLength(100);
      expect(mock.sessions().filter((s) => s.streamOpen)).toHaveLength(50);
      // While they are open, the streams hold sockets and timers (so the check below can fail).
      expect(counts()["TCPSocketWrap"]).toBeGreaterThan((baseline["TCPSocketWrap"] ?? 0) + 50);
      expect(counts()["TCPServerWrap"]).toBeGreaterThan(baseline["TCPServerWrap"] ?? 0);
      // The clients keep reading: each sees its stream end when the mock closes.
      const ends = opened.map((res) => res.text().then(() => "ended", (e: unknown) => `error: ${String(e)}`));

      const started = performance.now();
      await mock.close();
      const closeMs = Math.round(performance.now() - started);
      console.log(`[vanishing] close() with 100 open streams: ${closeMs} ms`);
      expect(closeMs).toBeLessThan(500);
      const outcomes = await Promise.race([Promise.all(ends), new Promise((r) => setTimeout(() => r("the client streams did not end"), 1000))]);
      expect(Array.isArray(outcomes) ? outcomes.length : outcomes).toBe(100);

      await expectNoMoreThan(baseline);
      // Every streamed call is in the journal.
      expect(mock.findRequests(toolsCall("stream"))).toHaveLength(50);
    } finally {
      await mock.close();
    }
  });
});
