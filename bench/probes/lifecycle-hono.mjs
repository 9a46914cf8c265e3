const t = performance.now();
const { Hono } = await import("hono");
const { serve } = await import("@hono/node-server");
const app = new Hono();
app.post("/mcp", async (c) => c.json({ jsonrpc: "2.0", id: (await c.req.json()).id, result: {} }));
const server = await new Promise((resolve) => {
  const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", overrideGlobalObjects: false }, () => resolve(s));
});
const r = await fetch(`http://127.0.0.1:${server.address().port}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":0,"method":"initialize"}' });
await r.text();
await new Promise((r) => server.close(r));
process.stdout.write(`${performance.now() - t}\n`);
