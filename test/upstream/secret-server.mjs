// A real MCP server (the official SDK's McpServer) that shows its credentials back, for the
// credential tests. `node secret-server.mjs stdio` serves on stdin/stdout: `get-env` answers
// its whole environment, `flag` answers { flag: true } as structured content, `die` writes the
// value of API_KEY on stderr (after DIE_CONTEXT, when set) and exits (its last words). `serveHttp()` listens on 127.0.0.1:
// `whoami` echoes the headers it received; `deny` answers a JSON-RPC error that quotes the
// Authorization header; and it answers 401 to a request without `required` or `?api_key=`
// `apiKey` (when given).
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

function build() {
  const server = new McpServer({ name: "secret-server", version: "1.0.0" });
  server.registerTool("get-env", { description: "Answers its environment" }, async () => ({ content: [{ type: "text", text: JSON.stringify(process.env) }] }));
  server.registerTool("flag", { description: "Answers a boolean", outputSchema: { flag: z.boolean(), debug: z.string().optional() } },
    async () => ({ content: [{ type: "text", text: '{"flag":true}' }], structuredContent: { flag: true, ...(process.env.DEBUG_FLAG ? { debug: process.env.DEBUG_FLAG } : {}) } }));
  server.registerTool("die", { description: "Dies with its key on stderr" }, async () => {
    process.stderr.write(`panic: ${process.env.DIE_CONTEXT ?? ""}the secret is ${process.env.API_KEY}\n`, () => process.exit(1));
    return new Promise(() => {});
  });
  server.registerTool("whoami", { description: "Echoes the request's headers" }, async (extra) => {
    const h = extra.requestInfo?.headers ?? {};
    return { content: [{ type: "text", text: `authorization=${h.authorization ?? "-"} x-api-key=${h["x-api-key"] ?? "-"} x-tenant=${h["x-tenant"] ?? "-"}` }] };
  });
  server.registerTool("deny", { description: "Refuses, quoting the Authorization header" }, async (extra) => {
    throw new McpError(-32001 - 99, `refused: ${extra.requestInfo?.headers?.authorization ?? "no authorization"}`);
  });
  return server;
}

/** Serves over Streamable HTTP on a free port; `required`: the Authorization value without which it answers 401; `apiKey`: the `?api_key=` without which it does. */
export async function serveHttp(options = {}) {
  const transports = new Map();
  const seen = [];
  const http = createServer(async (req, res) => {
    seen.push({ ...req.headers });
    const refused = options.apiKey !== undefined && new URL(req.url, "http://x").searchParams.get("api_key") !== options.apiKey;
    if (refused || (options.required !== undefined && req.headers.authorization !== options.required)) {
      res.writeHead(401, { "www-authenticate": 'Bearer realm="secret-server"' }).end("unauthorized");
      return;
    }
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? transports.get(id) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => transports.set(sid, transport) });
      await build().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    headers: seen,
    close: async () => {
      for (const t of transports.values()) await t.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

if (process.argv[2] === "stdio") await build().connect(new StdioServerTransport());
