// start + first call (initialize) + close, from a cold process.
const t = performance.now();
const { McpMock } = await import("../../dist/index.js");
const mock = await McpMock.start({ tools: [{ name: "add" }] });
const r = await fetch(mock.url, {
  method: "POST",
  headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "b", version: "1" } } }),
});
await r.text();
await mock.close();
process.stdout.write(`${performance.now() - t}\n`);
