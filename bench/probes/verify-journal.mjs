// verify() over a full journal: fill it with real calls, then time verify: the first (which makes
// the packed entries objects again) and the median of 20 after it, as JSON.
import { McpMock, toolsCall } from "../../dist/index.js";
const n = Number(process.argv[2] ?? 10000);
const mock = await McpMock.start({ tools: [{ name: "add" }], sessions: "stateless", journalSize: n, onUnmatched: "silent" });
mock.toolsCall("add").respondsWith({ sum: 3 });
const headers = { accept: "application/json, text/event-stream", "content-type": "application/json" };
let sent = 0;
async function worker() {
  while (sent < n) {
    const i = sent++;
    const r = await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "add", arguments: { a: i % 100, b: 2 } } }) });
    await r.text();
  }
}
await Promise.all(Array.from({ length: 32 }, worker));
const times = [];
for (let k = 0; k <= 20; k++) {
  const t = performance.now();
  mock.verify(toolsCall("add").withArgs({ a: 7, b: 2 }), n / 100);
  times.push(performance.now() - t);
}
const first = times.shift();
times.sort((a, b) => a - b);
await mock.close();
process.stdout.write(`${JSON.stringify({ first, median: times[10] })}\n`);
