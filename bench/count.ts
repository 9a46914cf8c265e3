/**
 * `npm run bench:count`: instructions per tools/call, counted by valgrind's callgrind in the
 * server process (all its threads), over one keep-alive connection. Unlike CPU time, the count
 * repeats to about 0.1% from run to run whatever else the machine is doing, so a change on the
 * hot path can be measured against its base on a noisy machine. It does not see what an
 * instruction costs (cache misses, GC's memory traffic): read it beside `npm run bench`.
 *
 *   npm run bench:count                                   # Hono and the answer kinds
 *   npm run bench:count -- bench/servers/mcpmock.mjs:stateless:json:1:fn ../base/bench/servers/mcpmock.mjs:stateless:json:1:fn
 *
 * A server is a script with its arguments after colons (as for bench:ab); mcpmock servers with
 * `stateful` get a session first, `:2026` at the end sends the calls as a 2026-07-28 client.
 * WARM calls (12000: V8 has tiered up by then under valgrind) are not counted, then CALLS (4000)
 * are. PARALLEL servers (2) are counted at once: each count is its own process's.
 * CONNECTIONS (1) spreads the calls over that many connections at once.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { closedLoop, MCP_HEADERS, openSession, ROOT, startServer } from "./lib.js";

const DEFAULT_SERVERS = [
  "bench/servers/hono.mjs",
  "bench/servers/mcpmock.mjs:stateless:json:1:tools",
  "bench/servers/mcpmock.mjs:stateless:json:1:fn",
  "bench/servers/mcpmock.mjs:stateless:json:1:placeholder",
  "bench/servers/mcpmock.mjs:stateless:json:1:fn:2026",
];
const specs = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DEFAULT_SERVERS;
const warm = Number(process.env["WARM"] ?? 12_000);
const calls = Number(process.env["CALLS"] ?? 4_000);
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

async function count(spec: string, index: number): Promise<number> {
  const [script, ...rest] = spec.split(":") as [string, ...string[]];
  const modern = rest.at(-1) === "2026";
  const args = modern ? rest.slice(0, -1) : rest;
  const out = `${dir}/${index}.callgrind`;
  const server = await startServer(spec, "valgrind", ["--tool=callgrind", "--instr-atstart=no", `--callgrind-out-file=${out}`, process.execPath, script, ...args]);
  const stateful = script.endsWith("mcpmock.mjs") && (args[0] ?? "stateful") === "stateful";
  const headers = modern ? MODERN_HEADERS : stateful ? await openSession(server.url) : MCP_HEADERS;
  const body = modern ? MODERN_BODY : undefined;
  await closedLoop(server, headers, warm, connections, body);
  execFileSync("callgrind_control", ["-i", "on", String(server.proc.pid)], { stdio: "ignore" });
  await closedLoop(server, headers, calls, connections, body);
  execFileSync("callgrind_control", ["-i", "off", String(server.proc.pid)], { stdio: "ignore" });
  await server.stop();
  for (let i = 0; i < 100 && !existsSync(out); i++) await new Promise((r) => setTimeout(r, 100));
  const totals = /^totals:\s*(\d+)/m.exec(readFileSync(out, "utf8"));
  if (!totals) throw new Error(`${spec}: callgrind wrote no totals to ${out}`);
  return Number(totals[1]) / calls;
}

const results: number[] = [];
for (let i = 0; i < specs.length; i += parallel) {
  results.push(...(await Promise.all(specs.slice(i, i + parallel).map((spec, j) => count(spec, i + j)))));
}
const first = results[0] as number;
process.stdout.write(`instructions per tools/call (${connections} connection(s), ${warm} warm-up calls, ${calls} counted):\n`);
specs.forEach((spec, i) => {
  const n = results[i] as number;
  process.stdout.write(`${Math.round(n).toLocaleString("en").padStart(10)}  ${(n / first).toFixed(3)}× first  ${spec}\n`);
});
