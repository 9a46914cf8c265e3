/**
 * The recorder's `--timeout` covers a stream that stalls: an upstream that starts an SSE answer,
 * sends one event and then nothing leaves the client with a JSON-RPC error it can read within
 * the timeout (on the same stream, after the event that came), stderr one line, and the
 * recording keeps the exchange open (the recorder's answer is not the server's).
 */
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { mcpmock, stop } from "../support/recording.js";
import { HEADERS } from "../support/raw-http.js";

const dir = mkdtempSync(join(tmpdir(), "mcpmock-stall-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An upstream whose tools/call stream sends one progress event, then stalls (it is never ended). */
async function stallingUpstream(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      if (req.method !== "POST") return void res.writeHead(405).end();
      const message = JSON.parse(text) as { id?: number; method: string };
      if (message.id === undefined) return void res.writeHead(202).end();
      if (message.method === "initialize") {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" });
        return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "stalls", version: "1" } } }));
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } })}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/mcp`, server };
}

it("a stream that stalls after one event ends within --timeout with a JSON-RPC error the client can read", async () => {
  const { url: target, server } = await stallingUpstream();
  const recorder = mcpmock(["record", "--out", join(dir, "recorded.json"), "--target", target, "--timeout", "400"]);
  try {
    const [, url] = (await recorder.line(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp) /)) as RegExpExecArray;
    const init = await fetch(url!, { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }) });
    await init.text();
    const headers = { ...HEADERS, "mcp-session-id": "s1", "mcp-protocol-version": "2025-11-25" };
    const started = Date.now();
    const res = await fetch(url!, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow", arguments: {}, _meta: { progressToken: 1 } } }) });
    const text = await res.text();
    expect(Date.now() - started).toBeLessThan(5_000);
    const events = text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    expect(events[0]?.["method"]).toBe("notifications/progress");
    const message = `mcpmock record: the target ${target} stalled its stream for tools/call: no byte within 400 ms (--timeout)`;
    expect(events[1]).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32603, message, data: { target } } });
    await expect.poll(() => recorder.stderr()).toContain(`${message}; the client got a JSON-RPC error.`);
  } finally {
    await stop(recorder);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}, 30_000);
