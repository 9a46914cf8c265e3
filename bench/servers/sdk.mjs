// The official SDK McpServer, written the way its docs show, JSON responses. argv: stateless|stateful
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { onStop, ready } from "./common.mjs";

const mode = process.argv[2] ?? "stateless";
function makeServer() {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, async () => ({ content: [{ type: "text", text: '{"sum":3}' }] }));
  return server;
}
const transports = new Map();
const http = createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
  if (mode === "stateless") {
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    return;
  }
  const sessionId = req.headers["mcp-session-id"];
  let transport = sessionId ? transports.get(sessionId) : undefined;
  if (!transport && body && isInitializeRequest(body)) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    await makeServer().connect(transport);
  }
  if (!transport) {
    res.writeHead(400).end();
    return;
  }
  await transport.handleRequest(req, res, body);
});
http.listen(0, "127.0.0.1", () => ready(`http://127.0.0.1:${http.address().port}/mcp`));
onStop(() => new Promise((r) => http.close(r)));
