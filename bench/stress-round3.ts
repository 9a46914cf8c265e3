/**
 * Issue 33's rows of `npm run stress` (the surfaces of round 3), printed, never asserted:
 *
 *   6. a task flood: 2025-11-25 sessions and 2026-07-28 requests creating tasks, strangers
 *      polling them (10,000 tasks; quick: 1,000): kept tasks, refusals by the share, "not found"
 *   7. OAuth bad input: /register, /token and the MCP endpoint with hostile values (10,000
 *      requests; quick: 1,000): 5xx, statuses
 *   8. live-feed readers that stop reading (25; quick: 8): sockets left, RSS growth
 *   9. the admin API flooded with 32 MiB bodies (20; quick: 4): statuses, RSS growth
 *  10. 10,000 argument-pattern stubs on one tool: µs per call against one
 * @module
 */
import net from "node:net";
import { ANY, McpMock } from "../src/index.js";
import { prepare, round } from "./pattern-stubs.js";

const ACCEPT = "application/json, text/event-stream";
const MiB = 1024 * 1024;
const mib = (n: number): string => `${(n / MiB).toFixed(1)} MiB`;
const rss = (): number => process.memoryUsage().rss;
const heap = (): number => {
  for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
};
const tally = (counts: Map<string, number>): string => [...counts].map(([s, n]) => `${s}: ${n}`).join(", ");

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { method: "POST", headers: { accept: ACCEPT, "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  const last = text.startsWith("event:") ? (text.split("\n").filter((l) => l.startsWith("data: ")).pop() ?? "").slice(6) : text;
  return { status: res.status, json: (last ? JSON.parse(last) : {}) as Record<string, unknown> };
}

export async function taskFlood(quick: boolean): Promise<void> {
  const total = quick ? 1000 : 10_000;
  await using mock = await McpMock.start({ tools: [{ name: "build", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } }], onUnmatched: "silent", tasks: { maxTasks: 200 } });
  mock.toolsCall("build").withDelay(60_000).respondsWith("late");
  const sessions: Record<string, string>[] = [];
  for (let i = 0; i < 8; i++) {
    const init = await fetch(mock.url, { method: "POST", headers: { accept: ACCEPT, "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { tasks: {} }, clientInfo: { name: "flood", version: "1" } } }) });
    await init.text();
    sessions.push({ "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-11-25" });
  }
  const before = rss();
  const outcomes = new Map<string, number>();
  const ids: string[] = [];
  let notFound = 0;
  for (let i = 0; i < total; i++) {
    const greedy = i < total * 0.3; // session 0 sends the first 30% at once, then the 7 others
    const headers = sessions[greedy ? 0 : 1 + (i % 7)] as Record<string, string>;
    const res = await post(mock.url, { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "build", arguments: {}, task: { ttl: 1e308, pollInterval: -1 } } }, headers);
    const task = (res.json["result"] as { task?: { taskId: string } } | undefined)?.task;
    const message = String((res.json["error"] as { message?: string } | undefined)?.message ?? res.status);
    const key = task ? (greedy ? "created by the greedy session" : "created by the others") : message.includes("its share") ? "refused: the session's share" : message.includes("tasks.maxTasks)") ? "refused: maxTasks" : message.slice(0, 40);
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    if (task) ids.push(task.taskId);
    if (i % 10 === 0 && ids.length > 0) {
      const stranger = await post(mock.url, { jsonrpc: "2.0", id: i, method: "tasks/get", params: { taskId: ids[ids.length - 1], _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } }, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tasks/get", "mcp-name": ids[ids.length - 1] as string });
      if ((stranger.json["error"] as { message?: string } | undefined)?.message?.includes("not found")) notFound++;
    }
  }
  console.log(`[6] task flood, ${total} task calls from 8 sessions (one sends the first 30% at once), maxTasks 200: ${tally(outcomes)}`);
  console.log(`    strangers without a session: ${notFound} of ${Math.ceil(total / 10)} polls "Task not found"; RSS growth ${mib(rss() - before)}`);
}

export async function oauthBadInput(quick: boolean): Promise<void> {
  const total = quick ? 1000 : 10_000;
  await using mock = await McpMock.start({ auth: true, onUnmatched: "silent" });
  const hostile = ["javascript:alert(1)", "data:text/html,x", "file:///etc/passwd", "http://evil.example/cb", "http://127.0.0.1/cb#x", "%zz", "\u0000", "x".repeat(5000)];
  const counts = new Map<string, number>();
  let fivexx = 0;
  const before = rss();
  for (let i = 0; i < total; i++) {
    const bad = hostile[i % hostile.length] as string;
    let res: Response;
    if (i % 3 === 0) res = await fetch(new URL("/register", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [bad] }) });
    else if (i % 3 === 1) res = await fetch(new URL("/token", mock.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${bad}:${bad}`).toString("base64")}` }, body: `grant_type=authorization_code&code=${encodeURIComponent(bad)}&code=x` });
    else res = await fetch(mock.url, { method: "POST", headers: { accept: ACCEPT, "content-type": "application/json", authorization: i % 2 ? `Basic ${bad}` : `Bearer ${encodeURIComponent(bad)}` }, body: "{}" });
    await res.text();
    if (res.status >= 500) fivexx++;
    counts.set(String(res.status), (counts.get(String(res.status)) ?? 0) + 1);
  }
  console.log(`[7] OAuth bad input, ${total} requests (/register, /token, /mcp): ${fivexx} 5xx; statuses ${tally(counts)}; RSS growth ${mib(rss() - before)}`);
}

export async function feedReadersThatStop(quick: boolean): Promise<void> {
  const readers = quick ? 8 : 25;
  await using mock = await McpMock.start({ admin: true, onUnmatched: "silent" });
  const port = Number(new URL(mock.url).port);
  const sockets = (): number => process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap").length;
  const base = sockets();
  const before = heap();
  const opened: net.Socket[] = [];
  const transport = mock.clientTransport();
  await transport.start();
  const big = { blob: "x".repeat(64 * 1024) };
  for (let r = 0; r < readers; r++) {
    const socket = await new Promise<net.Socket>((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => {
        s.write(`GET /__admin/events HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\naccept: text/event-stream\r\n\r\n`);
        s.once("data", () => (s.pause(), resolve(s)));
      });
      s.on("error", () => undefined);
    });
    opened.push(socket);
    for (let i = 0; i < 150; i++) await transport.send({ jsonrpc: "2.0", method: "notifications/x", params: big });
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  console.log(`[8] ${readers} live-feed readers that stop reading, each sent ~10 MiB: server sockets left ${Math.max(0, sockets() - base)} (the readers' own paused ones are not active handles); heap after GC ${mib(heap() - before)} more (the journal's bounded share included)`);
  await transport.close();
  for (const s of opened) s.destroy();
}

export async function adminFlood(quick: boolean): Promise<void> {
  const total = quick ? 4 : 20;
  await using mock = await McpMock.start({ admin: true, onUnmatched: "silent" });
  const url = mock.url.replace(/\/mcp$/, "/__admin/stubs");
  const body = `{"responses":[{"tool":"x","result":"${"x".repeat(32 * MiB)}"}]}`;
  const counts = new Map<string, number>();
  const before = rss();
  let peak = before;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body }).catch(() => undefined);
    await res?.text().catch(() => "");
    counts.set(String(res?.status ?? "reset"), (counts.get(String(res?.status ?? "reset")) ?? 0) + 1);
    peak = Math.max(peak, rss());
  }
  console.log(`[9] the admin API flooded with ${total} bodies of 32 MiB: statuses ${tally(counts)}, ${((performance.now() - started) / total).toFixed(0)} ms each; RSS peak growth ${mib(peak - before)} (the sender's own copy of the body included)`);
}

export async function patternStubs(quick: boolean): Promise<void> {
  const calls = quick ? 500 : 5000;
  const build = { name: "src", McpMock, ANY };
  const perCall = async (count: number): Promise<number> => {
    const c = await prepare(build, `${count} wildcard stubs`, count, "wildcard");
    try {
      return await round(c, calls);
    } finally {
      await c.mock.close();
    }
  };
  await perCall(1);
  const one = await perCall(1);
  const many = await perCall(10_000);
  console.log(`[10] 10,000 withArgs({ q, page, id: ANY }) stubs on one tool: ${many.toFixed(1)} µs per call, one stub ${one.toFixed(1)} µs (${(many / one).toFixed(2)}x)`);
}
