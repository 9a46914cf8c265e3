// Bytes per journal entry: a full journal of tools/call entries over HTTP, measured by clearing
// it (run with --expose-gc). Prints the heap's share and that outside the heap (answered entries
// are packed into buffers: process.memoryUsage().arrayBuffers), as JSON. argv: entries.
import http from "node:http";
import { ANY, McpMock } from "../../dist/index.js";

const n = Number(process.argv[2] ?? 10000);
const mock = await McpMock.start({ tools: [{ name: "add" }], journalSize: n, onUnmatched: "silent" });
mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 3 });
const url = new URL(mock.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const headers = { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2025-11-25" };
const post = (extra, body) =>
  new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", agent, headers: { ...headers, ...extra } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.headers));
    });
    req.on("error", reject);
    req.end(body);
  });
const init = await post({}, JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } } }));
const session = { "mcp-session-id": init["mcp-session-id"] };
// Outside the heap, from before the calls: no buffer is freed while the journal fills (freed
// ones go back to the system on a thread of their own, some time after a collection).
globalThis.gc();
const before = process.memoryUsage().arrayBuffers;
for (let i = 1; i <= n; i += 8) {
  await Promise.all(Array.from({ length: 8 }, (_, k) => post(session, JSON.stringify({ jsonrpc: "2.0", id: i + k, method: "tools/call", params: { name: "add", arguments: { a: i + k, b: 2 } } }))));
}
globalThis.gc();
const full = process.memoryUsage();
mock.resetJournal();
globalThis.gc();
const empty = process.memoryUsage();
agent.destroy();
await mock.close();
process.stdout.write(`${JSON.stringify({ heap: (full.heapUsed - empty.heapUsed) / n, outside: (full.arrayBuffers - before) / n })}\n`);
