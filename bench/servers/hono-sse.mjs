// A bare Hono app answering the JSON-RPC call as one SSE event through hono/streaming's
// streamSSE, the fair pair of an mcpmock SSE answer (responseMode "sse").
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { onStop, ready, RESULT } from "./common.mjs";

const app = new Hono();
app.post("/mcp", async (c) => {
  const message = await c.req.json();
  return streamSSE(c, async (stream) => {
    await stream.writeSSE({ event: "message", data: JSON.stringify({ jsonrpc: "2.0", id: message.id, result: RESULT }) });
  });
});
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => ready(`http://127.0.0.1:${info.port}/mcp`));
onStop(() => new Promise((r) => server.close(r)));
