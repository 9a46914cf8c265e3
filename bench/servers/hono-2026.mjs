// A bare Hono app answering a 2026-07-28 tools/call with the checks that revision asks of every
// server (the baseline of the bench's 2026 rows): the MCP-Protocol-Version header supported,
// Mcp-Method and Mcp-Name equal to the body's method and name, the per-request envelope in
// params._meta (its version equal to the header's, its client capabilities an object), and a
// result with resultType. Its rejections are what the revision says (400 with -32020/-32022/-32602).
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { onStop, ready, RESULT } from "./common.mjs";

const SUPPORTED = ["2026-07-28"];
const VERSION = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const app = new Hono();
const error = (c, id, code, message) => c.json({ jsonrpc: "2.0", id, error: { code, message } }, 400);
app.post("/mcp", async (c) => {
  const version = c.req.header("mcp-protocol-version");
  const message = await c.req.json();
  const id = message.id;
  if (!SUPPORTED.includes(version)) return error(c, id, -32022, "Unsupported protocol version");
  const params = message.params;
  const meta = params?._meta;
  if (typeof meta !== "object" || meta === null || typeof meta[CAPABILITIES] !== "object" || meta[CAPABILITIES] === null) return error(c, id, -32602, "Invalid params: _meta");
  if (meta[VERSION] !== version) return error(c, id, -32020, "Header mismatch: MCP-Protocol-Version");
  if (c.req.header("mcp-method") !== message.method) return error(c, id, -32020, "Header mismatch: Mcp-Method");
  if ((c.req.header("mcp-name") ?? "").trim() !== params.name) return error(c, id, -32020, "Header mismatch: Mcp-Name");
  return c.json({ jsonrpc: "2.0", id, result: { ...RESULT, resultType: "complete" } });
});
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => ready(`http://127.0.0.1:${info.port}/mcp`));
onStop(() => new Promise((r) => server.close(r)));
