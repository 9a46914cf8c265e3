/**
 * `npm run bench:count`: instructions per tools/call, counted by valgrind's callgrind in the
 * server process (all its threads), over one keep-alive connection, and in the in-memory probe
 * (bench/probes/answer-kinds-memory.mjs, client and mock in one process). Unlike CPU time, the
 * count repeats to about 0.2% from run to run whatever else the machine is doing, so a change on
 * the hot path can be measured against its base on a noisy machine. It does not see what an
 * instruction costs (cache misses, GC's memory traffic) nor the kernel's work: read it beside
 * `npm run bench`.
 *
 * Under valgrind V8's threads take turns, and its optimizing compiler, which runs on threads of
 * its own, is still at work on an HTTP server long after the warm-up: about half of what a count
 * holds, in Hono as in mcpmock. So each count is given without those compile jobs as well (the
 * figure to compare); the in-memory probe waits for a line between runs, which lets them finish.
 *
 *   npm run bench:count                                   # Hono, the answer kinds, in memory
 *   npm run bench:count -- bench/servers/mcpmock.mjs:stateless:json:1:fn ../base/bench/servers/mcpmock.mjs:stateless:json:1:fn
 *   npm run bench:count -- memory:function ../base:memory:function
 *
 * A server is a script with its arguments after colons (as for bench:ab); mcpmock servers with
 * `stateful` get a session first, `:2026` at the end sends the calls as a 2026-07-28 client.
 * `memory:<kind>` is the in-memory probe of a kind (constant, function, placeholder,
 * function-2026), `<dir>:memory:<kind>` the probe of another checkout (built).
 * `<proxy script>@<upstream>` is proxy mode: the upstream (a server as above) started under
 * callgrind too, the proxy script given its URL (then the proxy's own arguments, after colons), the calls sent to the proxy; both processes
 * are counted, and printed apart (the mock, the upstream behind it) and together:
 *
 *   npm run bench:count -- bench/servers/sdk.mjs:stateful bench/servers/mcpmock-proxy.mjs@bench/servers/sdk.mjs:stateful
 *   npm run bench:count -- bench/servers/mcpmock.mjs:stateful:json bench/servers/fast-upstream.mjs bench/servers/mcpmock-proxy.mjs@bench/servers/fast-upstream.mjs
 * WARM calls (12000) are not counted, then CALLS (4000; 20000 in memory) are. PARALLEL counts
 * (2) run at once: each count is its own process's. CONNECTIONS (1) spreads the calls over
 * that many connections at once.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { closedLoop, MCP_HEADERS, needsSession, openSession, ROOT, startServer } from "./lib.js";

const DEFAULT_SERVERS = [
  "bench/servers/hono.mjs",
  "bench/servers/mcpmock.mjs:stateless:json:1:tools",
  "bench/servers/mcpmock.mjs:stateless:json:1:fn",
  "bench/servers/mcpmock.mjs:stateless:json:1:placeholder",
  "bench/servers/mcpmock.mjs:stateless:json:1:fn:2026",
  "memory:constant",
  "memory:function",
  "memory:placeholder",
  "memory:function-2026",
];
const specs = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DEFAULT_SERVERS;
const warm = Number(process.env["WARM"] ?? 12_000);
const calls = Number(process.env["CALLS"] ?? 4_000);
const memoryCalls = Number(process.env["CALLS"] ?? 20_000);
const parallel = Number(process.env["PARALLEL"] ?? 2);
// CONNECTIONS=n: n connections, each sending its next call when its last is answered. Batching
// then depends on timing, so counts vary more from run to run than on one connection.
const connections = Number(process.env["CONNECTIONS"] ?? 1);
const dir = `${ROOT}bench/results/count`;

try {
  execFileSync("valgrind", ["--version"], { stdio: "ignore" });
} catch {
  throw new Error("bench:count needs valgrind (apt-get install -y valgrind).");
}
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

/** The tools/call of a 2026-07-28 client (its envelope in _meta, its method and name in headers). */
const MODERN_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: "[<id>]",
  method: "tools/call",
  params: { name: "add", arguments: { a: 1, b: 2 }, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
});
const MODERN_HEADERS = { ...MCP_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "add" };

/** A count: instructions per call, and without V8's optimizing-compiler jobs; for proxy mode, the upstream behind the mock too. */
interface Count {
  readonly all: number;
  readonly withoutCompiles: number;
  readonly upstream?: Count;
}

/** valgrind's arguments for callgrind, counting nothing until `counting` turns it on. */
function callgrind(out: string): string[] {
  return ["--tool=callgrind", "--instr-atstart=no", `--callgrind-out-file=${out}`];
}

/** Counts the instructions of processes `pids` while `work` runs. */
async function counting(pid: number | readonly number[], work: () => Promise<unknown>): Promise<void> {
  const pids = typeof pid === "number" ? [pid] : pid;
  for (const p of pids) execFileSync("callgrind_control", ["-i", "on", String(p)], { stdio: "ignore" });
  await work();
  for (const p of pids) execFileSync("callgrind_control", ["-i", "off", String(p)], { stdio: "ignore" });
}

/** Waits for valgrind to write a count file after its process was stopped. */
async function written(out: string): Promise<void> {
  for (let i = 0; i < 100 && !existsSync(out); i++) await new Promise((r) => setTimeout(r, 100));
}

/** What a callgrind file counted, and how much of it V8's compile jobs took (inclusive). */
function counted(out: string, calls: number, spec: string): Count {
  const totals = /^totals:\s*(\d+)/m.exec(readFileSync(out, "utf8"));
  if (!totals) throw new Error(`${spec}: callgrind wrote no totals to ${out}`);
  const annotated = execFileSync("callgrind_annotate", ["--inclusive=yes", "--threshold=100", out], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const compiles = /^\s*([\d,]+) .*OptimizingCompileDispatcher::CompileTask::RunInternal/m.exec(annotated);
  const all = Number(totals[1]);
  return { all: all / calls, withoutCompiles: (all - Number(compiles?.[1]?.replaceAll(",", "") ?? 0)) / calls };
}

/** The in-memory probe of a kind under callgrind: one uncounted run of `memoryCalls`, then a counted one. */
async function countMemory(dir: string, kind: string, out: string): Promise<Count> {
  const probe = spawn("valgrind", [...callgrind(out), process.execPath, `${dir}bench/probes/answer-kinds-memory.mjs`, kind, String(memoryCalls)], { cwd: ROOT, stdio: ["pipe", "pipe", "ignore"] });
  const line = (): Promise<string> => new Promise((resolve) => probe.stdout.once("data", (chunk: Buffer) => resolve(String(chunk))));
  const exited = new Promise((resolve) => probe.once("exit", resolve));
  await line(); // READY, after its own warm-up
  const run = (): Promise<string> => {
    const answer = line();
    probe.stdin.write("\n");
    return answer;
  };
  await run();
  await counting(probe.pid as number, run);
  probe.stdin.end();
  await exited;
  return counted(out, memoryCalls, `memory:${kind}`);
}

async function count(spec: string, index: number): Promise<Count> {
  const out = `${dir}/${index}.callgrind`;
  const memory = /^(?:(.+):)?memory:([\w-]+)$/.exec(spec);
  if (memory) return countMemory(memory[1] === undefined ? "" : memory[1].replace(/\/?$/, "/"), memory[2] as string, out);
  const proxied = /^([^@]+)@(.+)$/.exec(spec);
  const [script, ...rest] = (proxied ? (proxied[2] as string) : spec).split(":") as [string, ...string[]];
  const modern = rest.at(-1) === "2026";
  const args = modern ? rest.slice(0, -1) : rest;
  const upstreamOut = `${dir}/${index}.upstream.callgrind`;
  const upstream = proxied ? await startServer(proxied[2] as string, "valgrind", [...callgrind(upstreamOut), process.execPath, script, ...args]) : undefined;
  const [proxyScript, ...proxyArgs] = (proxied?.[1] ?? "").split(":");
  const server = upstream ? await startServer(spec, "valgrind", [...callgrind(out), process.execPath, proxyScript as string, upstream.url, ...proxyArgs]) : await startServer(spec, "valgrind", [...callgrind(out), process.execPath, script, ...args]);
  try {
    const headers = modern ? MODERN_HEADERS : needsSession(upstream ? (proxyScript as string) : script, args) ? await openSession(server.url) : MCP_HEADERS;
    const body = modern ? MODERN_BODY : undefined;
    await closedLoop(server, headers, warm, connections, body);
    await counting(upstream ? [server.proc.pid as number, upstream.proc.pid as number] : (server.proc.pid as number), () => closedLoop(server, headers, calls, connections, body));
  } finally {
    // Under valgrind a proxying mock ends its upstream session before it exits: give it time to write its counts.
    await server.stop(60_000);
    await upstream?.stop(60_000);
  }
  await written(out);
  if (!upstream) return counted(out, calls, spec);
  await written(upstreamOut);
  return { ...counted(out, calls, spec), upstream: counted(upstreamOut, calls, `${spec} (upstream)`) };
}

const results: Count[] = [];
for (let i = 0; i < specs.length; i += parallel) {
  results.push(...(await Promise.all(specs.slice(i, i + parallel).map((spec, j) => count(spec, i + j)))));
}
/** Each count against the first of its kind: a server's against the first server's, a probe's against the first probe's. */
const isMemory = (spec: string): boolean => spec.includes("memory:");
const fmt = (x: number, width: number): string => Math.round(x).toLocaleString("en").padStart(width);
process.stdout.write(`instructions per tools/call (servers: ${connections} connection(s), ${warm} warm-up calls, ${calls} counted; in memory: ${memoryCalls} counted)\n`);
process.stdout.write(`${"all".padStart(10)}  ${"no compiles".padStart(11)}  ratio\n`);
specs.forEach((spec, i) => {
  const n = results[i] as Count;
  const first = specs.findIndex((s) => isMemory(s) === isMemory(spec));
  const base = results[first] as Count;
  process.stdout.write(`${fmt(n.all, 10)}  ${fmt(n.withoutCompiles, 11)}  ${(n.withoutCompiles / base.withoutCompiles).toFixed(3)}× ${specs[first]}  ${spec}${n.upstream ? " (the mock)" : ""}\n`);
  if (n.upstream) {
    const up = n.upstream;
    // The upstream behind the mock beside it called directly, when that is one of the specs.
    const direct = results[specs.indexOf(spec.slice(spec.indexOf("@") + 1))];
    const vs = (x: number): string => (direct ? `${(x / direct.withoutCompiles).toFixed(3)}× direct` : "");
    process.stdout.write(`${fmt(up.all, 10)}  ${fmt(up.withoutCompiles, 11)}  ${vs(up.withoutCompiles).padEnd(14)}  ${spec} (the upstream behind it)\n`);
    process.stdout.write(`${fmt(n.all + up.all, 10)}  ${fmt(n.withoutCompiles + up.withoutCompiles, 11)}  ${vs(n.withoutCompiles + up.withoutCompiles).padEnd(14)}  ${spec} (mock + upstream)\n`);
  }
});
