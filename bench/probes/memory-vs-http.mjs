// In-process cost of one tools/call through the SDK v1 Client: in memory
// (mock.clientTransport()) against Streamable HTTP to the same mock, rounds alternating.
// Client and mock share the process, so the figures are the whole round trip (client, transport
// and mock): wall time and CPU time (user+sys) per sequential call. argv: calls per round, rounds.
// Prints JSON: { memoryUs: [...], httpUs: [...], memoryCpuUs: [...], httpCpuUs: [...] }.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ANY, McpMock } from "../../dist/index.js";

const calls = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 5);
const mock = await McpMock.start({ tools: [{ name: "add" }], onUnmatched: "silent" });
mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 3 });
const connect = async (transport) => {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport);
  return client;
};
const clients = { memory: await connect(mock.clientTransport()), http: await connect(new StreamableHTTPClientTransport(new URL(mock.url))) };
const run = async (client, n) => {
  for (let i = 0; i < n; i++) await client.callTool({ name: "add", arguments: { a: i, b: 2 } });
};
const out = { memoryUs: [], httpUs: [], memoryCpuUs: [], httpCpuUs: [] };
for (const client of Object.values(clients)) await run(client, Math.min(calls, 500)); // warm-up (JIT)
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 ? ["http", "memory"] : ["memory", "http"]) {
    mock.resetJournal();
    const cpu = process.cpuUsage();
    const t = performance.now();
    await run(clients[name], calls);
    const wall = performance.now() - t;
    const used = process.cpuUsage(cpu);
    out[`${name}Us`].push((wall * 1000) / calls);
    out[`${name}CpuUs`].push((used.user + used.system) / calls);
  }
}
for (const client of Object.values(clients)) await client.close();
await mock.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
