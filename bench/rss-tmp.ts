import { load, MCP_HEADERS, openSession, rssMiB, startServer } from "./lib.js";
for (const [name, script, args, stateful] of [["hono", "bench/servers/hono.mjs", [], false], ["mcpmock", "bench/servers/mcpmock.mjs", ["stateful"], true], ["mcpmock j0", "bench/servers/mcpmock.mjs", ["stateful", "journal=0"], true]] as const) {
  const server = await startServer(name, process.execPath, [script, ...args]);
  const headers = stateful ? await openSession(server.url) : MCP_HEADERS;
  await load(server, headers, { connections: 32, amount: 100_000 });
  console.log(name, rssMiB(server.proc.pid as number).toFixed(1));
  await server.stop();
}
