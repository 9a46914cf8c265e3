/**
 * The 2024-11-05 HTTP+SSE transport with the SDK's v1 SSEClientTransport against mock.sseUrl:
 * a call, a streamed call with progress, an elicitation inside a stream, pushes by notify() and
 * by openStream() scripts, every fault as the client sees it, and close() leaving no handles.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { ElicitRequestSchema, LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpMock, toolsCall, type FaultKind, type StreamCall } from "../../src/index.js";
import { FAULT_KINDS } from "../../src/stubs/stub.js";
import { counts, expectNoMoreThan, settle } from "../support/resources.js";
import { LegacyStream } from "../support/legacy-sse.js";

const tools = [
  { name: "echo", inputSchema: { type: "object" } },
  { name: "slow", inputSchema: { type: "object" } },
  { name: "ask", inputSchema: { type: "object" } },
] as const;

let mock: McpMock | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await mock?.close();
  mock = undefined;
});

async function start(): Promise<McpMock> {
  return (mock = await McpMock.start({ tools, onUnmatched: "silent" }));
}

/** The v1 client over SSEClientTransport, and the errors its transport reported. */
async function connect(m: McpMock, capabilities: Record<string, unknown> = {}): Promise<{ client: Client; errors: Error[] }> {
  const client = new Client({ name: "legacy", version: "1.0.0" }, { capabilities });
  clients.push(client);
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(new SSEClientTransport(new URL(m.sseUrl)));
  return { client, errors };
}

describe("the v1 SSEClientTransport against mock.sseUrl", () => {
  test("a call is answered, and journaled as transport sse in the connection's session", async () => {
    const m = await start();
    expect(m.sseUrl).toBe(`http://127.0.0.1:${m.port}/sse`);
    m.toolsCall("echo").respondsWith((call) => ({ echoed: call.args }));
    const { client } = await connect(m);
    const result = await client.callTool({ name: "echo", arguments: { a: 1 } });
    expect(result.content).toEqual([{ type: "text", text: '{"echoed":{"a":1}}' }]);
    expect(m.requests().map((e) => [e.method, e.transport, e.sessionId])).toEqual([
      ["initialize", "sse", "session-1"],
      ["notifications/initialized", "sse", "session-1"],
      ["tools/call", "sse", "session-1"],
    ]);
  });

  test("a streamed call sends its progress and logs before the result", async () => {
    const m = await start();
    m.toolsCall("slow").streams((s) => s.progress(1, 2, "half way").log("info", "working").progress(2, 2).result("done"));
    const { client } = await connect(m);
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    const progress: unknown[] = [];
    const result = await client.callTool({ name: "slow", arguments: {} }, undefined, { onprogress: (p) => progress.push(p) });
    expect(progress).toEqual([{ progress: 1, total: 2, message: "half way" }, { progress: 2, total: 2 }]);
    expect(logs).toEqual(["working"]);
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
  });

  test("an elicitation inside a stream goes out on the SSE stream and the client's answer comes back by POST", async () => {
    const m = await start();
    m.toolsCall("ask").streams((s) =>
      s
        .request("elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } })
        .result((call: StreamCall) => `Hello, ${(call.answer as { content: { name: string } }).content.name}`),
    );
    const { client } = await connect(m, { elicitation: {} });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name: "Ada" } }));
    const result = await client.callTool({ name: "ask", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada" }]);
    expect(m.requests().find((e) => e.method === "elicitation/create")?.transport).toBe("sse");
  });

  test("notify() and openStream() scripts push on the session's SSE stream", async () => {
    const m = await start();
    m.openStream().sends((s) => s.notify("notifications/tools/list_changed"));
    const { client } = await connect(m);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    await changed;
    expect(await m.notify("notifications/message", { level: "info", data: "pushed" })).toEqual(["session-1"]);
    await vi.waitFor(() => expect(logs).toEqual(["pushed"]), { timeout: 2000 });
  });

  /** What the client sees for each fault: the call fails (or not), and what its transport reports. */
  const SEEN: { readonly [K in FaultKind]: { readonly resolves: boolean; readonly error: RegExp } } = {
    "connection-reset": { resolves: false, error: /SSE error/ },
    "empty-response": { resolves: false, error: /JSON/ },
    "malformed-json": { resolves: false, error: /JSON/ },
    "wrong-id": { resolves: false, error: /unknown message ID/ },
    "duplicate-response": { resolves: true, error: /unknown message ID/ },
    "drop-stream-after": { resolves: false, error: /SSE error/ },
  };

  test.each(FAULT_KINDS)("the %s fault", async (fault) => {
    const m = await start();
    m.toolsCall("echo").fails(fault);
    const { client, errors } = await connect(m);
    const outcome = await client.callTool({ name: "echo", arguments: {} }, undefined, { timeout: 400 }).then(
      () => "resolved",
      (error: Error) => error.message,
    );
    const seen = SEEN[fault];
    if (seen.resolves) expect(outcome).toBe("resolved");
    else expect(outcome).toMatch(/timed out/i);
    await vi.waitFor(() => expect(errors.map((e) => e.message).join("\n")).toMatch(seen.error), { timeout: 2000 });
  });

  test("close() with a stream running leaves no socket, server or timer", async () => {
    await settle();
    const baseline = counts();
    const m = await McpMock.start({ tools, onUnmatched: "silent" });
    m.toolsCall("slow").streams((s) => s.log("info", "started").delay(10_000).result("late"));
    const { client } = await connect(m);
    const call = client.callTool({ name: "slow", arguments: {} }).catch(() => "ended");
    await m.waitFor(toolsCall("slow"), { timeout: 2000 });
    await vi.waitFor(() => expect(counts()["Timeout"]).toBeGreaterThan(baseline["Timeout"] ?? 0), { timeout: 2000 });
    await m.close();
    await client.close();
    clients.length = 0;
    await expectNoMoreThan(baseline);
    void call;
  });
});

describe("the legacy endpoints", () => {
  test("GET /sse sends the endpoint event with the relative POST URI; POST answers 202 Accepted", async () => {
    const m = await start();
    const stream = await LegacyStream.open(m.sseUrl);
    expect(stream.events[0]).toEqual({ event: "endpoint", data: "/messages?sessionId=session-1" });
    const res = await stream.post({ jsonrpc: "2.0", id: 1, method: "ping" });
    expect([res.status, await res.text()]).toEqual([202, "Accepted"]);
    expect(await stream.until((e) => e.data.includes('"id":1'))).toEqual({ event: "message", data: '{"jsonrpc":"2.0","id":1,"result":{}}' });
    stream.close();
  });

  test("each GET is its own session in the one store, beside Streamable HTTP sessions", async () => {
    const m = await McpMock.start({ maxSessions: 5 });
    mock = m;
    const a = await LegacyStream.open(m.sseUrl);
    const b = await LegacyStream.open(m.sseUrl);
    expect([a.endpoint, b.endpoint].map((u) => new URL(u).search)).toEqual(["?sessionId=session-1", "?sessionId=session-2"]);
    await a.initialize();
    expect(m.requests()[0]).toMatchObject({ method: "initialize", sessionId: "session-1", protocolVersion: "2024-11-05" });
    a.close();
    // The session ends with its stream.
    await vi.waitFor(async () => expect((await a.post({ jsonrpc: "2.0", id: 2, method: "ping" })).status).toBe(404), { timeout: 2000 });
    b.close();
  });

  // Before: a session evicted past maxSessions kept its GET /sse connection open until the
  // client's next POST (a socket held for a session that no longer was).
  test("a session the mock ends (evicted past maxSessions) closes its SSE stream at once", async () => {
    const m = await McpMock.start({ maxSessions: 1 });
    mock = m;
    const a = await LegacyStream.open(m.sseUrl);
    const b = await LegacyStream.open(m.sseUrl); // the second session evicts the first
    await vi.waitFor(() => expect(a.ended).toBe(true), { timeout: 2000 });
    expect(b.ended).toBe(false);
    expect((await a.post({ jsonrpc: "2.0", id: 2, method: "ping" })).status).toBe(404);
    b.close();
  });

  // Before: the messages ahead of the initialize were played (answered on the stream, and
  // journaled) and only then the POST was refused; on /mcp nothing of such a batch runs.
  test("a batch holding an initialize is refused before any of it is played: nothing answered, nothing journaled", async () => {
    const m = await start();
    const stream = await LegacyStream.open(m.sseUrl);
    await stream.initialize("2025-03-26"); // the one revision with batches
    const before = m.requests().length;
    const init = { jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
    const res = await stream.post([{ jsonrpc: "2.0", id: 1, method: "ping" }, init]);
    expect([res.status, await res.json()]).toEqual([400, { jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request: Only one initialization request is allowed" }, id: null }]);
    const after = await stream.post({ jsonrpc: "2.0", id: 3, method: "ping" });
    expect(after.status).toBe(202);
    await stream.until((e) => e.data.includes('"id":3'));
    expect(stream.events.filter((e) => e.data.includes('"id":1') || e.data.includes('"id":2'))).toEqual([]);
    expect(m.requests().slice(before).map((e) => [e.method, e.id])).toEqual([["ping", 3]]);
    stream.close();
  });

  test("legacySse: false serves no /sse, and sseUrl says why", async () => {
    const m = (mock = await McpMock.start({ legacySse: false }));
    expect((await fetch(new URL("/sse", m.url), { headers: { accept: "text/event-stream" } })).status).toBe(404);
    expect(() => m.sseUrl).toThrow(/legacySse: false/);
  });

  test("the Host and Origin checks of /mcp apply to /sse and /messages", async () => {
    const m = await start();
    const origin = await fetch(m.sseUrl, { headers: { accept: "text/event-stream", origin: "https://evil.example" } });
    expect(origin.status).toBe(403);
    const stream = await LegacyStream.open(m.sseUrl);
    const post = await stream.post({ jsonrpc: "2.0", id: 1, method: "ping" }, { origin: "https://evil.example" });
    expect(post.status).toBe(403);
    stream.close();
  });
});
