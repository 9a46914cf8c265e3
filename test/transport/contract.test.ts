/**
 * The transport contract, one suite over every transport (test/support/wires.ts): a call, a
 * streamed call with progress, a server-to-client request, pushes, every fault, a cancellation, and
 * close() leaving nothing, over HTTP, stdio and in memory. A new transport adds a wire, and this suite runs over it unchanged.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { method, toolsCall, type FaultKind, type StreamCall } from "../../src/index.js";
import { FAULT_KINDS } from "../../src/stubs/stub.js";
import { counts, expectNoMoreThan, settle } from "../support/resources.js";
import { startWire, type RawReply, type Wire } from "../support/wires.js";

const tools = [
  { name: "echo", inputSchema: { type: "object" } },
  { name: "slow", inputSchema: { type: "object" } },
  { name: "ask", inputSchema: { type: "object" } },
] as const;

const WIRES = ["http", "stdio", "memory", "sse"] as const;

/** What a correct answer to the faulted request (id 7) would have been. */
const ANSWER = { jsonrpc: "2.0", id: 7, result: { content: [] } };
const ANSWER_TEXT = JSON.stringify(ANSWER);
const NOTHING: RawReply = { messages: [], garbage: [], ended: false };

/** What each fault does to that answer, over each transport. */
const FAULT_EFFECTS: { readonly [K in FaultKind]: { readonly [W in (typeof WIRES)[number]]: RawReply } } = {
  // The connection ends: HTTP resets, the stdio server dies, the in-memory transport closes (onclose), the legacy SSE stream is destroyed.
  "connection-reset": { http: { ...NOTHING, ended: true }, stdio: { ...NOTHING, ended: true }, memory: { ...NOTHING, ended: true }, sse: { ...NOTHING, ended: true } },
  // Over HTTP an empty application/json body; over stdio and in memory, no message at all; over
  // legacy SSE an event with empty data (the SDK's eventsource parser dispatches it, and JSON.parse fails).
  "empty-response": { http: { ...NOTHING, garbage: [""] }, stdio: NOTHING, memory: NOTHING, sse: { ...NOTHING, garbage: [""] } },
  // In memory the cut text reaches the client's parser: its onerror gets a SyntaxError.
  "malformed-json": {
    http: { ...NOTHING, garbage: [ANSWER_TEXT.slice(0, Math.ceil(ANSWER_TEXT.length / 2))] },
    stdio: { ...NOTHING, garbage: [ANSWER_TEXT.slice(0, Math.ceil(ANSWER_TEXT.length / 2))] },
    memory: { ...NOTHING, garbage: ["SyntaxError"] },
    sse: { ...NOTHING, garbage: [ANSWER_TEXT.slice(0, Math.ceil(ANSWER_TEXT.length / 2))] },
  },
  "wrong-id": {
    http: { ...NOTHING, messages: [{ ...ANSWER, id: 1_000_007 }] },
    stdio: { ...NOTHING, messages: [{ ...ANSWER, id: 1_000_007 }] },
    memory: { ...NOTHING, messages: [{ ...ANSWER, id: 1_000_007 }] },
    sse: { ...NOTHING, messages: [{ ...ANSWER, id: 1_000_007 }] },
  },
  "duplicate-response": { http: { ...NOTHING, messages: [ANSWER, ANSWER] }, stdio: { ...NOTHING, messages: [ANSWER, ANSWER] }, memory: { ...NOTHING, messages: [ANSWER, ANSWER] }, sse: { ...NOTHING, messages: [ANSWER, ANSWER] } },
  // The connection drops before the result (HTTP keeps it for Last-Event-ID); stdio and memory
  // send nothing; legacy SSE has no resuming, so its one stream (and the session) ends.
  "drop-stream-after": { http: NOTHING, stdio: NOTHING, memory: NOTHING, sse: { ...NOTHING, ended: true } },
};

describe.each(WIRES)("the transport contract over %s", (name) => {
  let wire: Wire | undefined;
  afterEach(async () => {
    await wire?.close();
    wire = undefined;
  });
  const start = async (): Promise<Wire> => (wire = await startWire(name, { tools, onUnmatched: "silent" }));

  test("a call is answered from its stub", async () => {
    const { mock, client } = await start().then(async (w) => ({ mock: w.mock, client: await w.client() }));
    mock.toolsCall("echo").respondsWith((call) => ({ echoed: call.args }));
    const result = await client.callTool({ name: "echo", arguments: { a: 1 } });
    expect(result.content).toEqual([{ type: "text", text: '{"echoed":{"a":1}}' }]);
    expect(mock.requests().at(-1)).toMatchObject({ method: "tools/call", transport: name });
  });

  test("a streamed call sends its progress before the result", async () => {
    const w = await start();
    w.mock.toolsCall("slow").streams((s) => s.progress(1, 2, "half way").progress(2, 2).result("done"), { delayBetween: 20 });
    const client = await w.client();
    const progress: unknown[] = [];
    const result = await client.callTool({ name: "slow", arguments: {} }, undefined, { onprogress: (p) => progress.push(p) });
    expect(progress).toEqual([{ progress: 1, total: 2, message: "half way" }, { progress: 2, total: 2 }]);
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
  });

  test("a server-to-client request inside a stream gets the client's answer", async () => {
    const w = await start();
    w.mock.toolsCall("ask").streams((s) =>
      s
        .request("elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } })
        .result((call: StreamCall) => `Hello, ${(call.answer as { content: { name: string } }).content.name}`),
    );
    const client = await w.client({ elicitation: {} });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name: "Ada" } }));
    const result = await client.callTool({ name: "ask", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada" }]);
    w.mock.verify(method("elicitation/create"), 1);
  });

  test("an openStream() script and notify() reach the session's push stream", async () => {
    const w = await start();
    w.mock.openStream().sends((s) => s.delay(5).notify("notifications/message", { level: "info", data: "scripted" }));
    const client = await w.client();
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    await vi.waitFor(() => expect(logs).toEqual(["scripted"]), { timeout: 2000 });
    expect(await w.mock.notify("notifications/message", { level: "info", data: "pushed" })).toHaveLength(1);
    await vi.waitFor(() => expect(logs).toEqual(["scripted", "pushed"]), { timeout: 2000 });
  });

  test("a cancelled call stops its stream, and the journal says so", async () => {
    const w = await start();
    w.mock.toolsCall("slow").streams((s) => s.log("info", "started").delay(10_000).result("late"));
    const client = await w.client();
    const abort = new AbortController();
    const call = client.callTool({ name: "slow", arguments: {} }, undefined, { signal: abort.signal });
    await w.mock.waitFor(toolsCall("slow"), { timeout: 2000 });
    abort.abort("enough");
    await expect(call).rejects.toThrow();
    await vi.waitFor(() => expect(w.mock.findRequests(toolsCall("slow"))[0]?.answer).toEqual({ cancelled: true, reason: "notifications/cancelled" }), { timeout: 2000 });
  });

  test.each(FAULT_KINDS)("the %s fault", async (fault) => {
    const w = await start();
    w.mock.toolsCall("echo").fails(fault);
    const reply = await w.raw({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: {} } });
    expect(reply).toEqual(FAULT_EFFECTS[fault][name]);
  });

  test("close() with a stream running leaves no socket, server or timer", async () => {
    await settle();
    const baseline = counts();
    const w = await start();
    w.mock.toolsCall("slow").streams((s) => s.log("info", "started").delay(10_000).result("late"));
    const client = await w.client();
    const call = client.callTool({ name: "slow", arguments: {} }).catch(() => "ended");
    await w.mock.waitFor(toolsCall("slow"), { timeout: 2000 });
    // While it runs, the stream holds a timer (so the check below can fail).
    await vi.waitFor(() => expect(counts()["Timeout"]).toBeGreaterThan(baseline["Timeout"] ?? 0), { timeout: 2000 });
    await w.close();
    wire = undefined;
    await expectNoMoreThan(baseline);
    void call;
  });
});
