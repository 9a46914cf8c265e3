/**
 * Load: 200 concurrent sessions, each making 100 tools/call, with zero errors and a journal
 * that counts exactly 20,000 calls. 195 sessions are raw keep-alive HTTP clients in a worker
 * thread (so the clients' work runs on the other core, beside the mock's); 5 are real SDK v1
 * clients in this thread. The figures are printed.
 */
import { Worker } from "node:worker_threads";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "vitest";
import { McpMock, toolsCall } from "../../src/index.js";

const SESSIONS = 200;
const SDK_SESSIONS = 5;
const CALLS = 100;
/** Generous: about 12 s alone on 2 cores; other test files share the cores. */
const TIME_BOUND_MS = 45_000;

const tools = [
  { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
] as const;

/** The raw clients: each session initializes, then makes its calls one after another. */
const RAW_CLIENTS = `
const http = require("node:http");
const { workerData, parentPort } = require("node:worker_threads");
const { port, sessions, calls, offset } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: sessions });
const base = { accept: "application/json, text/event-stream", "content-type": "application/json" };
function post(headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent,
      headers: { ...base, ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
async function session(s) {
  const errors = [];
  let ok = 0;
  const init = await post({}, JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "load-" + s, version: "1" } } }));
  const id = init.headers["mcp-session-id"];
  if (init.status !== 200 || !id) return { ok, errors: ["initialize: " + init.status + " " + init.text.slice(0, 200)] };
  const headers = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
  await post(headers, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  for (let k = 1; k <= calls; k++) {
    const a = s, b = k;
    try {
      const res = await post(headers, JSON.stringify({ jsonrpc: "2.0", id: k, method: "tools/call", params: { name: "add", arguments: { a, b } } }));
      const answer = JSON.parse(res.text);
      if (res.status === 200 && answer.id === k && answer.result && answer.result.content[0].text === JSON.stringify({ sum: a + b })) ok++;
      else errors.push(res.status + " " + res.text.slice(0, 200));
    } catch (error) {
      errors.push(String(error));
    }
  }
  return { ok, errors };
}
Promise.all(Array.from({ length: sessions }, (_, i) => session(offset + i).catch((e) => ({ ok: 0, errors: [String(e)] }))))
  .then((results) => {
    agent.destroy();
    parentPort.postMessage({ ok: results.reduce((n, r) => n + r.ok, 0), errors: results.flatMap((r) => r.errors) });
  });
`;

interface Tally {
  ok: number;
  errors: string[];
}

function rawClients(url: string, sessions: number, offset: number): Promise<Tally> {
  const worker = new Worker(RAW_CLIENTS, { eval: true, workerData: { port: Number(new URL(url).port), sessions, calls: CALLS, offset } });
  return new Promise<Tally>((resolve, reject) => {
    worker.once("message", (tally: Tally) => resolve(tally));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the client worker exited (${code}) before reporting`)));
  }).finally(() => void worker.terminate());
}

async function sdkClient(url: string, s: number): Promise<Tally> {
  const tally: Tally = { ok: 0, errors: [] };
  const client = new Client({ name: `sdk-${s}`, version: "1.0.0" });
  client.onerror = (e) => tally.errors.push(`onerror: ${String(e)}`);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    for (let k = 1; k <= CALLS; k++) {
      try {
        const result = await client.callTool({ name: "add", arguments: { a: s, b: k } });
        if (JSON.stringify(result.content) === JSON.stringify([{ type: "text", text: JSON.stringify({ sum: s + k }) }])) tally.ok++;
        else tally.errors.push(JSON.stringify(result).slice(0, 200));
      } catch (error) {
        tally.errors.push(String(error));
      }
    }
  } finally {
    // Closing aborts the client's own GET stream, which it reports to onerror: not a server error.
    client.onerror = () => undefined;
    await client.close();
  }
  return tally;
}

test(`${SESSIONS} concurrent sessions × ${CALLS} tools/call: zero errors, and the journal counts every call`, async () => {
  await using mock = await McpMock.start({ tools, journalSize: 30_000, onUnmatched: "silent" });
  const add = mock.toolsCall("add").respondsWith((call) => ({ sum: call.args.a + call.args.b }));

  const started = performance.now();
  const tallies = await Promise.all([
    rawClients(mock.url, SESSIONS - SDK_SESSIONS, SDK_SESSIONS),
    ...Array.from({ length: SDK_SESSIONS }, (_, s) => sdkClient(mock.url, s)),
  ]);
  const elapsed = Math.round(performance.now() - started);

  const ok = tallies.reduce((n, t) => n + t.ok, 0);
  const errors = tallies.flatMap((t) => t.errors);
  const journaled = mock.requests().filter((e) => e.method === "tools/call");
  console.log(`[load] ${SESSIONS} sessions × ${CALLS} tools/call: ${ok} answered correctly, ${errors.length} errors, ${journaled.length} journaled, ${elapsed} ms (${Math.round((ok * 1000) / elapsed)} calls/s)`);

  expect(errors.slice(0, 5)).toEqual([]);
  expect(ok).toBe(SESSIONS * CALLS);
  expect(journaled).toHaveLength(SESSIONS * CALLS);
  expect(add.calls()).toBe(SESSIONS * CALLS);
  mock.verify(toolsCall("add"), SESSIONS * CALLS);
  // Every session made its 100 calls, ids 1..100, each answered by the stub.
  const bySession = new Map<string, number>();
  for (const entry of journaled) {
    expect(entry.stubId).toBe(add.id);
    bySession.set(entry.sessionId as string, (bySession.get(entry.sessionId as string) ?? 0) + 1);
  }
  expect(bySession.size).toBe(SESSIONS);
  expect([...bySession.values()].every((n) => n === CALLS)).toBe(true);
  expect(mock.unmatched()).toEqual([]);
  expect(elapsed).toBeLessThan(TIME_BOUND_MS);
}, TIME_BOUND_MS + 30_000);

// Guards against listener noise on the mock's one `closing` signal (src/engine/core.ts): every delayed
// answer waits with `sleep(ms, { signal: closing.signal })` and streamed answers add listeners
// through AbortSignal.any, so with more than 10 in flight Node printed
// "MaxListenersExceededWarning: Possible EventTarget memory leak detected. 11 abort listeners
// added to [AbortSignal]". Not a leak (the listeners go when the delays end), but noise in every
// load test with withDelay; the signal has setMaxListeners(0, signal) now.
test("20 concurrent withDelay answers print no MaxListenersExceededWarning", async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
  process.on("warning", onWarning);
  try {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
    mock.toolsCall("add").withDelay(100).respondsWith({ sum: 0 });
    const init = await fetch(mock.url, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
    });
    await init.text();
    const headers = { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-session-id": init.headers.get("mcp-session-id") as string };
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "add", arguments: { a: 0, b: 0 } } }) }).then((r) => r.status)));
    expect(answers.every((s) => s === 200)).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(warnings.filter((w) => w.startsWith("MaxListenersExceededWarning"))).toEqual([]);
  } finally {
    process.off("warning", onWarning);
  }
});
