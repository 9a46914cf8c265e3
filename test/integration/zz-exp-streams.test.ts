import { test } from "vitest";
import { McpMock } from "../../src/index.js";
const H = { accept: "application/json, text/event-stream", "content-type": "application/json" };
test("x", async () => {
  await using mock = await McpMock.start({ tools: [{ name: "x", inputSchema: { type: "object" } }], keepAliveMs: 0 });
  mock.toolsCall("x").streams(s => s.progress(1, 3, "a").log("info", "working").progress(2, 3).result({ ok: 1 }));
  const init = await fetch(mock.url, { method: "POST", headers: H, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "a", version: "1" } } }) });
  const sid = init.headers.get("mcp-session-id")!;
  console.log(sid, await init.text());
  const r = await fetch(mock.url, { method: "POST", headers: { ...H, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: {}, _meta: { progressToken: 7 } } }) });
  console.log(JSON.stringify(await r.text()));
});
