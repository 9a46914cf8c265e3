/**
 * `npm run bench:idle`: what a server pays after it sat idle. Each server gets 200 calls, sits
 * idle IDLE seconds (12; 0 for the comparison), then takes ROUNDS rounds (6) of 2 s of load
 * at 32 connections; each round prints its CPU per call, its scavenges per 1,000 calls and
 * the new space's size at its end. Variants: as users run it, `--no-memory-reducer`, and
 * `--min-semi-space-size=16` (the memory reducer cannot shrink the new space below it).
 *
 *   npm run bench:idle                         # Hono and mcpmock (stateless JSON, function answer)
 *   npm run bench:idle -- bench/servers/hono.mjs
 */
import { load, MCP_HEADERS, median, startMetered } from "./lib.js";

const ROUNDS = Number(process.env["ROUNDS"] ?? 6);
const IDLE = Number(process.env["IDLE"] ?? 12);
const WARM = Number(process.env["WARM"] ?? 200);
const specs = process.argv.slice(2).length ? process.argv.slice(2) : ["bench/servers/hono.mjs", "bench/servers/mcpmock.mjs:stateless:json:1:fn"];
const variants: [string, string[]][] = [
  ["as run", []],
  ["--no-memory-reducer", ["--no-memory-reducer"]],
  ["--min-semi-space-size=16", ["--min-semi-space-size=16"]],
];

interface Round {
  readonly cpu: number;
  readonly minorPer1000: number;
  readonly newSpaceMiB: number;
}

async function run(spec: string, flags: string[], idle: number): Promise<Round[]> {
  const { server, meter } = await startMetered(spec, flags);
  try {
    await load(server, MCP_HEADERS, { connections: 32, amount: WARM });
    await new Promise((r) => setTimeout(r, idle * 1000));
    await meter();
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const result = await load(server, MCP_HEADERS, { connections: 32, duration: 2 });
      const { minor, newSpaceBytes } = await meter();
      rounds.push({ cpu: result.cpuUsPerRequest, minorPer1000: (1000 * minor) / result.requests, newSpaceMiB: newSpaceBytes / 1048576 });
    }
    return rounds;
  } finally {
    await server.stop();
  }
}

for (const spec of specs) {
  for (const [name, flags] of variants) {
    for (const idle of [0, IDLE]) {
      const rounds = await run(spec, flags, idle);
      const cpu = rounds.map((r) => r.cpu.toFixed(1)).join(" ");
      const minor = rounds.map((r) => r.minorPer1000.toFixed(1)).join(" ");
      const size = rounds.map((r) => r.newSpaceMiB.toFixed(0)).join(" ");
      process.stdout.write(`${spec} · ${name} · idle ${idle} s: CPU µs/call [${cpu}] (median ${median(rounds.map((r) => r.cpu)).toFixed(1)}) · scavenges/1000 calls [${minor}] · new space MiB [${size}]\n`);
    }
  }
}
