// The bare relay of undici-relay.mjs on the mock's own HTTP stack: a Hono app on
// @hono/node-server (default options, as the Hono docs show them) taking the JSON-RPC request,
// undici's Pool sending it on to the upstream (a fresh id) and the upstream's result passed back
// with the client's id. The fair pair for proxy mode, as bare Hono is for the answer kinds.
// argv: the upstream's URL.
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { Pool } from "undici";
import { onStop, poolSender, ready, upstreamHeaders } from "./common.mjs";

const upstream = new URL(process.argv[2]);
const pool = new Pool(upstream.origin);
const headers = await upstreamHeaders(poolSender(pool, upstream.pathname));
let ids = 0;

const app = new Hono();
app.post("/mcp", async (c) => {
  const message = await c.req.json();
  const { body } = await pool.request({ path: upstream.pathname, method: "POST", headers, body: JSON.stringify({ ...message, id: ++ids }) });
  const answer = JSON.parse(await body.text());
  return c.json({ jsonrpc: "2.0", id: message.id, result: answer.result });
});
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => ready(`http://127.0.0.1:${info.port}/mcp`));
onStop(async () => {
  await pool.close();
  await new Promise((r) => server.close(r));
});
