/**
 * `npm run bench:ab -- <other checkout> [server args]`: the tools/call CPU per call of this
 * checkout's mcpmock against another checkout's (built), rounds alternating, for before/after
 * figures on a noisy machine.
 */
import { load, MCP_HEADERS, median, openSession, startServer, type Running } from "./lib.js";

const [other, ...args] = process.argv.slice(2);
if (!other) throw new Error("usage: npm run bench:ab -- <path of another checkout, built> [stateless|stateful json|sse ...]");
const rounds = Number(process.env["ROUNDS"] ?? 5);
const stateful = (args[0] ?? "stateful") === "stateful";
const subjects: [string, string][] = [
  ["this", "bench/servers/mcpmock.mjs"],
  ["other", `${other}/bench/servers/mcpmock.mjs`],
];
const results = new Map<string, number[]>(subjects.map(([n]) => [n, []]));
const running: [string, Running, Record<string, string>][] = [];
for (const [name, script] of subjects) {
  const server = await startServer(name, process.execPath, [script, ...args]);
  const headers = stateful ? await openSession(server.url) : MCP_HEADERS;
  await load(server, headers, { connections: 32, duration: 1 });
  running.push([name, server, headers]);
}
for (let r = 0; r < rounds; r++) {
  for (const [name, server, headers] of r % 2 ? [...running].reverse() : running) {
    results.get(name)?.push((await load(server, headers, { connections: 32, duration: 2 })).cpuUsPerRequest);
  }
}
for (const [, server] of running) await server.stop();
const mine = median(results.get("this") as number[]);
const theirs = median(results.get("other") as number[]);
process.stdout.write(`this:  ${mine.toFixed(1)} µs/call  [${(results.get("this") as number[]).map((v) => v.toFixed(1)).join(", ")}]\n`);
process.stdout.write(`other: ${theirs.toFixed(1)} µs/call  [${(results.get("other") as number[]).map((v) => v.toFixed(1)).join(", ")}]\n`);
process.stdout.write(`ratio this/other: ${(mine / theirs).toFixed(2)}\n`);
