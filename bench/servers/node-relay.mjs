// A relay on node:http alone: bare node:http taking the JSON-RPC request, sending it on to the
// upstream (a keep-alive agent, a fresh id) and passing its answer back with the client's id.
// argv: the upstream's URL.
import { Agent, createServer, request } from "node:http";
import { onStop, ready, upstreamHeaders } from "./common.mjs";

const upstream = new URL(process.argv[2]);
const agent = new Agent({ keepAlive: true });
const target = { host: upstream.hostname, port: upstream.port, path: upstream.pathname, method: "POST", agent };
let ids = 0;

/** Posts `body` to the upstream; resolves to the answer's headers and body text. */
function post(headers, body) {
  return new Promise((resolve, reject) => {
    const req = request({ ...target, headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
const headers = await upstreamHeaders(async (h, body) => (await post(h, body)).headers);

async function relay(message) {
  return JSON.parse((await post(headers, JSON.stringify({ ...message, id: ++ids }))).text);
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
onStop(() => new Promise((r) => { agent.destroy(); server.close(r); }));
