// The fastest MCP server node:http allows: stateless, JSON answers, initialize and tools/list
// answered as the specification asks, tools/call with the bench's result. The upstream that puts
// proxy mode's own cost in plain view (the SDK's McpServer costs more than the mock's relay).
import { createServer } from "node:http";
import { onStop, ready, RESULT } from "./common.mjs";

const INITIALIZE = { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "fast-upstream", version: "1.0.0" } };
const TOOLS = { tools: [{ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } }] };

function answer(message) {
  if (message.id === undefined) return undefined; // a notification
  const result = message.method === "initialize" ? { ...INITIALIZE, protocolVersion: message.params?.protocolVersion ?? INITIALIZE.protocolVersion } : message.method === "tools/list" ? TOOLS : message.method === "tools/call" ? RESULT : message.method === "ping" ? {} : undefined;
  return result === undefined ? { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } } : { jsonrpc: "2.0", id: message.id, result };
}

const server = createServer((req, res) => {
  if (req.method !== "POST") {
    req.resume();
    res.writeHead(405).end();
    return;
  }
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const reply = answer(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    if (reply === undefined) res.writeHead(202).end();
    else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
  });
});
server.listen(0, "127.0.0.1", () => ready(`http://127.0.0.1:${server.address().port}/mcp`));
onStop(() => new Promise((r) => server.close(r)));
