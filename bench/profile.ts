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
 * INTERVAL=µs between samples (200). PIN=1 pins the server to the last core and the load to the
 * first, as the bench does (start the upstream of mcpmock-proxy with `taskset -c <last core>` too).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { load, mainThreadMs, MCP_HEADERS, needsSession, openSession, pin, ROOT, startServer, warm } from "./lib.js";
import { partOfModule } from "./profile-parts.js";

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

if (process.env["PIN"] === "1" && !pin()) throw new Error("PIN=1: this machine cannot pin (one core, or no taskset)");
const server = await startServer(serverName, process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, "--cpu-prof-interval", process.env["INTERVAL"] ?? "200", `bench/servers/${serverName}.mjs`, ...args]);
const stateful = needsSession(`bench/servers/${serverName}.mjs`, args);
// ERA=2026: the tools/call of a 2026-07-28 client (its envelope in _meta, its method and name in headers).
const modern = process.env["ERA"] === "2026";
const body = modern ? JSON.stringify({ jsonrpc: "2.0", id: "[<id>]", method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 }, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } }) : undefined;
const headers = modern ? { ...MCP_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "add" } : stateful ? await openSession(server.url) : MCP_HEADERS;
await warm(server, headers, body);
const mainBefore = mainThreadMs(server.proc.pid as number);
const result = await load(server, headers, { connections: 32, duration: 5, ...(body ? { body } : {}) });
const mainUsPerCall = ((mainThreadMs(server.proc.pid as number) - mainBefore) * 1000) / result.requests;
await server.stop();
process.stdout.write(`${serverName} ${args.join(" ")}: ${result.cpuUsPerRequest.toFixed(1)} µs CPU / call (main thread ${mainUsPerCall.toFixed(1)}, other threads ${(result.cpuUsPerRequest - mainUsPerCall).toFixed(1)}), ${Math.round(result.rps)} calls/s\n`);

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

// What each part of the pipeline costs per call: every sample goes to the innermost frame of
// ours that belongs to a part (a leaf in node:, Hono or V8 goes to the frame of ours that called
// it: writev to the write, JSON.parse to the parse), by the src/ module it comes from (the
// bundles keep a `// dist/<module>.js` line before each module's code; the map is bench/profile-parts.ts).
// Samples with no frame of ours are the HTTP server's (node:http, @hono/node-server, Hono) or V8's own (GC, program).
const regions = new Map<string, { line: number; module: string }[]>();
function moduleOf(url: string, line: number): string | undefined {
  if (!/\/dist\/chunk-[^/]+\.js$/.test(url)) return undefined;
  let list = regions.get(url);
  if (!list) {
    list = [];
    readFileSync(new URL(url), "utf8")
      .split("\n")
      .forEach((text, i) => {
        const m = /^\/\/ dist\/(.+)\.js$/.exec(text);
        if (m) list?.push({ line: i, module: m[1] as string });
      });
    regions.set(url, list);
  }
  let found: string | undefined;
  for (const r of list) if (r.line <= line) found = r.module;
  return found;
}
// The same parts in a bare Hono app (`--server hono`): c.req.json() parses, c.json() answers,
// @hono/node-server writes the Response to the Node response.
const HONO_PARTS: [part: string, url: RegExp, fn: RegExp][] = [
  ["parse", /\/hono\/dist\/request\.js$/, /^(json|#?cachedBody|text|arrayBuffer)$/],
  ["answer", /\/hono\/dist\/context\.js$/, /^(json|#?newResponse|newResponse)$/],
  ["write", /\/@hono\/node-server\/dist\/index\.mjs$/, /^(responseViaResponseObject|responseViaCache|writeFromReadableStream.*|flushHeaders)$/],
];
function partOf(frame: ProfileNode["callFrame"]): string | undefined {
  for (const [part, url, fn] of HONO_PARTS) if (url.test(frame.url) && fn.test(frame.functionName)) return part;
  const module = moduleOf(frame.url, frame.lineNumber);
  if (module === undefined) return undefined;
  return partOfModule(module, frame.functionName);
}
const parts = new Map<string, number>();
let busy = 0;
profile.samples.forEach((id, i) => {
  const leaf = byId.get(id);
  const dt = profile.timeDeltas[i] ?? 0;
  if (!leaf || leaf.callFrame.functionName === "(idle)") return;
  busy += dt;
  let part: string | undefined;
  for (let n: ProfileNode | undefined = leaf; n && part === undefined; n = byId.get(parent.get(n.id) ?? -1)) part = partOf(n.callFrame);
  const name = leaf.callFrame.functionName;
  part ??= name === "(garbage collector)" ? "GC (main thread)" : name === "(program)" ? "V8 (program)" : "HTTP server (node:http, @hono/node-server, Hono)";
  parts.set(part, (parts.get(part) ?? 0) + dt);
});
process.stdout.write(`\nper call, by part (main thread ${mainUsPerCall.toFixed(1)} µs, its busy samples shared out):\n`);
for (const [part, t] of [...parts].sort((a, b) => b[1] - a[1])) process.stdout.write(`${((mainUsPerCall * t) / busy).toFixed(2).padStart(7)} µs  ${((100 * t) / busy).toFixed(1).padStart(5)}%  ${part}\n`);
process.stdout.write(`${(result.cpuUsPerRequest - mainUsPerCall).toFixed(2).padStart(7)} µs          other threads (GC helpers, compiler, libuv)\n`);
process.stdout.write(`profile: bench/results/profile/${file}\n`);
