/**
 * `npm run bench:profile -- [server args]`: runs one bench server under `node --cpu-prof`,
 * sends tools/call load at 32 connections, and prints the functions with the most self
 * time (and the server's CPU per call). The profile is kept in bench/results/profile/.
 *
 *   npm run bench:profile                       # mcpmock stateful JSON
 *   npm run bench:profile -- stateless json     # same args as bench/servers/mcpmock.mjs
 *   npm run bench:profile -- --server hono      # a baseline server instead
 *   ERA=2026 npm run bench:profile -- stateless json   # the calls as a 2026-07-28 client sends them
 *
 * TOP=n lines of self time, INCLUSIVE=n lines of inclusive time (library and Hono frames),
 * INTERVAL=µs between samples (200).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { load, MCP_HEADERS, openSession, ROOT, startServer } from "./lib.js";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const argv = process.argv.slice(2);
const serverAt = argv.indexOf("--server");
const serverName = serverAt >= 0 ? (argv[serverAt + 1] as string) : "mcpmock";
const args = serverAt >= 0 ? argv.filter((_, i) => i !== serverAt && i !== serverAt + 1) : argv;
const dir = `${ROOT}bench/results/profile`;
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const server = await startServer(serverName, process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, "--cpu-prof-interval", process.env["INTERVAL"] ?? "200", `bench/servers/${serverName}.mjs`, ...args]);
const stateful = serverName === "mcpmock" ? (args[0] ?? "stateful") === "stateful" : false;
// ERA=2026: the tools/call of a 2026-07-28 client (its envelope in _meta, its method and name in headers).
const modern = process.env["ERA"] === "2026";
const body = modern ? JSON.stringify({ jsonrpc: "2.0", id: "[<id>]", method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 }, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } }) : undefined;
const headers = modern ? { ...MCP_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "add" } : stateful ? await openSession(server.url) : MCP_HEADERS;
await load(server, headers, { connections: 32, duration: 1, ...(body ? { body } : {}) });
const result = await load(server, headers, { connections: 32, duration: 5, ...(body ? { body } : {}) });
await server.stop();
process.stdout.write(`${serverName} ${args.join(" ")}: ${result.cpuUsPerRequest.toFixed(1)} µs CPU / call, ${Math.round(result.rps)} calls/s\n`);

const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
if (!file) throw new Error("no profile written");
const profile = JSON.parse(readFileSync(`${dir}/${file}`, "utf8")) as Profile;
const self = new Map<string, number>();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
let total = 0;
profile.samples.forEach((id, i) => {
  const frame = byId.get(id)?.callFrame;
  if (!frame) return;
  const where = frame.url ? `${frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/(dist|src)\//, "$1/")}:${frame.lineNumber + 1}` : "";
  const key = `${frame.functionName || "(anonymous)"} ${where}`;
  const dt = profile.timeDeltas[i] ?? 0;
  self.set(key, (self.get(key) ?? 0) + dt);
  total += dt;
});
// Inclusive time of the library's own functions (and Hono's): what each costs with its callees.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
const inclusive = new Map<string, number>();
const label = (n: ProfileNode): string => `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/(dist|src)\//, "$1/")}:${n.callFrame.lineNumber + 1}`;
profile.samples.forEach((id, i) => {
  const seen = new Set<string>();
  for (let n = byId.get(id); n; n = byId.get(parent.get(n.id) ?? -1)) {
    if (!/\/(dist|hono|@hono)\//.test(n.callFrame.url)) continue;
    const key = label(n);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
});
const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env["TOP"] ?? 40));
for (const [key, t] of top) process.stdout.write(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${key}\n`);
if (process.env["INCLUSIVE"]) {
  process.stdout.write("inclusive (library and Hono frames):\n");
  for (const [key, t] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env["INCLUSIVE"]))) {
    process.stdout.write(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${key}\n`);
  }
}
process.stdout.write(`profile: bench/results/profile/${file}\n`);
