/**
 * Resumable streams: an SSE answer that loses its connection (`streams(..., { dropAfter })`,
 * `fails("drop-stream-after", n)`) goes on, and the client gets the rest with GET and
 * `Last-Event-ID`: the SDK clients v1 and v2 (2025-11-25, priming event) on their own, and
 * raw fetch to check which events a resume replays.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { describe, expect, test, vi } from "vitest";
import { McpMock, toolsCall, type McpMockOptions } from "../../src/index.js";
import { textOrUndefined as textOf } from "../support/clients.js";
import { openSession } from "../support/raw-http.js";
import { startWithClient } from "../support/setup.js";

const tools = [
  { name: "long", inputSchema: { type: "object" } },
  { name: "other", inputSchema: { type: "object" } },
  { name: "plain", inputSchema: { type: "object" } },
] as const;

type Kind = "v1" | "v2";
const KINDS: readonly Kind[] = ["v1", "v2"];

interface Sdk {
  /** Every notification the client got, in order. */
  readonly notes: Array<{ method: string; params: unknown }>;
  /** The Last-Event-ID of every GET the client sent. */
  readonly resumedFrom: string[];
  callTool(name: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

async function sdk(kind: Kind, url: string): Promise<Sdk> {
  const notes: Array<{ method: string; params: unknown }> = [];
  const resumedFrom: string[] = [];
  const recordingFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const lastEventId = headers.get("last-event-id");
    if ((init?.method ?? "GET") === "GET" && lastEventId !== null) resumedFrom.push(lastEventId);
    return fetch(input, init);
  };
  if (kind === "v1") {
    const client = new ClientV1({ name: "resume-test", version: "1.0.0" });
    client.fallbackNotificationHandler = async (n) => void notes.push({ method: n.method, params: n.params });
    await client.connect(new TransportV1(new URL(url), { fetch: recordingFetch }));
    return {
      notes,
      resumedFrom,
      callTool: (name) => client.callTool({ name, arguments: {} }, undefined, { timeout: 3000 }) as Promise<Record<string, unknown>>,
      close: () => client.close(),
    };
  }
  const client = new ClientV2({ name: "resume-test", version: "1.0.0" });
  client.fallbackNotificationHandler = async (n) => void notes.push({ method: n.method, params: n.params });
  await client.connect(new TransportV2(new URL(url), { fetch: recordingFetch }));
  return {
    notes,
    resumedFrom,
    callTool: (name) => client.callTool({ name, arguments: {} }, { timeout: 3000 }) as Promise<Record<string, unknown>>,
    close: () => client.close(),
  };
}

const setup = (kind: Kind, options: McpMockOptions<typeof tools> = {}) =>
  startWithClient({ tools, onUnmatched: "silent", sseRetryMs: 50, ...options }, (url) => sdk(kind, url));

const steps = (n: number) => Array.from({ length: n }, (_, i) => ({ method: "notifications/step", params: { i: i + 1 } }));

// `streams(script, { dropAfter: n })` really drops the connection after n events (the outcome
// of a stream plan carries its dropAfter to the transport); the stream goes on, to be resumed.
describe.each(KINDS)("the SDK %s client resumes a dropped stream", (kind) => {
  // Guards that dropAfter reaches the transport and the SDK client resumes exactly once.
  test("streams(..., { dropAfter: 2 }): the client reconnects with Last-Event-ID and gets every event once, then the result", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("long").streams(
      (s) => s.notify("notifications/step", { i: 1 }).notify("notifications/step", { i: 2 }).notify("notifications/step", { i: 3 }).notify("notifications/step", { i: 4 }).result("finished"),
      { dropAfter: 2 },
    );
    const started = performance.now();
    expect(textOf(await ctx.client.callTool("long"))).toBe("finished");
    expect(performance.now() - started).toBeLessThan(1500);
    expect(ctx.client.notes).toEqual(steps(4));
    // Stream 1 of the session carried the call (the GET stream opens later or concurrently, with
    // another number); the client resumed after the second event.
    expect(ctx.client.resumedFrom).toHaveLength(1);
    expect(ctx.client.resumedFrom[0]).toMatch(/^\d+-2$/);
    const [entry] = ctx.mock.findRequests(toolsCall("long"));
    expect(entry?.answer).toMatchObject({ result: { content: [{ type: "text", text: "finished" }] } });
  });

  // Guards that a dropped stream keeps playing and a resume attaches to it live.
  test("a stream still running when the client comes back is carried on live", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("long").streams(
      (s) => s.notify("notifications/step", { i: 1 }).delay(300).notify("notifications/step", { i: 2 }).notify("notifications/step", { i: 3 }).result("live"),
      { dropAfter: 1 },
    );
    expect(textOf(await ctx.client.callTool("long"))).toBe("live");
    expect(ctx.client.notes).toEqual(steps(3));
    expect(ctx.client.resumedFrom).toEqual([expect.stringMatching(/^\d+-1$/)]);
  });

  test('fails("drop-stream-after", 0) on a plain answer is recovered after reconnecting', async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("plain").fails("drop-stream-after", 0);
    const result = await ctx.client.callTool("plain");
    // The fault's answer is the one a correct answer would have been: an empty tool result.
    expect(result["content"]).toEqual([]);
    expect(ctx.client.resumedFrom.length).toBeGreaterThanOrEqual(1);
    expect(ctx.client.resumedFrom.every((id) => /^\d+-0$/.test(id))).toBe(true);
  });
});

async function rawSession(url: string, version = "2025-11-25") {
  const { sessionId, headers } = await openSession(url, version);
  return {
    sessionId,
    post: (id: number, name: string) =>
      fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } }) }),
    resume: (lastEventId: string, signal?: AbortSignal) =>
      fetch(url, { method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": version, "last-event-id": lastEventId }, ...(signal ? { signal } : {}) }),
  };
}

/** The SSE events of a body: id and JSON data (priming events, with empty data, kept as data undefined). */
function eventsOf(body: string): Array<{ id: string | undefined; data: unknown }> {
  return body
    .split("\n\n")
    .filter((frame) => frame !== "" && !frame.startsWith(":"))
    .map((frame) => {
      const lines = frame.split("\n");
      const id = lines.find((l) => l.startsWith("id: "))?.slice(4);
      const data = lines.find((l) => l.startsWith("data: "))?.slice(6);
      return { id, data: data ? JSON.parse(data) : undefined };
    });
}

const note = (i: number) => ({ jsonrpc: "2.0", method: "notifications/step", params: { i } });
const toolResult = (id: number, text: string) => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });

/** Waits until a streamed call has played to its end (its journal entry has an answer). */
async function played(mock: McpMock, name: string, count = 1): Promise<void> {
  await vi.waitFor(() => {
    const entries = mock.findRequests(toolsCall(name));
    expect(entries).toHaveLength(count);
    expect(entries.every((e) => e.answer !== undefined)).toBe(true);
  }, { timeout: 1000, interval: 5 });
}

describe("resuming with raw fetch", () => {
  // Guards the replay of a dropped stream: exactly the events after Last-Event-ID, of that stream.
  test("GET with Last-Event-ID <stream>-<n> replays exactly the events after n, of that stream only, then closes", async () => {
    await using mock = await McpMock.start({ tools, keepAliveMs: 0, onUnmatched: "silent" });
    mock.toolsCall("other").streams((s) => s.notify("notifications/step", { i: 100 }).result("other done"));
    mock.toolsCall("long").streams((s) => s.notify("notifications/step", { i: 1 }).notify("notifications/step", { i: 2 }).notify("notifications/step", { i: 3 }).result("done"), { dropAfter: 2 });
    const raw = await rawSession(mock.url);

    // Stream 1: a complete answer, to check that no resume replays it.
    expect(eventsOf(await (await raw.post(1, "other")).text())).toEqual([
      { id: "1-0", data: undefined },
      { id: "1-1", data: note(100) },
      { id: "1-2", data: toolResult(1, "other done") },
    ]);
    // Stream 2: the connection drops after two events; the rest is kept.
    expect(eventsOf(await (await raw.post(2, "long")).text())).toEqual([
      { id: "2-0", data: undefined },
      { id: "2-1", data: note(1) },
      { id: "2-2", data: note(2) },
    ]);
    await played(mock, "long");

    const after2 = await raw.resume("2-2");
    expect(after2.status).toBe(200);
    expect(after2.headers.get("content-type")).toBe("text/event-stream");
    expect(eventsOf(await after2.text())).toEqual([
      { id: "2-3", data: note(3) },
      { id: "2-4", data: toolResult(2, "done") },
    ]);
    // From the priming id: everything of stream 2, nothing of stream 1.
    expect(eventsOf(await (await raw.resume("2-0")).text())).toEqual([
      { id: "2-1", data: note(1) },
      { id: "2-2", data: note(2) },
      { id: "2-3", data: note(3) },
      { id: "2-4", data: toolResult(2, "done") },
    ]);
    // A finished stream resumed at its end: nothing to replay, the connection closes at once.
    expect(await (await raw.resume("2-4")).text()).toBe("");
    expect(eventsOf(await (await raw.resume("1-1")).text())).toEqual([{ id: "1-2", data: toolResult(1, "other done") }]);
  });

  // Guards a resume of a stream still running: replayed events, then live ones; one attachment.
  test("a resumed stream still running is carried on: replayed events, then live ones", async () => {
    await using mock = await McpMock.start({ tools, keepAliveMs: 0, onUnmatched: "silent" });
    mock.toolsCall("long").streams((s) => s.notify("notifications/step", { i: 1 }).notify("notifications/step", { i: 2 }).delay(200).notify("notifications/step", { i: 3 }).result("done"), { dropAfter: 1 });
    const raw = await rawSession(mock.url);
    expect(eventsOf(await (await raw.post(1, "long")).text())).toEqual([
      { id: "1-0", data: undefined },
      { id: "1-1", data: note(1) },
    ]);
    const resumed = await raw.resume("1-1");
    expect(resumed.status).toBe(200);
    // While it is attached, a second resume of the same stream is a conflict.
    const second = await raw.resume("1-1");
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: { message: "Conflict: Stream already has an active connection" } });
    expect(eventsOf(await resumed.text())).toEqual([
      { id: "1-2", data: note(2) },
      { id: "1-3", data: note(3) },
      { id: "1-4", data: toolResult(1, "done") },
    ]);
  });

  test("a resume replays its own stream only, never another stream of the session", async () => {
    await using mock = await McpMock.start({ tools, keepAliveMs: 0, onUnmatched: "silent" });
    mock.toolsCall("other").streams((s) => s.notify("notifications/step", { i: 100 }).notify("notifications/step", { i: 101 }).result("other done"));
    mock.toolsCall("plain").fails("drop-stream-after", 0);
    const raw = await rawSession(mock.url);
    expect(eventsOf(await (await raw.post(1, "other")).text())).toHaveLength(4);
    expect(await (await raw.post(2, "plain")).text()).toBe("id: 2-0\nretry: 1000\ndata: \n\n");
    expect(await (await raw.post(3, "other")).text()).toContain("id: 3-3\ndata: ");
    expect(eventsOf(await (await raw.resume("2-0")).text())).toEqual([{ id: "2-1", data: { jsonrpc: "2.0", id: 2, result: { content: [] } } }]);
    expect(eventsOf(await (await raw.resume("1-1")).text())).toEqual([
      { id: "1-2", data: note(101) },
      { id: "1-3", data: toolResult(1, "other done") },
    ]);
    expect(eventsOf(await (await raw.resume("3-2")).text())).toEqual([{ id: "3-3", data: toolResult(3, "other done") }]);
    // Resumed at (or past) its end, a finished stream closes at once with nothing.
    expect(await (await raw.resume("2-1")).text()).toBe("");
    expect(await (await raw.resume("2-7")).text()).toBe("");
  });

  test.each(["9-1", "0-0", "abc", "1", "1-x", "-1-1", ""])("an unknown or garbled Last-Event-ID (%j) gets 400", async (lastEventId) => {
    await using mock = await McpMock.start({ tools, keepAliveMs: 0, onUnmatched: "silent" });
    mock.toolsCall("long").streams((s) => s.notify("notifications/step", { i: 1 }).result("done"), { dropAfter: 1 });
    const raw = await rawSession(mock.url);
    await (await raw.post(1, "long")).text();
    const response = await raw.resume(lastEventId);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Invalid event ID format" } });
  });

  test("a Last-Event-ID of another session's stream gets 400", async () => {
    await using mock = await McpMock.start({ tools, keepAliveMs: 0, onUnmatched: "silent" });
    mock.toolsCall("long").streams((s) => s.notify("notifications/step", { i: 1 }).result("done"), { dropAfter: 1 });
    const first = await rawSession(mock.url);
    await (await first.post(1, "long")).text();
    const second = await rawSession(mock.url);
    // Stream 1 exists in the first session only.
    expect((await second.resume("1-0")).status).toBe(400);
    expect((await first.resume("1-0")).status).toBe(200);
  });

  test('fails("drop-stream-after", 0): the POST carries only the priming event; a resume delivers the answer', async () => {
    await using mock = await McpMock.start({ tools, keepAliveMs: 0, onUnmatched: "silent" });
    mock.toolsCall("plain").fails("drop-stream-after", 0);
    const raw = await rawSession(mock.url);
    expect(await (await raw.post(1, "plain")).text()).toBe("id: 1-0\nretry: 1000\ndata: \n\n");
    expect(eventsOf(await (await raw.resume("1-0")).text())).toEqual([{ id: "1-1", data: { jsonrpc: "2.0", id: 1, result: { content: [] } } }]);
  });
});
