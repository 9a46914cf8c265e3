/**
 * `npm run stress`: issue 20's hostile-client figures, printed, never asserted (the tests
 * assert the bounds; this shows them at scale). `--quick` runs a short version of each.
 *
 *   1. calls at 48 connections, RSS every tenth of the run (1,000,000 calls; quick: 20,000)
 *   2. tools/call with 3 MiB arguments, heap after a full GC against journalBytes (1,000; quick: 60)
 *   3. abandoned sessions holding GET streams (5,000, 1,500 held at once; quick: 600, 200)
 *   4. a client that reads nothing of a 16 KiB x 10,000 stream: RSS while it does not read
 *   5. a structured fuzz (200,000 messages; quick: 5,000): 5xx, hangs, Object.prototype
 *   6-10. issue 33's surfaces (`stress-round3.ts`): a task flood, OAuth bad input, live-feed
 *      readers that stop, the admin API flooded with 32 MiB bodies, 10,000 pattern stubs
 *   11. issue 44's proxy soak (`stress-round4.ts`): heap per proxied call, warnings, cancels, close()
 *
 * Run with --expose-gc (the npm script does) so heap figures are after a collection.
 * @module
 */
import http from "node:http";
import { McpMock } from "../src/index.js";
import { fuzzBodies } from "./stress-fuzz.js";
import { proxySoak, recorderSoak } from "./stress-round4.js";
import { adminFlood, feedReadersThatStop, oauthBadInput, patternStubs, taskFlood } from "./stress-round3.js";

const quick = process.argv.includes("--quick");
const ACCEPT = "application/json, text/event-stream";
const MiB = 1024 * 1024;
const tools = [{ name: "echo", inputSchema: { type: "object" } }] as const;
const gc = (globalThis as { gc?: () => void }).gc;
const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;
const rss = () => process.memoryUsage().rss;
function heap(): number {
  for (let i = 0; i < 3; i++) gc?.();
  return process.memoryUsage().heapUsed;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 48 });

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(url: string, body: string, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<Answer | "timeout"> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent, headers: { accept: ACCEPT, "content-type": "application/json", ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.setTimeout(timeoutMs, () => (req.destroy(), resolve("timeout")));
    req.on("error", reject);
    req.end(body);
  });
}

const initBody = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "stress", version: "1" } } });

async function session(url: string): Promise<Record<string, string>> {
  const res = await send(url, initBody);
  if (res === "timeout" || res.status !== 200) throw new Error(`initialize failed: ${res === "timeout" ? res : res.status}`);
  return { "mcp-session-id": String(res.headers["mcp-session-id"]), "mcp-protocol-version": "2025-11-25" };
}

const callBody = (id: number, args: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: args } });

async function manyCalls(): Promise<void> {
  const total = quick ? 20_000 : 1_000_000;
  await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
  mock.toolsCall("echo").respondsWith("ok");
  const headers = await session(mock.url);
  const samples: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < total) {
      const id = ++next;
      const res = await send(mock.url, callBody(id, { n: id }), headers);
      if (res === "timeout" || res.status !== 200) errors++;
      if (id % (total / 10) === 0) samples.push(rss());
    }
  };
  await Promise.all(Array.from({ length: 48 }, worker));
  const seconds = (performance.now() - started) / 1000;
  const first = samples[0] ?? 0;
  const last = samples.at(-1) ?? 0;
  console.log(`[1] ${total} calls at 48 connections: ${(total / seconds).toFixed(0)} calls/s, ${errors} errors`);
  console.log(`    RSS every ${total / 10}: ${samples.map(mib).join(", ")}`);
  console.log(`    last vs first sample: ${(((last - first) / first) * 100).toFixed(1)}% (acceptance: within 10%)`);
}

async function bigArguments(): Promise<void> {
  const total = quick ? 60 : 1000;
  await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
  mock.toolsCall("echo").respondsWith("ok");
  const headers = await session(mock.url);
  // A flat string: "y".repeat() makes a rope that V8 flattens (3 MiB more) on its first use,
  // which would count the run's own argument as heap the mock keeps.
  const blob = Buffer.alloc(3 * MiB, "y").toString("latin1");
  // The baseline after a warm-up of small calls, so that first-use costs (compiled code, caches)
  // do not count as what the run retains.
  for (let i = 0; i < 20; i++) await send(mock.url, callBody(-1 - i, { warm: i }), headers);
  mock.resetJournal();
  const before = heap();
  let errors = 0;
  for (let i = 1; i <= total; i++) {
    const res = await send(mock.url, callBody(i, { blob, i }), headers, 30_000);
    if (res === "timeout" || res.status !== 200) errors++;
  }
  const after = heap();
  const kept = mock.requests().length;
  mock.resetJournal();
  const withoutJournal = heap();
  console.log(`[2] ${total} tools/call with 3 MiB arguments: ${errors} errors; journal keeps ${kept} entries`);
  console.log(`    heap before (after 20 small warm-up calls) ${mib(before)}, after ${mib(after)} (growth ${mib(after - before)}); after resetJournal() ${mib(withoutJournal)}`);
  console.log(`    the journal's share: ${mib(after - withoutJournal)}; journalBytes budget 64.0 MiB${gc ? "" : " (no --expose-gc: not after a collection)"}`);
}

async function heldStreams(): Promise<void> {
  const total = quick ? 600 : 5000;
  const heldAtOnce = quick ? 200 : 1500;
  await using mock = await McpMock.start({ tools, onUnmatched: "silent", maxSessions: heldAtOnce + 100 });
  const held: http.ClientRequest[] = [];
  let refused = 0;
  let dead = 0;
  const before = rss();
  for (let i = 0; i < total; i++) {
    const res = await send(mock.url, initBody);
    if (res === "timeout" || res.status !== 200) {
      refused++;
      continue;
    }
    const id = String(res.headers["mcp-session-id"]);
    const req = http.get(mock.url, { headers: { accept: "text/event-stream", "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" } }, (r) => r.resume());
    req.on("error", () => undefined);
    held.push(req);
    // Abandon the oldest once heldAtOnce are held: the client goes away without DELETE.
    if (held.length > heldAtOnce) held.shift()?.destroy();
    if (i % 50 === 0) {
      const check = await send(mock.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" });
      if (check === "timeout" || check.status !== 200) dead++;
    }
  }
  console.log(`[3] ${total} sessions with GET streams, ${heldAtOnce} held at once: ${refused} initialize refused (503), ${dead} sessions handed out dead`);
  console.log(`    RSS ${mib(before)} -> ${mib(rss())}; ${mock.sessions().length} sessions open`);
  for (const req of held) req.destroy();
}

async function nonReadingClient(): Promise<void> {
  await using mock = await McpMock.start({ tools, onUnmatched: "silent", sseStallMs: 5000 });
  const frame = "z".repeat(16 * 1024);
  let produced = 0;
  mock.toolsCall("echo").streams(function* () {
    for (let i = 0; i < 10_000; i++) {
      produced++;
      yield { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: frame } };
    }
  });
  const headers = await session(mock.url);
  const before = rss();
  let peak = before;
  const res = await new Promise<http.IncomingMessage>((resolve) => {
    const req = http.request(mock.url, { method: "POST", headers: { accept: ACCEPT, "content-type": "application/json", ...headers } }, (r) => (r.pause(), resolve(r)));
    req.end(callBody(1, {}));
  });
  const started = Date.now();
  while (Date.now() - started < 2000) {
    peak = Math.max(peak, rss());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  console.log(`[4] a client reading nothing of a 16 KiB x 10,000 stream (160 MiB): ${produced} events produced in 2 s`);
  console.log(`    RSS ${mib(before)} -> peak ${mib(peak)} (growth ${mib(peak - before)}; per-stream bound maxStreamBytes 4.0 MiB plus socket buffers)`);
  res.destroy();
}

async function fuzz(): Promise<void> {
  const total = quick ? 5000 : 200_000;
  await using mock = await McpMock.start({ tools, onUnmatched: "silent", journalSize: 1000 });
  mock.toolsCall("echo").respondsWith((c) => ({ got: Object.keys(c.args).length }));
  const headers = await session(mock.url);
  const protoKeys = Object.getOwnPropertyNames(Object.prototype).sort().join();
  const counts = new Map<string, number>();
  let fivexx = 0;
  let hangs = 0;
  let next = 0;
  const bodies = fuzzBodies(total);
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const res = await send(mock.url, bodies(i), headers, 10_000);
      if (res === "timeout") hangs++;
      else {
        if (res.status >= 500) fivexx++;
        counts.set(String(res.status), (counts.get(String(res.status)) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  const untouched = Object.getOwnPropertyNames(Object.prototype).sort().join() === protoKeys && ({} as Record<string, unknown>)["polluted"] === undefined;
  console.log(`[5] fuzz, ${total} messages: ${fivexx} 5xx, ${hangs} hangs; statuses ${[...counts].map(([s, n]) => `${s}: ${n}`).join(", ")}; Object.prototype ${untouched ? "untouched" : "CHANGED"}`);
}

const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
const runs: Record<string, () => Promise<void>> = {
  calls: manyCalls,
  big: bigArguments,
  streams: heldStreams,
  slow: nonReadingClient,
  fuzz,
  tasks: () => taskFlood(quick),
  oauth: () => oauthBadInput(quick),
  feed: () => feedReadersThatStop(quick),
  admin: () => adminFlood(quick),
  patterns: () => patternStubs(quick),
  proxy: () => proxySoak(quick),
  recorder: () => recorderSoak(quick),
};
console.log(`mcpmock stress${quick ? " (--quick)" : ""}, node ${process.version}`);
for (const [name, run] of Object.entries(runs)) if (only === undefined || only === name) await run();
agent.destroy();
