import { MockCore } from "../src/engine/core.js";
import { HttpTransport } from "../src/transports/http/streamable.js";
import { ANY } from "../src/index.js";
import { toolsCallOn } from "../src/dsl/bound-entry-points.js";
const fn = process.argv[2] === "fn";
const core = new MockCore({ tools: [{ name: "add" }], sessions: "stateless", onUnmatched: "silent", journalSize: 1000 } as never);
const t = new HttpTransport(core);
if (fn) toolsCallOn(core, "add").withArgs(ANY).respondsWith((call) => ({ sum: (call.args["a"] as number) + (call.args["b"] as number) }));
else toolsCallOn(core, "add").withArgs(ANY).respondsWith({ sum: 3 });
const h = { accept: "application/json, text/event-stream", "content-type": "application/json", host: "127.0.0.1" };
const start = process.cpuUsage();
for (let i = 0; i < 60000; i++) {
  const res = await t.app.fetch(new Request("http://127.0.0.1/mcp", { method: "POST", headers: h, body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } }) }));
  await res.text();
}
const u = process.cpuUsage(start); console.error(fn ? "fn" : "const", ((u.user + u.system) / 60000).toFixed(1), "µs");
