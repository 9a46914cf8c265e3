/**
 * No port: the v1 and v2 SDK clients connected with `mock.clientTransport()` to a mock started
 * with `transport: "none"`. A call, a streamed call with progress, an elicitation inside a
 * stream, pushes (`notify()` and an `openStream()` script), every fault as a client sees it,
 * the journal, `mock.url`, and `close()` leaving nothing behind.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema, LoggingMessageNotificationSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, test, vi } from "vitest";
import { McpMock, McpMockError, toolsCall, type FaultKind, type StreamCall } from "../../src/index.js";
import { FAULT_KINDS } from "../../src/stubs/stub.js";
import { CLIENT_KINDS, type ClientKind } from "../support/clients.js";
import { countOf, counts, expectNoMoreThan, settle } from "../support/resources.js";

const tools = [
  { name: "echo", inputSchema: { type: "object" } },
  { name: "slow", inputSchema: { type: "object" } },
  { name: "ask", inputSchema: { type: "object" } },
] as const;

/** The SDK client of one major version, connected in memory, in one small shape. */
interface MemoryClient {
  call(name: string, args?: Record<string, unknown>, options?: { timeout?: number; onprogress?: (p: unknown) => void }): Promise<Record<string, unknown>>;
  /** The `notifications/message` data the client received. */
  readonly logs: unknown[];
  /** Errors the client reported outside a call. */
  readonly errors: Error[];
  /** Resolves when the client's connection closed. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

async function connect(kind: ClientKind, mock: McpMock): Promise<MemoryClient> {
  const logs: unknown[] = [];
  const errors: Error[] = [];
  let onClosed!: () => void;
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  const info = { name: "memory-test", version: "1.0.0" };
  if (kind === "v1") {
    const client = new ClientV1(info, { capabilities: { elicitation: {} } });
    client.onerror = (e) => errors.push(e);
    client.onclose = onClosed;
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name: "Ada" } }));
    await client.connect(mock.clientTransport());
    return { logs, errors, closed, call: (name, args = {}, options = {}) => client.callTool({ name, arguments: args }, undefined, options) as Promise<Record<string, unknown>>, close: () => client.close() };
  }
  const client = new ClientV2(info, { capabilities: { elicitation: {} } });
  client.onerror = (e: Error) => errors.push(e);
  client.onclose = onClosed;
  client.setNotificationHandler("notifications/message", (n) => void logs.push(n.params.data));
  client.setRequestHandler("elicitation/create", () => ({ action: "accept", content: { name: "Ada" } }));
  await client.connect(mock.clientTransport());
  return { logs, errors, closed, call: (name, args = {}, options = {}) => client.callTool({ name, arguments: args }, options) as Promise<Record<string, unknown>>, close: () => client.close() };
}

const textOf = (result: Record<string, unknown>): string | undefined => (result["content"] as Array<{ text?: string }>)[0]?.text;

/** How a call settled. */
async function outcome(call: Promise<Record<string, unknown>>): Promise<string> {
  try {
    return `answered ${JSON.stringify((await call)["content"])}`;
  } catch (error) {
    return /timed out|timeout/i.test(String(error)) ? "timed out" : "rejected";
  }
}

/** What each fault does to a call of `echo` (a faulted answer has no content), as the client sees it: the call, its errors, the connection. */
const SEEN: { readonly [K in FaultKind]: { readonly call: string; readonly error: RegExp | undefined; readonly closes: boolean } } = {
  "connection-reset": { call: "rejected", error: undefined, closes: true },
  "empty-response": { call: "timed out", error: undefined, closes: false },
  "malformed-json": { call: "timed out", error: /^SyntaxError$/, closes: false },
  "wrong-id": { call: "timed out", error: /^Error$/, closes: false },
  "duplicate-response": { call: "answered []", error: /^Error$/, closes: false },
  "drop-stream-after": { call: "timed out", error: undefined, closes: false },
};

let mock: McpMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});
const start = async (): Promise<McpMock> => (mock = await McpMock.start({ transport: "none", tools, onUnmatched: "silent" }));

test("transport: none opens no port, and mock.url says to use clientTransport()", async () => {
  const servers = countOf("TCPServerWrap");
  const m = await start();
  expect(countOf("TCPServerWrap")).toBe(servers);
  expect(m.port).toBe(0);
  expect(() => m.url).toThrow(McpMockError);
  expect(() => m.url).toThrow(/transport: "none".*client\.connect\(mock\.clientTransport\(\)\)/);
});

test("messages cross as copies: changing a sent object afterwards changes nothing the mock saw", async () => {
  const m = await start();
  m.toolsCall("echo").respondsWith((call) => ({ got: call.args }));
  const transport = m.clientTransport();
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => void received.push(message);
  await transport.start();
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bare", version: "1" } } } as const;
  await transport.send(init as JSONRPCMessage);
  const call = { jsonrpc: "2.0" as const, id: 2, method: "tools/call", params: { name: "echo", arguments: { a: 1 } } };
  await transport.send(call);
  call.params.arguments.a = 99;
  await vi.waitFor(() => expect(received).toHaveLength(2));
  expect(received[1]).toMatchObject({ id: 2, result: { content: [{ text: '{"got":{"a":1}}' }] } });
  expect(m.findRequests(toolsCall("echo"))[0]?.params).toMatchObject({ arguments: { a: 1 } });
  await transport.close();
});

describe.each(CLIENT_KINDS)("the %s client in memory", (kind) => {
  test("a call is answered, the journal says memory, each connection is its own session, a closed client ends its session", async () => {
    const m = await start();
    m.toolsCall("echo").respondsWith((call) => `echo ${JSON.stringify(call.args)}`);
    const client = await connect(kind, m);
    const other = await connect(kind, m);
    expect(textOf(await client.call("echo", { a: 1 }))).toBe('echo {"a":1}');
    expect(textOf(await other.call("echo", { b: 2 }))).toBe('echo {"b":2}');
    expect(m.requests().length).toBeGreaterThan(4);
    expect(new Set(m.requests().map((e) => e.transport))).toEqual(new Set(["memory"]));
    const ids = m.sessions().map((s) => s.id);
    expect(new Set(ids).size).toBe(2);
    m.verify(toolsCall("echo"), 2);
    await other.close();
    expect(m.sessions()).toHaveLength(1);
    await client.close();
  });

  test("a streamed call sends its progress before the result", async () => {
    const m = await start();
    m.toolsCall("slow").streams((s) => s.progress(1, 2, "half way").progress(2, 2).result("done"), { delayBetween: 10 });
    const client = await connect(kind, m);
    const progress: unknown[] = [];
    const result = await client.call("slow", {}, { onprogress: (p) => progress.push(p) });
    expect(progress).toEqual([{ progress: 1, total: 2, message: "half way" }, { progress: 2, total: 2 }]);
    expect(textOf(result)).toBe("done");
    await client.close();
  });

  test("streams(script, { dropAfter: 1 }): the first event arrives, the rest never does, the connection stays", async () => {
    const m = await start();
    m.toolsCall("slow").once().streams((s) => s.progress(1, 3).progress(2, 3).result("never"), { dropAfter: 1 });
    m.toolsCall("echo").respondsWith("still here");
    const client = await connect(kind, m);
    const progress: unknown[] = [];
    expect(await outcome(client.call("slow", {}, { timeout: 300, onprogress: (p) => progress.push(p) }))).toBe("timed out");
    expect(progress).toEqual([{ progress: 1, total: 3 }]);
    expect(textOf(await client.call("echo"))).toBe("still here");
    await client.close();
  });

  test("an elicitation inside a stream gets the client's answer", async () => {
    const m = await start();
    m.toolsCall("ask").streams((s) =>
      s
        .request("elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } })
        .result((call: StreamCall) => `Hello, ${(call.answer as { content: { name: string } }).content.name}`),
    );
    const client = await connect(kind, m);
    expect(textOf(await client.call("ask"))).toBe("Hello, Ada");
    expect(m.requests().find((e) => e.kind === "response")).toMatchObject({ method: "elicitation/create", transport: "memory" });
    await client.close();
  });

  test("notify() and an openStream() script reach the connection", async () => {
    const m = await start();
    m.openStream().sends((s) => s.delay(5).notify("notifications/message", { level: "info", data: "from the script" }));
    const client = await connect(kind, m);
    await vi.waitFor(() => expect(client.logs).toEqual(["from the script"]), { timeout: 2000 });
    const reached = await m.notify("notifications/message", { level: "info", data: "pushed" });
    expect(reached).toEqual(m.sessions().map((s) => s.id));
    await vi.waitFor(() => expect(client.logs).toEqual(["from the script", "pushed"]), { timeout: 2000 });
    await client.close();
  });

  test.each(FAULT_KINDS)("the %s fault", async (fault) => {
    const m = await start();
    m.toolsCall("echo").respondsWith("hi");
    m.toolsCall("echo").once().fails(fault);
    const client = await connect(kind, m);
    let closed = false;
    void client.closed.then(() => (closed = true));
    const seen = SEEN[fault];
    expect(await outcome(client.call("echo", {}, { timeout: 300 }))).toBe(seen.call);
    await settle();
    expect(closed).toBe(seen.closes);
    if (seen.error) expect(client.errors.map((e) => e.name)).toEqual([expect.stringMatching(seen.error)]);
    else expect(client.errors).toEqual([]);
    // The mock answers the next call (on this connection, or on a new one after a reset).
    const next = seen.closes ? await connect(kind, m) : client;
    expect(textOf(await next.call("echo"))).toBe("hi");
    await next.close();
  });

  test("close() with a stream running ends the connection and leaves no socket, server or timer", async () => {
    await settle();
    const baseline = counts();
    const m = await start();
    m.toolsCall("slow").streams((s) => s.log("info", "started").delay(10_000).result("late"));
    const client = await connect(kind, m);
    const call = client.call("slow").then(() => "answered", () => "ended");
    await m.waitFor(toolsCall("slow"), { timeout: 2000 });
    await vi.waitFor(() => expect(counts()["Timeout"]).toBeGreaterThan(baseline["Timeout"] ?? 0), { timeout: 2000 });
    await m.close();
    mock = undefined;
    await client.closed;
    expect(await call).toBe("ended");
    expect(() => m.clientTransport()).toThrow(/closed/);
    await expectNoMoreThan(baseline);
  });
});
