/**
 * Hand-written hostile upstreams for proxy mode (issue 44): a node:http server speaking just
 * enough Streamable HTTP, whose `tools/call` misbehaves as the tool's name says, and which
 * counts what it was sent; and a stdio server script doing the same on its stdout.
 */
import http from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What each tool does: `ok` answers JSON, the others misbehave. */
export type HostileTool =
  | "ok"
  /** SSE: half an event, then the socket is destroyed. */
  | "cut-mid-event"
  /** HTTP 500 with a 1 MB HTML page. */
  | "html-500"
  /** SSE: a progress notification every 5 ms, forever (until the connection closes). */
  | "endless"
  /** SSE: a progress notification, then a 10 MB answer in one event. */
  | "big";

export interface HostileHttpUpstream {
  readonly url: string;
  /** `notifications/cancelled` received. */
  readonly cancels: number;
  /** Streams of `endless` calls still open. */
  readonly openEndless: number;
  /** Resolves when an `endless` stream has been closed by the other side. */
  endlessClosed(): Promise<void>;
  close(): Promise<void>;
}

export const BIG_TEXT_BYTES = 10 * 1024 * 1024;

export async function hostileHttpUpstream(): Promise<HostileHttpUpstream> {
  let cancels = 0;
  let openEndless = 0;
  let closedWaiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    if (req.method === "DELETE") return void res.writeHead(200).end();
    if (req.method !== "POST") return void res.writeHead(405).end();
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const m = JSON.parse(Buffer.concat(parts).toString("utf8")) as { id?: number; method?: string; params?: { name?: string; _meta?: { progressToken?: unknown } } };
      if (m.method === "notifications/cancelled") cancels++;
      if (m.id === undefined || m.method === undefined) return void res.writeHead(202).end();
      const json = (result: unknown): void => void res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "hostile-1" }).end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
      if (m.method === "initialize") return json({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "hostile", version: "1" } });
      if (m.method === "tools/list") return json({ tools: ["ok", "cut-mid-event", "html-500", "endless", "big"].map((name) => ({ name, inputSchema: { type: "object" } })) });
      if (m.method !== "tools/call") return json({});
      const token = m.params?._meta?.progressToken;
      const event = (message: unknown): boolean => res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
      const sse = (): void => void res.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "hostile-1" });
      switch (m.params?.name as HostileTool) {
        case "cut-mid-event":
          sse();
          res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${m.id},"result":{"content":[{"type":"te`);
          setTimeout(() => res.socket?.destroy(), 20);
          return;
        case "html-500":
          res.writeHead(500, { "content-type": "text/html" }).end(`<html><body><h1>Internal Server Error</h1>${"<p>stack frame</p>\n".repeat(55_000)}</body></html>`);
          return;
        case "endless": {
          sse();
          openEndless++;
          let n = 0;
          const timer = setInterval(() => event({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token ?? "none", progress: ++n } }), 5);
          res.on("close", () => {
            clearInterval(timer);
            openEndless--;
            const waiting = closedWaiters;
            closedWaiters = [];
            for (const w of waiting) w();
          });
          return;
        }
        case "big":
          sse();
          if (token !== undefined) event({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2 } });
          event({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "x".repeat(BIG_TEXT_BYTES) }] } });
          res.end();
          return;
        default:
          return json({ content: [{ type: "text", text: "from upstream" }] });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get cancels() {
      return cancels;
    },
    get openEndless() {
      return openEndless;
    },
    endlessClosed: () => new Promise((r) => closedWaiters.push(r)),
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/**
 * A stdio MCP server script (written to a temporary file) whose behaviour its first argument
 * names: `noise` prints a non-JSON line before each answer; `flood` answers `tools/call` of
 * `flood` with 30 MB and no newline; `bigline` answers it after a 30 MB line that is not JSON;
 * `exit-after-init` exits right after answering `initialize`.
 */
export function hostileStdioScript(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcpmock-hostile-"));
  const path = join(dir, "hostile-stdio.mjs");
  writeFileSync(
    path,
    `
const mode = process.argv[2];
let buffer = "";
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let i;
  while ((i = buffer.indexOf("\\n")) >= 0) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    if (!line.trim()) continue;
    const m = JSON.parse(line);
    if (m.id === undefined || m.method === undefined) continue;
    if (mode === "noise") process.stdout.write("this is not JSON, a stray print\\n");
    if (m.method === "initialize") {
      send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "hostile-stdio", version: "1" } } });
      if (mode === "exit-after-init") process.exit(0);
    } else if (m.method === "tools/list") {
      send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "ok", inputSchema: { type: "object" } }, { name: "flood", inputSchema: { type: "object" } }] } });
    } else if (m.method === "tools/call" && m.params.name === "flood" && mode === "bigline") {
      process.stdout.write("x".repeat(30 * 1024 * 1024) + "\\n");
      send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "after the big line" }] } });
    } else if (m.method === "tools/call" && m.params.name === "flood") {
      const chunk = "x".repeat(1024 * 1024);
      let left = 30;
      const more = () => { while (left > 0) { left--; if (!process.stdout.write(chunk)) return void process.stdout.once("drain", more); } };
      more();
    } else if (m.method === "tools/call" && m.params.name === "deafen") {
      // Answers, then reads its stdin no more (what is written to it waits in the writer's memory).
      send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "deaf from now on" }] } });
      process.stdin.pause();
      setInterval(() => {}, 60_000); // alive, with stdin no longer keeping it so
    } else if (m.method === "tools/call") {
      send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "ok from " + process.pid }] } });
    } else send({ jsonrpc: "2.0", id: m.id, result: {} });
  }
});
`,
  );
  return path;
}
