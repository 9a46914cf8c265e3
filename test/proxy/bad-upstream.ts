/** Upstreams that misbehave, for proxy mode's "trouble is an answer" tests: a tiny HTTP MCP server whose tools/call does something wrong. */
import { createServer, type Server } from "node:http";

export type Misbehaviour = "reset" | "non-json" | "status-500" | "silent" | "reset-mid-stream" | "big-once" | "answers-twice";

/** For "big-once": the tool "big" answers this many characters of text; every other tool a short text. */
export const BIG_ANSWER_CHARS = 30_000_000;

/** An HTTP server that initializes like an MCP server and then answers tools/call the way it is told. */
export async function badUpstream(behaviour: Misbehaviour): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      if (req.method !== "POST") return void res.writeHead(405).end();
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.id === undefined) return void res.writeHead(202).end();
      if (message.method === "initialize") {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" });
        return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "bad", version: "1" } } }));
      }
      if (message.method !== "tools/call") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { tools: [] } }));
      const name = (message as { params?: { name?: string } }).params?.name;
      switch (behaviour) {
        case "big-once":
          res.writeHead(200, { "content-type": "application/json" });
          return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: name === "big" ? "x".repeat(BIG_ANSWER_CHARS) : `small ${name}` }] } }));
        case "reset":
          return void req.socket.destroy();
        case "reset-mid-stream":
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write(`event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"half"}}\n\n`);
          return void setTimeout(() => req.socket.destroy(), 20);
        case "non-json":
          return void res.writeHead(200, { "content-type": "application/json" }).end("<html>not json</html>");
        case "status-500":
          return void res.writeHead(500, { "content-type": "text/plain" }).end("boom");
        case "silent":
          return; // never answers
        case "answers-twice": {
          // The answer, then the same response again that nobody asked for, in one write (raw
          // bytes on the socket: node:http would not send two responses to one request).
          const text = JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: `twice ${name}` }] } });
          const response = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
          return void req.socket.write(response + response);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
