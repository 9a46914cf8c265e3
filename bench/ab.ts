/**
 * `npm run bench:ab -- <server> <server> ...`: tools/call CPU per call (32 connections, or CONNECTIONS) of
 * a few bench servers, rounds alternating, for before/after figures on a noisy machine.
 * A server is a script with its arguments after colons:
 *
 *   npm run bench:ab -- bench/servers/mcpmock.mjs:stateless ../base/bench/servers/mcpmock.mjs:stateless
 *   npm run bench:ab -- bench/servers/hono.mjs bench/servers/mcpmock.mjs:stateful
 *
 * mcpmock servers with `stateful` (the default) get a session first. An argument `@upstream` stands for
 * the URL of a fast upstream (bench/servers/fast-upstream.mjs) started on the servers' core, for
 * relays; the upstream's CPU per call behind each server is then shown too:
 *
 *   npm run bench:ab -- bench/servers/hono-relay.mjs:@upstream bench/servers/mcpmock-proxy.mjs:@upstream
 *
 * UPSTREAM=<script[:arg:arg]> starts another upstream in its place (UPSTREAM=bench/servers/sdk.mjs:stateful
 * for the SDK's McpServer; the relays open a session with it as the mock does).
 *
 * UPSTREAM_CORE=0 puts that upstream on the load's core instead, so a relay has its core to itself
 * as a plain server does (sharing one, a quicker relay can move cost to its upstream).
 *
 * ROUNDS (default 5). Each server is
 * warmed with 5,000 calls after it starts and again before a run when it sat idle (steady state).
 * As in `npm run bench`, the servers run pinned to one core and the load to the other (NO_PIN=1 to
 * let the scheduler place them), and every answer is checked: a run with wrong answers is reported.
 */
import { callHeaders, median, pin, specArgs, startServer, steadyLoad, upstreamFor, warm, type Running } from "./lib.js";

const specs = process.argv.slice(2);
if (specs.length === 0) throw new Error("usage: npm run bench:ab -- <script[:arg:arg]> <script[:arg:arg]> ...");
const rounds = Number(process.env["ROUNDS"] ?? 5);
const connections = Number(process.env["CONNECTIONS"] ?? 32);
const pinned = process.env["NO_PIN"] ? false : pin();
process.stdout.write(pinned ? "pinned: servers on the last core, load on core 0\n" : "not pinned\n");
const running: { spec: string; server: Running; headers: Record<string, string>; relays: boolean; cpu: number[]; rps: number[]; behind: number[] }[] = [];
const upstream = await upstreamFor(specs);
for (const spec of specs) {
  const [script, ...args] = specArgs(spec, upstream);
  const server = await startServer(spec, process.execPath, [script, ...args]);
  const headers = await callHeaders(server, script, args);
  await warm(server, headers);
  running.push({ spec, server, headers, relays: spec.split(":").includes("@upstream"), cpu: [], rps: [], behind: [] });
}
for (let r = 0; r < rounds; r++) {
  for (const s of r % 2 ? [...running].reverse() : running) {
    const result = await steadyLoad(s.server, s.headers, { connections, duration: 2, ...(s.relays && upstream ? { also: [upstream] } : {}) });
    s.cpu.push(result.cpuUsPerRequest);
    if (s.relays) s.behind.push(result.alsoCpuUsPerRequest[0] as number);
    s.rps.push(result.rps);
    if (result.errors) process.stdout.write(`${s.spec}: ${result.errors} failed or wrong answers in round ${r + 1} (${result.mismatches} not the expected result)\n`);
  }
}
for (const s of running) await s.server.stop();
await upstream?.stop();
const base = median((running[0] as (typeof running)[number]).cpu);
const baseMin = Math.min(...(running[0] as (typeof running)[number]).cpu);
/** The median of a server's per-round ratios to the first server's, with their spread. */
function ratios(cpu: number[]): string {
  const first = (running[0] as (typeof running)[number]).cpu;
  const rs = cpu.map((c, i) => c / (first[i] as number));
  return `median ${median(rs).toFixed(2)}× (${Math.min(...rs).toFixed(2)}-${Math.max(...rs).toFixed(2)})`;
}
for (const s of running) {
  const cpu = median(s.cpu);
  process.stdout.write(
    `${s.spec}: median ${cpu.toFixed(1)} µs/call (${(cpu / base).toFixed(2)}× first; per-round ratios ${ratios(s.cpu)}), min ${Math.min(...s.cpu).toFixed(1)} (${(Math.min(...s.cpu) / baseMin).toFixed(2)}× first), ${Math.round(median(s.rps))} calls/s  [${s.cpu.map((v) => v.toFixed(1)).join(", ")}]${s.behind.length ? `; the upstream behind it ${median(s.behind).toFixed(1)} µs/call` : ""}\n`,
  );
}
