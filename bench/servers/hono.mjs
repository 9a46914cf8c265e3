// A bare Hono app on @hono/node-server doing the same JSON-RPC echo; with ?stream=N an SSE loop.
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { onStop, ready, RESULT } from "./common.mjs";

const app = new Hono();
app.post("/mcp", async (c) => {
  const message = await c.req.json();
  return c.json({ jsonrpc: "2.0", id: message.id, result: RESULT });
});
app.post("/stream", async (c) => {
  const message = await c.req.json();
  const n = Number(c.req.query("n") ?? 10000);
  return streamSSE(c, async (stream) => {
    for (let i = 0; i < n; i++) {
      await stream.writeSSE({ event: "message", id: String(i), data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: i } }) });
    }
    await stream.writeSSE({ event: "message", data: JSON.stringify({ jsonrpc: "2.0", id: message.id, result: RESULT }) });
  });
});
// Default options, as the Hono docs show them.
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) =>
  ready(`http://127.0.0.1:${info.port}/mcp`),
);
onStop(() => new Promise((r) => server.close(r)));
