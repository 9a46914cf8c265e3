/**
 * `npm run bench:alloc -- <server> ...`: bytes each tools/call allocates in a bench server, from
 * its scavenges with the young generation pinned (16 MiB semi-spaces: a scavenge every 16 MiB
 * allocated), and its survivors. Unlike CPU time it hardly moves with what else the machine
 * does, so a change that allocates less shows even on a busy machine. CALLS (100,000) counted
 * after 40,000 not counted; 32 connections. A server is a script with its arguments after colons,
 * as for bench:ab: mcpmock servers with `stateful` (and a proxying one) get a session first, and
 * `@upstream` stands for the URL of a fast upstream started for relays:
 *
 *   npm run bench:alloc -- bench/servers/mcpmock.mjs:stateful:json bench/servers/mcpmock-proxy.mjs:@upstream bench/servers/hono-relay.mjs:@upstream
 */
import { callHeaders, load, specArgs, startMetered, upstreamFor } from "./lib.js";

const calls = Number(process.env["CALLS"] ?? 100_000);
const specs = process.argv.slice(2);
if (specs.length === 0) throw new Error("usage: npm run bench:alloc -- <script[:arg:arg]> ...");
const upstream = await upstreamFor(specs);
try {
  for (const spec of specs) {
    const { server, meter } = await startMetered(spec, ["--min-semi-space-size=16", "--max-semi-space-size=16"], upstream);
    try {
      const [script, ...args] = specArgs(spec, upstream);
      const headers = await callHeaders(server, script, args);
      await load(server, headers, { connections: 32, amount: 40_000 });
      await meter();
      const result = await load(server, headers, { connections: 32, amount: calls });
      const scavenges = (await meter()).minor;
      process.stdout.write(`${spec}: ${((scavenges * 16 * 1024) / result.requests).toFixed(2)} KiB allocated per call (${scavenges} scavenges over ${result.requests} calls), ${result.cpuUsPerRequest.toFixed(1)} µs CPU per call\n`);
    } finally {
      await server.stop();
    }
  }
} finally {
  await upstream?.stop();
}
