// The official SDK McpServer, written the way its docs show, JSON responses. argv: stateless|stateful,
// then "fix-2559" for a stateful server with the fix of typescript-sdk#2559 (open in 1.32.2): in
// JSON response mode a session's transport keeps one entry of its stream map per POST for the
// session's life, so the server's heap and its cost per call grow as it runs (measured in
// docs/performance.md, proxy mode). The fix is the one proposed upstream (typescript-sdk#2747):
// the entry goes once its JSON answer is handed over.
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { onStop, ready } from "./common.mjs";

const mode = process.argv[2] ?? "stateless";
const fix2559 = process.argv[3] === "fix-2559";
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
    if (fix2559) releaseAnswered(transport);
  }
  if (!transport) {
    res.writeHead(400).end();
    return;
  }
  await transport.handleRequest(req, res, body);
});
/**
 * typescript-sdk#2747's fix, from outside: a JSON answer's stream entry is deleted as it is
 * resolved. An SDK whose transport no longer has that map stops the server with what to do, so
 * that no row is labelled fixed without the fix.
 */
function releaseAnswered(transport) {
  const streams = transport._webStandardTransport?._streamMapping;
  if (!(streams instanceof Map)) {
    process.stderr.write("sdk.mjs fix-2559: this SDK's transport has no _webStandardTransport._streamMapping to fix; if its release fixed typescript-sdk#2559, drop \"fix-2559\" (and the row label's \"#2559 fixed\") in bench/run.ts, else follow the map's new name here\n");
    process.exit(1);
  }
  const set = streams.set.bind(streams);
  streams.set = (id, stream) => {
    const { resolveJson } = stream;
    if (resolveJson) stream.resolveJson = (response) => (streams.delete(id), resolveJson(response));
    return set(id, stream);
  };
}
http.listen(0, "127.0.0.1", () => ready(`http://127.0.0.1:${http.address().port}/mcp`));
onStop(() => new Promise((r) => http.close(r)));
