/**
 * Issue 44's rows of `npm run stress` (proxy mode under load), printed, never asserted:
 *
 *  11. a soak of proxied calls to a plain node:http upstream (10,000; quick: 3,000) at 16
 *      connections: heap per call after a full GC, warnings on the process, the
 *      `notifications/cancelled` the upstream got, how long `close()` took
 * @module
 */
import http from "node:http";
import { McpMock } from "../src/index.js";

const ACCEPT = "application/json, text/event-stream";
const heap = (): number => {
  for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
};

/** A minimal Streamable HTTP upstream answering JSON, counting the cancellations it gets. */
async function plainUpstream(): Promise<{ url: string; cancels: () => number; close: () => Promise<void> }> {
  let cancels = 0;
  const server = http.createServer((req, res) => {
    if (req.method !== "POST") return void res.writeHead(req.method === "DELETE" ? 200 : 405).end();
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const m = JSON.parse(body) as { id?: number; method?: string; params?: Record<string, unknown> };
      if (m.method === "notifications/cancelled") cancels++;
      if (m.id === undefined || m.method === undefined) return void res.writeHead(202).end();
      const result =
        m.method === "initialize"
          ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "plain", version: "1" } }
          : m.method === "tools/list"
            ? { tools: [{ name: "up", inputSchema: { type: "object" } }] }
            : { content: [{ type: "text", text: "from upstream" }] };
      res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" }).end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/mcp`, cancels: () => cancels, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

export async function proxySoak(quick: boolean): Promise<void> {
  const total = quick ? 3000 : 10_000;
  const upstream = await plainUpstream();
  let warnings = 0;
  const onWarning = (): void => void warnings++;
  process.on("warning", onWarning);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const mock = await McpMock.start({ proxy: { target: upstream.url }, onUnmatched: "silent" });
  const send = (body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders }> =>
    new Promise((resolve, reject) => {
      const req = http.request(mock.url, { method: "POST", agent, headers: { accept: ACCEPT, "content-type": "application/json", ...headers } }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      });
      req.on("error", reject);
      req.end(JSON.stringify(body));
    });
  const init = await send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "soak", version: "1" } } });
  const headers = { "mcp-session-id": String(init.headers["mcp-session-id"]), "mcp-protocol-version": "2025-11-25" };
  await send({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  let next = 0;
  let errors = 0;
  const run = async (count: number): Promise<void> => {
    const stop = next + count;
    const worker = async (): Promise<void> => {
      while (next < stop) {
        const id = ++next;
        const res = await send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "up", arguments: { n: id } } }, headers);
        if (res.status !== 200) errors++;
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  };
  await run(500); // warm
  const before = heap();
  const started = performance.now();
  await run(total);
  const ms = performance.now() - started;
  const after = heap();
  const closing = performance.now();
  await mock.close();
  const closeMs = performance.now() - closing;
  await new Promise((r) => setTimeout(r, 100));
  process.off("warning", onWarning);
  agent.destroy();
  console.log(
    `[11] proxy soak, ${total} proxied calls at 16 connections: ${((after - before) / total).toFixed(0)} bytes of heap per call after GC, ` +
      `${warnings} process warnings, ${upstream.cancels()} notifications/cancelled sent upstream, close() in ${closeMs.toFixed(0)} ms; ` +
      `${(total / (ms / 1000)).toFixed(0)} calls/s, ${errors} errors`,
  );
  await upstream.close();
}

/**
 * 12. An HTTP recorder soak: `startRecorder` in front of a fast upstream, `total` calls at 16
 * connections, half repeating one call (a client polling) and half each with arguments of its
 * own; heap per call after a full GC, the file's size, how long `stop()` (the last write) took.
 */
export async function recorderSoak(quick: boolean): Promise<void> {
  const { startRecorder } = await import("../src/recording/index.js");
  const { mkdtempSync, rmSync, statSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const total = quick ? 4000 : 20_000;
  const upstream = await plainUpstream();
  const dir = mkdtempSync(join(tmpdir(), "mcpmock-recorder-soak-"));
  const out = join(dir, "recorded.json");
  const recorder = await startRecorder({ target: upstream.url, out });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const url = recorder.url as string;
  const send = (body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders }> =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method: "POST", agent, headers: { accept: ACCEPT, "content-type": "application/json", ...headers } }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      });
      req.on("error", reject);
      req.end(JSON.stringify(body));
    });
  const init = await send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "soak", version: "1" } } });
  const headers = { "mcp-session-id": String(init.headers["mcp-session-id"]), "mcp-protocol-version": "2025-11-25" };
  await send({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  let next = 0;
  let errors = 0;
  const run = async (count: number, distinct: boolean): Promise<void> => {
    const stop = next + count;
    const worker = async (): Promise<void> => {
      while (next < stop) {
        const id = ++next;
        const res = await send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "up", arguments: distinct ? { n: id } : { n: 0 } } }, headers);
        if (res.status !== 200) errors++;
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  };
  await run(2000, true); // warm: V8's optimized code is in place before the first reading
  // After a collection, with time for finalizers (fetch's per-call WeakRefs) to run, and again.
  const settled = async (): Promise<number> => {
    heap();
    await new Promise((r) => setTimeout(r, 50));
    return heap();
  };
  const figures: string[] = [];
  for (const distinct of [false, true]) {
    const before = await settled();
    const started = performance.now();
    await run(total / 2, distinct);
    const ms = performance.now() - started;
    const after = await settled();
    figures.push(`${distinct ? "distinct arguments" : "one call repeated"}: ${((after - before) / (total / 2)).toFixed(0)} bytes of heap per call after GC, ${(total / 2 / (ms / 1000)).toFixed(0)} calls/s`);
  }
  const stopping = performance.now();
  const { exchanges } = await recorder.stop();
  const stopMs = performance.now() - stopping;
  const bytes = statSync(out).size;
  agent.destroy();
  console.log(`[12] recorder soak, ${total} calls through startRecorder() at 16 connections: ${figures.join("; ")}; ${exchanges} exchanges, file ${(bytes / 1024).toFixed(0)} KiB, stop() in ${stopMs.toFixed(0)} ms; ${errors} errors`);
  rmSync(dir, { recursive: true, force: true });
  await upstream.close();
}
