/**
 * Issue 44: an upstream that cuts its SSE stream in the middle of an event, before answering,
 * leaves the recorder's client with a JSON-RPC error naming the cut at once (not a broken
 * stream, nor a timeout after --timeout), and stderr one line; a stream that answers and ends
 * gets nothing added.
 */
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { mcpmock, stop } from "../support/recording.js";
import { HEADERS } from "../support/raw-http.js";

const dir = mkdtempSync(join(tmpdir(), "mcpmock-cut-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An upstream whose "cut" call streams one event and half of another, then drops the socket; "whole" answers on its stream. */
async function cuttingUpstream(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      if (req.method !== "POST") return void res.writeHead(405).end();
      const message = JSON.parse(text) as { id?: number; method: string; params?: { name?: string } };
      if (message.id === undefined) return void res.writeHead(202).end();
      if (message.method === "initialize") {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" });
        return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "cuts", version: "1" } } }));
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } })}\n\n`);
      if (message.params?.name === "whole") return void res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { content: [] } })}\n\n`);
      res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${message.id},"result":{"cont`, () => res.socket?.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/mcp`, server };
}

function dataEvents(text: string): Array<Record<string, unknown>> {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .flatMap((line) => {
      try {
        return [JSON.parse(line.slice(6)) as Record<string, unknown>];
      } catch {
        return []; // the half-written event the cut left
      }
    });
}

it("a stream cut mid-event ends at once with a JSON-RPC error that names the cut; a whole one is left as it is", async () => {
  const { url: target, server } = await cuttingUpstream();
  const recorder = mcpmock(["record", "--out", join(dir, "recorded.json"), "--target", target, "--timeout", "20000"]);
  try {
    const [, url] = (await recorder.line(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp) /)) as RegExpExecArray;
    const init = await fetch(url!, { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }) });
    await init.text();
    const headers = { ...HEADERS, "mcp-session-id": "s1", "mcp-protocol-version": "2025-11-25" };
    const call = (id: number, name: string) => fetch(url!, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {}, _meta: { progressToken: 1 } } }) });

    const whole = dataEvents(await (await call(6, "whole")).text());
    expect(whole).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } },
      { jsonrpc: "2.0", id: 6, result: { content: [] } },
    ]);

    const started = Date.now();
    const events = dataEvents(await (await call(7, "cut")).text());
    expect(Date.now() - started).toBeLessThan(10_000); // not the 20 s --timeout
    expect(events[0]?.["method"]).toBe("notifications/progress");
    const message = `mcpmock record: the target ${target} cut its stream for tools/call before answering`;
    expect(events.at(-1)).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32603, message, data: { target } } });
    await expect.poll(() => recorder.stderr()).toContain(`${message}; the client got a JSON-RPC error.`);
  } finally {
    await stop(recorder);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}, 40_000);
