// The floor of a relay written on Node with the mock's own HTTP client: bare node:http taking the
// JSON-RPC request, undici's Pool sending it on to the upstream (a fresh id) and the upstream's
// result passed back with the client's id. argv: the upstream's URL. (node-relay.mjs is the same
// relay with node:http's client, for comparison.)
import { createServer } from "node:http";
import { Pool } from "undici";
import { onStop, poolSender, ready, upstreamHeaders } from "./common.mjs";

const upstream = new URL(process.argv[2]);
const pool = new Pool(upstream.origin);
const headers = await upstreamHeaders(poolSender(pool, upstream.pathname));
let ids = 0;

async function relay(message) {
  const { body } = await pool.request({ path: upstream.pathname, method: "POST", headers, body: JSON.stringify({ ...message, id: ++ids }) });
  return JSON.parse(await body.text());
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", async () => {
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const answer = await relay(message);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: answer.result }));
  });
});
server.listen(0, "127.0.0.1", () => ready(`http://127.0.0.1:${server.address().port}/mcp`));
onStop(async () => {
  await pool.close();
  await new Promise((r) => server.close(r));
});
