import { MockCore } from "../src/engine/core.js";
import { HttpTransport } from "../src/transports/http/streamable.js";
import { ANY } from "../src/index.js";
import { toolsCallOn } from "../src/dsl/bound-entry-points.js";
function make(fn: boolean): HttpTransport {
  const core = new MockCore({ tools: [{ name: "add" }], sessions: "stateless", onUnmatched: "silent", journalSize: 1000 } as never);
  const t = new HttpTransport(core);
  if (fn) toolsCallOn(core, "add").withArgs(ANY).respondsWith((call) => ({ sum: (call.args["a"] as number) + (call.args["b"] as number) }));
  else toolsCallOn(core, "add").withArgs(ANY).respondsWith({ sum: 3 });
  return t;
}
const h = { accept: "application/json, text/event-stream", "content-type": "application/json", host: "127.0.0.1" };
async function run(t: HttpTransport, n: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const res = await t.app.fetch(new Request("http://127.0.0.1/mcp", { method: "POST", headers: h, body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } }) }));
    await res.text();
  }
  const u = process.cpuUsage(start);
  return (u.user + u.system) / n;
}
const f = make(true), c = make(false);
await run(f, 5000); await run(c, 5000);
const ratios: number[] = [];
for (let r = 0; r < 7; r++) { const a = await run(f, 15000); const b = await run(c, 15000); ratios.push(a / b); console.log(`fn ${a.toFixed(1)} const ${b.toFixed(1)} ratio ${(a / b).toFixed(3)}`); }
ratios.sort(); console.log("median", ratios[3]?.toFixed(3));
