/**
 * Streams leave nothing behind: many open streams whose clients went away, then `close()`,
 * must end fast and leave no server, socket or timer alive; and a stateless client that
 * disconnects mid-stream stops the script.
 */
import { describe, expect, test, vi } from "vitest";
import { McpMock, toolsCall } from "../../src/index.js";
import { HEADERS, postInitialize, readUntil, sessionHeaders } from "../support/raw-http.js";
import { counts, expectNoMoreThan, settle } from "../support/resources.js";

const tools = [{ name: "x", inputSchema: { type: "object" } }] as const;

/** A raw session: its headers, after an initialize. */
const initialize = async (url: string): Promise<Record<string, string>> => sessionHeaders(await postInitialize(url));

/** A stateless tools/call of "x", read until its stream has logged "started"; `abort` cuts it. */
async function startedCall(url: string, abort: AbortController): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: {} } }),
    signal: abort.signal,
  });
  await readUntil(response, '"data":"started"');
}

describe("closing with many streams open", () => {
  test("100 POST streams and 20 GET streams whose clients went away: close() is fast and leaves no server, socket or timer", async () => {
    await settle();
    const baseline = counts();
    const mock = await McpMock.start({ tools, onUnmatched: "silent" });
    try {
      mock.toolsCall("x").streams((s) => s.log("info", "started").delay(10_000).result("x"));
      const session = await initialize(mock.url);
      const aborts: AbortController[] = [];
      const posts = Array.from({ length: 100 }, async (_, i) => {
        const abort = new AbortController();
        aborts.push(abort);
        const response = await fetch(mock.url, {
          method: "POST",
          headers: { ...HEADERS, ...session },
          body: JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "x", arguments: {} } }),
          signal: abort.signal,
        });
        expect(response.headers.get("content-type")).toBe("text/event-stream");
        await readUntil(response, '"data":"started"');
      });
      // One GET stream per session: 20 sessions, each holding one open.
      const gets = Array.from({ length: 20 }, async () => {
        const headers = await initialize(mock.url);
        const abort = new AbortController();
        aborts.push(abort);
        const response = await fetch(mock.url, { method: "GET", headers: { accept: "text/event-stream", ...headers }, signal: abort.signal });
        expect(response.status).toBe(200);
        await readUntil(response, "id: ");
      });
      await Promise.all([...posts, ...gets]);
      expect(mock.sessions().filter((s) => s.streamOpen)).toHaveLength(20);
      // While they run, the streams hold sockets and timers (so the check below can fail).
      expect(counts()["TCPSocketWrap"]).toBeGreaterThan(baseline["TCPSocketWrap"] ?? 0);
      expect(counts()["Timeout"]).toBeGreaterThan(baseline["Timeout"] ?? 0);

      for (const abort of aborts) abort.abort();
      await settle();
      const started = performance.now();
      await mock.close();
      expect(performance.now() - started).toBeLessThan(1000);
      await expectNoMoreThan(baseline);
      // Every streamed call was settled by the close, journaled as cut short (no result came).
      const entries = mock.findRequests(toolsCall("x"));
      expect(entries).toHaveLength(100);
      expect(entries.filter((e) => JSON.stringify(e.answer) !== JSON.stringify({ cancelled: true, reason: "the stream ended first" }))).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  test("close() with clients still attached (not aborted) is fast too", async () => {
    await settle();
    const baseline = counts();
    const mock = await McpMock.start({ tools, onUnmatched: "silent" });
    mock.toolsCall("x").streams((s) => s.log("info", "started").delay(10_000).result("x"));
    const session = await initialize(mock.url);
    const bodies = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const response = await fetch(mock.url, {
          method: "POST",
          headers: { ...HEADERS, ...session },
          body: JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "x", arguments: {} } }),
        });
        return response;
      }),
    );
    const reading = bodies.map((r) => r.text().catch((e: unknown) => `error: ${String(e)}`));
    const started = performance.now();
    await mock.close();
    expect(performance.now() - started).toBeLessThan(1000);
    // Each client sees its stream end (the result never came).
    for (const text of await Promise.all(reading)) expect(text).not.toContain('"result"');
    await expectNoMoreThan(baseline);
  });
});

describe("a stateless client that disconnects mid-stream", () => {
  test("stops the script: the entry is settled at once, the result is never produced, and no timer remains after close", async () => {
    await settle();
    const baseline = counts();
    const mock = await McpMock.start({ tools, onUnmatched: "silent", sessions: "stateless" });
    try {
      let resultComputed = false;
      mock.toolsCall("x").streams((s) =>
        s.log("info", "started").delay(10_000).result(() => {
          resultComputed = true;
          return "x";
        }),
      );
      const abort = new AbortController();
      await startedCall(mock.url, abort);
      const [entry] = mock.findRequests(toolsCall("x"));
      expect(entry?.answer).toBeUndefined();
      abort.abort();
      await vi.waitFor(() => expect(entry?.answer).toBeDefined(), { timeout: 1000, interval: 5 });
      expect(entry?.durationMs).toBeLessThan(2000);
      expect(resultComputed).toBe(false);
      // The script's delay timer is gone with the disconnect, before close().
      await settle();
      await vi.waitFor(() => expect(counts()["Timeout"]).toBeLessThanOrEqual(baseline["Timeout"] ?? 0), { timeout: 1000, interval: 10 });
      await mock.close();
      await expectNoMoreThan(baseline);
      expect(resultComputed).toBe(false);
    } finally {
      await mock.close();
    }
  });

  // Guards that a stream cut by the client going away is journaled as cancelled, with the
  // reason, rather than with the last notification it sent.
  test("a disconnected stream's journal answer says so, rather than showing the last notification", async () => {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent", sessions: "stateless" });
    mock.toolsCall("x").streams((s) => s.log("info", "started").delay(10_000).result("x"));
    const abort = new AbortController();
    await startedCall(mock.url, abort);
    abort.abort();
    const [entry] = mock.findRequests(toolsCall("x"));
    await vi.waitFor(() => expect(entry?.answer).toBeDefined(), { timeout: 1000, interval: 5 });
    expect(entry?.answer).toEqual({ cancelled: true, reason: "the stream ended first" });
  });
});
