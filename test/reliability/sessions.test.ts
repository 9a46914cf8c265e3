/**
 * Abandoned sessions cost bounded memory: most clients never send DELETE. 10,000 sessions
 * opened and left stay within the cap (1000 by default, least recently used ends first, its
 * id then answers 404), the heap does not grow with them, and `maxSessions` / `sessionIdleMs`
 * do what they say. The bulk initializes run in a worker thread (raw keep-alive HTTP, bounded
 * concurrency), so the heap measured here is the mock's.
 */
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { Worker } from "node:worker_threads";
import { describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";
import { ACCEPT_BOTH } from "../support/raw-http.js";

const DEFAULT_CAP = 1000;

/** Opens `count` sessions with at most `concurrency` initializes in flight; reports their ids in order. */
const OPENER = `
const http = require("node:http");
const { workerData, parentPort } = require("node:worker_threads");
const { port, count, concurrency } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const body = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "abandoned", version: "1" } } });
function initialize() {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent,
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode === 200 ? res.headers["mcp-session-id"] : "HTTP " + res.statusCode));
    });
    req.on("error", reject);
    req.end(body);
  });
}
(async () => {
  const ids = [];
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      next++;
      ids.push(await initialize().catch((e) => String(e)));
    }
  }));
  agent.destroy();
  parentPort.postMessage(ids);
})();
`;

function openSessions(url: string, count: number, concurrency = 32): Promise<string[]> {
  const worker = new Worker(OPENER, { eval: true, workerData: { port: Number(new URL(url).port), count, concurrency } });
  return new Promise<string[]>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the worker exited (${code}) before reporting`)));
  }).finally(() => void worker.terminate());
}

/** `gc()` when V8 lets us expose it (it does in Node 20), for meaningful heap figures. */
function collector(): (() => void) | undefined {
  try {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as unknown;
    return typeof gc === "function" ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

const gc = collector();

function heapUsed(): number {
  gc?.();
  return process.memoryUsage().heapUsed;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function post(url: string, session: string | undefined, body: object): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { accept: ACCEPT_BOTH, "content-type": "application/json", ...(session === undefined ? {} : { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }) },
    body: JSON.stringify(body),
  });
}

async function initialize(url: string): Promise<string> {
  const res = await post(url, undefined, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  await res.text();
  expect(res.status).toBe(200);
  return res.headers.get("mcp-session-id") as string;
}

/** The status a ping in this session gets (200 when the session works). */
async function pingStatus(url: string, session: string): Promise<number> {
  const res = await post(url, session, { jsonrpc: "2.0", id: 1, method: "ping" });
  const text = await res.text();
  if (res.status === 200) expect(JSON.parse(text)).toStrictEqual({ jsonrpc: "2.0", id: 1, result: {} });
  else expect(JSON.parse(text)).toStrictEqual({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } });
  return res.status;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("10,000 abandoned sessions with the default cap", () => {
  test("the store keeps the 1000 most recent, evicted ids answer 404, recent ones work, and the heap stays flat", async () => {
    // A small journal, so the heap figure is about sessions (the journal is bounded on its own).
    await using mock = await McpMock.start({ journalSize: 100, onUnmatched: "silent" });
    const before = heapUsed();

    const first = await openSessions(mock.url, 2000);
    const afterFirst = heapUsed();
    const rest = await openSessions(mock.url, 8000);
    const after = heapUsed();
    const ids = [...first, ...rest];

    console.log(`[sessions] 10,000 sessions opened and left: ${mock.sessions().length} kept; heap ${mb(before)} → ${mb(afterFirst)} after 2,000 → ${mb(after)} after 10,000 ` +
      `(growth over the last 8,000: ${mb(after - afterFirst)}; from the start: ${mb(after - before)}; gc ${gc ? "forced" : "not available"})`);

    expect(ids.filter((id) => !/^session-\d+$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(10_000);
    const open = mock.sessions().map((s) => s.id);
    expect(open.length).toBeLessThanOrEqual(DEFAULT_CAP);
    // Sequential ids are issued in the order sessions open: the last 1000 are the ones kept.
    expect(new Set(open)).toEqual(new Set(Array.from({ length: DEFAULT_CAP }, (_, i) => `session-${9001 + i}`)));

    for (const evicted of ["session-1", "session-2000", "session-5000", "session-9000"]) expect([evicted, await pingStatus(mock.url, evicted)]).toEqual([evicted, 404]);
    for (const recent of ["session-9001", "session-9500", "session-10000"]) expect([recent, await pingStatus(mock.url, recent)]).toEqual([recent, 200]);

    // Bounded: once the store is full, 8,000 more sessions add (almost) nothing.
    expect(after - afterFirst).toBeLessThan(gc ? 8 * 1024 * 1024 : 64 * 1024 * 1024);
    expect(after - before).toBeLessThan(gc ? 32 * 1024 * 1024 : 128 * 1024 * 1024);
  }, 60_000);
});

describe("maxSessions", () => {
  test("maxSessions: 50 keeps the 50 most recent sessions; the others answer 404", async () => {
    await using mock = await McpMock.start({ maxSessions: 50, onUnmatched: "silent" });
    const ids = await openSessions(mock.url, 60, 1);
    expect(ids).toEqual(Array.from({ length: 60 }, (_, i) => `session-${i + 1}`));
    expect(mock.sessions().map((s) => s.id)).toEqual(ids.slice(10));
    for (const id of ["session-1", "session-10"]) expect(await pingStatus(mock.url, id)).toBe(404);
    for (const id of ["session-11", "session-60"]) expect(await pingStatus(mock.url, id)).toBe(200);
  });

  test("the least recently used session ends first: a session in use survives newer ones", async () => {
    await using mock = await McpMock.start({ maxSessions: 50, onUnmatched: "silent" });
    await openSessions(mock.url, 50, 1);
    expect(await pingStatus(mock.url, "session-1")).toBe(200); // session-1 is now the most recently used
    await openSessions(mock.url, 1, 1);
    expect(await pingStatus(mock.url, "session-1")).toBe(200);
    expect(await pingStatus(mock.url, "session-2")).toBe(404);
    expect(mock.sessions()).toHaveLength(50);
  });

  test("a session holding its GET stream open is not evicted", async () => {
    await using mock = await McpMock.start({ maxSessions: 3, onUnmatched: "silent" });
    const listening = await initialize(mock.url);
    const stream = new AbortController();
    const get = await fetch(mock.url, { headers: { accept: "text/event-stream", "mcp-session-id": listening }, signal: stream.signal });
    try {
      expect(get.status).toBe(200);
      await openSessions(mock.url, 10, 1);
      expect(await pingStatus(mock.url, listening)).toBe(200);
      expect(mock.sessions()).toHaveLength(3);
    } finally {
      stream.abort();
    }
  });
});

describe("sessionIdleMs", () => {
  test("sessionIdleMs: 100 — an idle session answers 404 after 150 ms; a session with activity stays", async () => {
    await using mock = await McpMock.start({ sessionIdleMs: 100, onUnmatched: "silent" });
    const idle = await initialize(mock.url);
    const busy = await initialize(mock.url);
    const started = Date.now();
    while (Date.now() - started < 150) {
      expect(await pingStatus(mock.url, busy)).toBe(200);
      await sleep(30);
    }
    await sleep(Math.max(0, 150 - (Date.now() - started)));
    expect(await pingStatus(mock.url, idle)).toBe(404);
    expect(await pingStatus(mock.url, busy)).toBe(200);
    expect(mock.sessions().map((s) => s.id)).toEqual([busy]);
  });

  test("a session whose client holds the GET stream does not idle out", async () => {
    await using mock = await McpMock.start({ sessionIdleMs: 100, onUnmatched: "silent" });
    const listening = await initialize(mock.url);
    const stream = new AbortController();
    const get = await fetch(mock.url, { headers: { accept: "text/event-stream", "mcp-session-id": listening }, signal: stream.signal });
    try {
      expect(get.status).toBe(200);
      await sleep(150);
      expect(await pingStatus(mock.url, listening)).toBe(200);
    } finally {
      stream.abort();
    }
  });

  // Guards SessionStore.all() (src/engine/session-store.ts): an idle session used to end only when its id was
  // next looked up, so mock.sessions() ("the open sessions") still listed sessions that had
  // expired and whose id would get 404. Listing now ends them first; the id then answers 404.
  test("an expired session is no longer listed by mock.sessions()", async () => {
    await using mock = await McpMock.start({ sessionIdleMs: 100, onUnmatched: "silent" });
    const expired = await initialize(mock.url);
    expect(mock.sessions().map((s) => s.id)).toEqual([expired]);
    await sleep(150);
    expect(mock.sessions()).toEqual([]);
    expect(await pingStatus(mock.url, expired)).toBe(404);
  });
});
