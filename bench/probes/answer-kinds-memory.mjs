// One tools/call answer kind over the in-memory transport (mock.clientTransport()), raw JSON-RPC
// messages, no client library: the engine's cost per call with the least around it.
// argv: kind (constant | function | placeholder | function-2026), calls per measurement.
// Warms up, prints READY, then for every line read from stdin makes one measurement and prints
// its CPU µs per call (user+sys of this process), so a parent can alternate several kinds.
import { createInterface } from "node:readline";
import { ANY, McpMock, STATELESS_PROTOCOL_VERSION } from "../../dist/index.js";

const [kind = "constant", callsArg = "20000"] = process.argv.slice(2);
const calls = Number(callsArg);
const tools = [{ name: "add" }];
const options = { tools, onUnmatched: "silent" };
const mock =
  kind === "placeholder"
    ? await McpMock.fromDefinition({ tools, responses: [{ tool: "add", result: { sum: "{{args.a}}{{args.b}}" } }] }, options)
    : await McpMock.start(options);
if (kind === "constant") mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 3 });
else if (kind === "function" || kind === "function-2026") mock.toolsCall("add").withArgs(ANY).respondsWith((call) => ({ sum: call.args.a + call.args.b }));
else if (kind !== "placeholder") throw new Error(`unknown kind ${kind}`);
const modern = kind === "function-2026";

const transport = mock.clientTransport();
const waiting = new Map();
transport.onmessage = (message) => {
  const resolve = waiting.get(message.id);
  waiting.delete(message.id);
  resolve?.(message);
};
await transport.start();
let id = 0;
const request = (method, params) =>
  new Promise((resolve) => {
    const n = ++id;
    waiting.set(n, resolve);
    void transport.send({ jsonrpc: "2.0", id: n, method, params });
  });
if (!modern) {
  await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
}
const meta = { "io.modelcontextprotocol/protocolVersion": STATELESS_PROTOCOL_VERSION, "io.modelcontextprotocol/clientCapabilities": {} };
const run = async (n) => {
  for (let i = 0; i < n; i++) {
    const answer = await request("tools/call", modern ? { name: "add", arguments: { a: 1, b: 2 }, _meta: meta } : { name: "add", arguments: { a: 1, b: 2 } });
    if (!answer.result) throw new Error(`no result: ${JSON.stringify(answer)}`);
  }
};
await run(Math.min(calls, 10_000)); // warm-up (JIT)
process.stdout.write("READY memory\n");
for await (const _ of createInterface({ input: process.stdin })) {
  const cpu = process.cpuUsage();
  await run(calls);
  const used = process.cpuUsage(cpu);
  process.stdout.write(`${(used.user + used.system) / calls}\n`);
}
await transport.close();
await mock.close();
