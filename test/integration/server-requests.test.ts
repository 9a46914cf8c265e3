/**
 * Server-to-client traffic: requests raised inside a streamed call (elicitation, sampling),
 * pushes on the GET stream (`mock.notify`, `mock.request`, `openStream().sends`), client
 * answers in the journal, and cancellation, with the real SDK clients v1 and v2 over HTTP.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, ProtocolError, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { describe, expect, test, vi } from "vitest";
import { McpMock, McpMockError, method, toolsCall, type McpMockOptions, type StreamCall } from "../../src/index.js";
import { textOrUndefined as textOf } from "../support/clients.js";
import { initializedHeaders } from "../support/raw-http.js";
import { startWithClient } from "../support/setup.js";

const tools = [
  { name: "ask", inputSchema: { type: "object" } },
  { name: "sample", inputSchema: { type: "object" } },
  { name: "slow", inputSchema: { type: "object" } },
] as const;

type Kind = "v1" | "v2";
const KINDS: readonly Kind[] = ["v1", "v2"];

type Capability = "elicitation" | "sampling" | "roots";

/** How the client answers `roots/list`: with roots, never, or with a JSON-RPC error. */
type RootsBehaviour = "answer" | "never" | "error";

interface ClientSetup {
  readonly capabilities?: readonly Capability[];
  readonly roots?: RootsBehaviour;
}

/** What a client's handlers received. */
interface Seen {
  readonly requests: Array<{ method: string; params: Record<string, unknown> | undefined }>;
  readonly logs: Array<Record<string, unknown>>;
}

interface Sdk {
  readonly kind: Kind;
  readonly seen: Seen;
  callTool(name: string, options?: { signal?: AbortSignal; timeout?: number }): Promise<Record<string, unknown>>;
  sendRootsListChanged(): Promise<void>;
  sessionId(): string | undefined;
  close(): Promise<void>;
}

const ELICIT_ANSWER = { action: "accept", content: { name: "Ada" } } as const;
const SAMPLE_ANSWER = { role: "assistant", content: { type: "text", text: "sampled text" }, model: "test-model", stopReason: "endTurn" } as const;
const ROOTS = { roots: [{ uri: "file:///work/project", name: "project" }] } as const;
const ROOTS_ERROR_CODE = -32010;

const never = new Promise<never>(() => undefined);

async function sdk(kind: Kind, url: string, setup: ClientSetup = {}): Promise<Sdk> {
  const declared = setup.capabilities ?? ["elicitation", "sampling", "roots"];
  const capabilities: Record<string, object> = {};
  if (declared.includes("elicitation")) capabilities["elicitation"] = {};
  if (declared.includes("sampling")) capabilities["sampling"] = {};
  if (declared.includes("roots")) capabilities["roots"] = { listChanged: true };
  const seen: Seen = { requests: [], logs: [] };
  const remember = (method: string, params: unknown): void => {
    seen.requests.push({ method, params: params as Record<string, unknown> | undefined });
  };
  const rootsFor = (makeError: () => Error): Promise<typeof ROOTS> => {
    if (setup.roots === "never") return never;
    if (setup.roots === "error") return Promise.reject(makeError());
    return Promise.resolve(ROOTS);
  };
  if (kind === "v1") {
    const client = new ClientV1({ name: "server-requests-test", version: "1.0.0" }, { capabilities });
    if (capabilities["elicitation"]) client.setRequestHandler(ElicitRequestSchema, async (r) => (remember(r.method, r.params), { ...ELICIT_ANSWER, content: { ...ELICIT_ANSWER.content } }));
    if (capabilities["sampling"]) client.setRequestHandler(CreateMessageRequestSchema, async (r) => (remember(r.method, r.params), { ...SAMPLE_ANSWER, content: { ...SAMPLE_ANSWER.content } }));
    if (capabilities["roots"]) {
      client.setRequestHandler(ListRootsRequestSchema, async (r) => {
        remember(r.method, r.params);
        return (await rootsFor(() => new McpError(ROOTS_ERROR_CODE, "roots are private"))) as never;
      });
    }
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.logs.push(n.params));
    const transport = new TransportV1(new URL(url));
    await client.connect(transport);
    return {
      kind,
      seen,
      callTool: (name, options = {}) => client.callTool({ name, arguments: {} }, undefined, { timeout: 5000, ...options }) as Promise<Record<string, unknown>>,
      sendRootsListChanged: () => client.sendRootsListChanged(),
      sessionId: () => transport.sessionId,
      close: () => client.close(),
    };
  }
  const client = new ClientV2({ name: "server-requests-test", version: "1.0.0" }, { capabilities });
  if (capabilities["elicitation"]) client.setRequestHandler("elicitation/create", async (r) => (remember(r.method, r.params), { ...ELICIT_ANSWER, content: { ...ELICIT_ANSWER.content } }));
  if (capabilities["sampling"]) client.setRequestHandler("sampling/createMessage", async (r) => (remember(r.method, r.params), { ...SAMPLE_ANSWER, content: { ...SAMPLE_ANSWER.content } }));
  if (capabilities["roots"]) {
    client.setRequestHandler("roots/list", async (r) => {
      remember(r.method, r.params);
      return (await rootsFor(() => new ProtocolError(ROOTS_ERROR_CODE, "roots are private"))) as never;
    });
  }
  client.setNotificationHandler("notifications/message", (n) => void seen.logs.push(n.params as Record<string, unknown>));
  const transport = new TransportV2(new URL(url));
  await client.connect(transport);
  return {
    kind,
    seen,
    callTool: (name, options = {}) => client.callTool({ name, arguments: {} }, { timeout: 5000, ...options }) as Promise<Record<string, unknown>>,
    sendRootsListChanged: () => client.sendRootsListChanged(),
    sessionId: () => transport.sessionId,
    close: () => client.close(),
  };
}

const setup = (kind: Kind, client: ClientSetup = {}, options: McpMockOptions<typeof tools> = {}) =>
  startWithClient({ tools, onUnmatched: "silent", ...options }, (url) => sdk(kind, url, client));

async function rejection(promise: Promise<unknown>): Promise<Error & { code?: unknown; data?: unknown }> {
  return promise.then(
    () => {
      throw new Error("expected a rejection, but it resolved");
    },
    (error: unknown) => error as Error & { code?: unknown },
  );
}

/** Waits until every session's client holds its GET stream open. */
async function streamsOpen(mock: McpMock, count: number): Promise<void> {
  await vi.waitFor(() => {
    const sessions = mock.sessions();
    expect(sessions).toHaveLength(count);
    expect(sessions.every((s) => s.streamOpen)).toBe(true);
  }, { timeout: 2000, interval: 5 });
}

const ELICIT_PARAMS = {
  message: "Your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
};
const SAMPLE_PARAMS = { messages: [{ role: "user", content: { type: "text", text: "Say hi" } }], maxTokens: 10 };

describe.each(KINDS)("requests inside a streamed call, SDK %s", (kind) => {
  test("an elicitation raised mid-call is answered, and the result sees the answer", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("ask").streams((s) =>
      s.request("elicitation/create", ELICIT_PARAMS).result((call: StreamCall) => `Hello, ${(call.answer as { content: { name: string } }).content.name}`),
    );
    const result = await ctx.client.callTool("ask");
    expect(textOf(result)).toBe("Hello, Ada");
    expect(ctx.client.seen.requests).toEqual([{ method: "elicitation/create", params: expect.objectContaining(ELICIT_PARAMS) }]);
  });

  test("a sampling request raised mid-call is answered, and the result sees the answer", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("sample").streams((s) =>
      s.request("sampling/createMessage", SAMPLE_PARAMS).result((call: StreamCall) => {
        const answer = call.answer as { content: { text: string }; model: string };
        return `${answer.model}: ${answer.content.text}`;
      }),
    );
    expect(textOf(await ctx.client.callTool("sample"))).toBe("test-model: sampled text");
    expect(ctx.client.seen.requests).toEqual([{ method: "sampling/createMessage", params: expect.objectContaining(SAMPLE_PARAMS) }]);
  });

  test("several requests in one stream: call.answers keeps each answer in order", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("ask").streams((s) =>
      s
        .request("elicitation/create", ELICIT_PARAMS)
        .request("sampling/createMessage", (call: StreamCall) => ({ ...SAMPLE_PARAMS, systemPrompt: `user is ${(call.answer as { content: { name: string } }).content.name}` }))
        .result((call: StreamCall) => JSON.stringify(call.answers)),
    );
    const answers = JSON.parse(textOf(await ctx.client.callTool("ask")) ?? "null") as unknown[];
    expect(answers).toEqual([expect.objectContaining(ELICIT_ANSWER), expect.objectContaining(SAMPLE_ANSWER)]);
    expect(ctx.client.seen.requests[1]?.params?.["systemPrompt"]).toBe("user is Ada");
  });

  test("client answers are journaled under the method they answer", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("ask").streams((s) => s.request("elicitation/create", ELICIT_PARAMS).result("ok"));
    await ctx.client.callTool("ask");
    const entries = ctx.mock.findRequests(method("elicitation/create"));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: "response", method: "elicitation/create", params: ELICIT_ANSWER, sessionId: ctx.client.sessionId(), unmatched: false });
    ctx.mock.verify(method("elicitation/create"), 1);
    ctx.mock.verifyInOrder(toolsCall("ask"), method("elicitation/create"));
  });

  test("a client that did not declare sampling gets the call answered with an error naming the capability", async () => {
    await using ctx = await setup(kind, { capabilities: ["elicitation"] });
    ctx.mock.toolsCall("sample").streams((s) => s.log("info", "before").request("sampling/createMessage", SAMPLE_PARAMS).result("never sent"));
    const error = await rejection(ctx.client.callTool("sample"));
    expect(error.code).toBe(-32603);
    expect(error.message).toContain('did not declare the "sampling" capability');
    expect(ctx.client.seen.requests).toEqual([]);
    // Nothing was sent to the client: no sampling request reached it and none is journaled.
    expect(ctx.mock.findRequests(method("sampling/createMessage"))).toEqual([]);
    const [entry] = ctx.mock.findRequests(toolsCall("sample"));
    expect(entry?.answer).toMatchObject({ error: { code: -32603, message: expect.stringContaining('"sampling"') } });
  });

  test("a client's error answer to a stream request reaches the script as { error }", async () => {
    await using ctx = await setup(kind, { roots: "error" });
    ctx.mock.toolsCall("ask").streams((s) => s.request("roots/list").result((call: StreamCall) => JSON.stringify(call.answer)));
    const answer = JSON.parse(textOf(await ctx.client.callTool("ask")) ?? "null") as { error?: { code?: number; message?: string } };
    expect(answer.error?.code).toBe(ROOTS_ERROR_CODE);
    expect(answer.error?.message).toContain("roots are private");
  });

  test("a stream request the client never answers times out after timeoutMs, and the script goes on", async () => {
    await using ctx = await setup(kind, { roots: "never" });
    ctx.mock.toolsCall("ask").streams((s) => s.request("roots/list", undefined, { timeoutMs: 150 }).result((call: StreamCall) => JSON.stringify(call.answer)));
    const started = performance.now();
    const answer = JSON.parse(textOf(await ctx.client.callTool("ask")) ?? "null") as { error?: { message?: string } };
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(answer.error?.message).toMatch(/did not answer roots\/list \(id \d+\) within 150 ms/);
  });

  test('cancelled by the client: the stream stops, the journal shows notifications/cancelled and the entry becomes { cancelled: true, reason: "notifications/cancelled" }', async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("slow").streams((s) => s.log("info", "started").delay(5000).result("too late"));
    const abort = new AbortController();
    const call = rejection(ctx.client.callTool("slow", { signal: abort.signal }));
    // waitFor resolves on arrival: the entry is in the journal while the stream runs.
    const entry = await ctx.mock.waitFor(toolsCall("slow"), { timeout: 1000 });
    await vi.waitFor(() => expect(ctx.client.seen.logs).toHaveLength(1), { timeout: 1000, interval: 5 });
    expect(entry.answer).toBeUndefined();
    const started = performance.now();
    abort.abort("user pressed stop");
    expect(await call).toBeInstanceOf(Error);
    const cancelled = await ctx.mock.waitFor(method("notifications/cancelled"));
    expect(cancelled.kind).toBe("notification");
    expect(cancelled.params?.["requestId"]).toBe(entry.id);
    await vi.waitFor(() => expect(entry.answer).toEqual({ cancelled: true, reason: "notifications/cancelled" }), { timeout: 500, interval: 5 });
    expect(performance.now() - started).toBeLessThan(1000);
    // The result was never sent: the entry's answer is the cancellation, not "too late".
    expect(JSON.stringify(entry.answer)).not.toContain("too late");
  });
});

describe.each(KINDS)("pushes on the GET stream, SDK %s", (kind) => {
  test("mock.request(roots/list) is answered by the client's roots handler", async () => {
    await using ctx = await setup(kind);
    await expect(ctx.mock.request("roots/list")).resolves.toEqual(ROOTS);
    expect(ctx.client.seen.requests).toEqual([{ method: "roots/list", params: undefined }]);
    const [answer] = ctx.mock.findRequests(method("roots/list"));
    expect(answer).toMatchObject({ kind: "response", params: ROOTS });
  });

  test("mock.request rejects at once when the client did not declare roots", async () => {
    await using ctx = await setup(kind, { capabilities: ["sampling"] });
    const started = performance.now();
    const error = await rejection(ctx.mock.request("roots/list"));
    expect(performance.now() - started).toBeLessThan(200);
    expect(error).toBeInstanceOf(McpMockError);
    expect(error.message).toMatch(/mock\.request\(\) sends roots\/list, but the client of session-1 did not declare the "roots" capability/);
    expect(ctx.client.seen.requests).toEqual([]);
  });

  test("mock.request with { timeout } rejects when the client never answers", async () => {
    await using ctx = await setup(kind, { roots: "never" });
    const started = performance.now();
    const error = await rejection(ctx.mock.request("roots/list", undefined, { timeout: 200 }));
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(McpMockError);
    expect(error.message).toMatch(/the client did not answer roots\/list \(id \d+\) within 200 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1000);
    expect(ctx.client.seen.requests).toHaveLength(1);
  });

  test("mock.request rejects with the code of the client's JSON-RPC error", async () => {
    await using ctx = await setup(kind, { roots: "error" });
    const error = await rejection(ctx.mock.request("roots/list"));
    expect(error).toBeInstanceOf(McpMockError);
    expect(error.code).toBe(ROOTS_ERROR_CODE);
    expect(error.message).toContain(`the client answered with error ${ROOTS_ERROR_CODE}`);
    expect(error.message).toContain("roots are private");
  });

  test("mock.notify reaches the client on its GET stream", async () => {
    await using ctx = await setup(kind);
    await streamsOpen(ctx.mock, 1);
    await expect(ctx.mock.notify("notifications/message", { level: "info", data: "pushed" })).resolves.toEqual(["session-1"]);
    await vi.waitFor(() => expect(ctx.client.seen.logs).toEqual([{ level: "info", data: "pushed" }]), { timeout: 1000, interval: 5 });
  });

  test("openStream().sends delivers its script on the GET stream when it opens", async () => {
    const mock = await McpMock.start({ tools, onUnmatched: "silent" });
    await using _mock = mock;
    mock.openStream().sends((s) => s.log("notice", "welcome").notify("notifications/message", { level: "info", data: "second" }));
    const client = await sdk(kind, mock.url);
    try {
      await vi.waitFor(() => expect(client.seen.logs).toEqual([{ level: "notice", data: "welcome" }, { level: "info", data: "second" }]), { timeout: 2000, interval: 5 });
    } finally {
      await client.close();
    }
  });

  test("a client notification (notifications/roots/list_changed) is journaled", async () => {
    await using ctx = await setup(kind);
    await ctx.client.sendRootsListChanged();
    const entry = await ctx.mock.waitFor(method("notifications/roots/list_changed"));
    expect(entry).toMatchObject({ kind: "notification", method: "notifications/roots/list_changed", sessionId: ctx.client.sessionId(), unmatched: false });
  });
});

describe("pushes to several sessions", () => {
  test("notify without a session reaches every client; with { sessionId } only that one", async () => {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
    const v1 = await sdk("v1", mock.url);
    const v2 = await sdk("v2", mock.url);
    try {
      await streamsOpen(mock, 2);
      const reached = await mock.notify("notifications/message", { level: "info", data: "to all" });
      expect(reached.sort()).toEqual(["session-1", "session-2"]);
      await vi.waitFor(() => {
        expect(v1.seen.logs).toEqual([{ level: "info", data: "to all" }]);
        expect(v2.seen.logs).toEqual([{ level: "info", data: "to all" }]);
      }, { timeout: 1000, interval: 5 });

      const target = v2.sessionId() as string;
      await expect(mock.notify("notifications/message", { level: "info", data: "only v2" }, { sessionId: target })).resolves.toEqual([target]);
      await vi.waitFor(() => expect(v2.seen.logs).toHaveLength(2), { timeout: 1000, interval: 5 });
      expect(v2.seen.logs[1]).toEqual({ level: "info", data: "only v2" });
      // Give a wrongly broadcast message time to arrive before checking it did not.
      await new Promise((r) => setTimeout(r, 50));
      expect(v1.seen.logs).toEqual([{ level: "info", data: "to all" }]);
    } finally {
      await v1.close();
      await v2.close();
    }
  });

  test("mock.request with several sessions open must say which", async () => {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
    const v1 = await sdk("v1", mock.url);
    const v2 = await sdk("v2", mock.url);
    try {
      await streamsOpen(mock, 2);
      await expect(mock.request("roots/list")).rejects.toThrow(/2 sessions are open \(session-1, session-2\); say which/);
      await expect(mock.request("roots/list", undefined, { sessionId: v2.sessionId() as string })).resolves.toEqual(ROOTS);
      expect(v2.seen.requests).toHaveLength(1);
      expect(v1.seen.requests).toHaveLength(0);
    } finally {
      await v1.close();
      await v2.close();
    }
  });

  test("notify to an unknown session rejects at once, naming the open ones", async () => {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
    const client = await sdk("v1", mock.url);
    try {
      const started = performance.now();
      const error = await rejection(mock.notify("notifications/message", { level: "info", data: "x" }, { sessionId: "session-99" }));
      expect(performance.now() - started).toBeLessThan(200);
      expect(error).toBeInstanceOf(McpMockError);
      expect(error.message).toBe('[mcpmock] notify("notifications/message"): there is no session "session-99". Open sessions: session-1.');
    } finally {
      await client.close();
    }
  });

  test("notify with no client connected rejects after its timeout", async () => {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
    const error = await rejection(mock.notify("notifications/message", { level: "info", data: "x" }, { timeout: 50 }));
    expect(error.message).toMatch(/no GET stream opened for any session within 50 ms/);
  });

  test("a stateless mock has nowhere to push", async () => {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent", sessions: "stateless" });
    await expect(mock.notify("notifications/message", { level: "info", data: "x" })).rejects.toThrow(/a stateless mock has no sessions and no GET streams to push to/);
  });
});

describe("answers from the wrong session", () => {
  const rawSession = (url: string) => initializedHeaders(url, { roots: {} });

  // Guards that a client response resolves only a server request of its own session: another
  // session's response with the same id is journaled as unexpected and the stream waits for
  // the right one.
  test("a response from another session does not answer a session's request", async () => {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent", keepAliveMs: 0 });
    mock.toolsCall("ask").streams((s) => s.request("roots/list").result((call: StreamCall) => JSON.stringify(call.answer)));
    const a = await rawSession(mock.url);
    const b = await rawSession(mock.url);
    const response = await fetch(mock.url, { method: "POST", headers: a, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ask", arguments: {} } }) });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes('"roots/list"')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const id = (JSON.parse(/^data: (\{.*"roots\/list".*)$/m.exec(text)?.[1] ?? "{}") as { id?: number }).id;
    const answer = (headers: Record<string, string>, uri: string) =>
      fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id, result: { roots: [{ uri }] } }) });
    expect((await answer(b, "file:///b")).status).toBe(202);
    expect((await answer(a, "file:///a")).status).toBe(202);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toContain("file:///a");
    expect(text).not.toContain("file:///b");
    const [fromB] = mock.unmatched().filter((e) => e.kind === "response");
    expect(fromB).toMatchObject({ kind: "response", id, method: undefined, sessionId: b["mcp-session-id"], unmatched: true, params: { roots: [{ uri: "file:///b" }] } });
    expect(fromB?.missReport).toEqual(expect.any(String));
    const answers = mock.findRequests(method("roots/list")).filter((e) => e.kind === "response");
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ sessionId: a["mcp-session-id"], unmatched: false, params: { roots: [{ uri: "file:///a" }] } });
  });
});
