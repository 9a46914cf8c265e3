// The practical limit: bare node:http parsing the JSON-RPC request and answering it.
import { createServer } from "node:http";
import { onStop, ready, RESULT } from "./common.mjs";

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const body = JSON.stringify({ jsonrpc: "2.0", id: message.id, result: RESULT });
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  });
});
server.listen(0, "127.0.0.1", () => ready(`http://127.0.0.1:${server.address().port}/mcp`));
onStop(() => new Promise((r) => server.close(r)));
