/**
 * Faults: answers that are wrong on purpose, seen by the real SDK clients (v1 and v2) and,
 * byte for byte, by raw fetch. Client calls here use the SDK Client directly, to pass a short
 * request timeout (300 ms) for the faults that never deliver an answer.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { describe, expect, test } from "vitest";
import { McpMock, McpMockError, toolsCall, type McpMockOptions } from "../../src/index.js";
import { CLIENT_KINDS, connect, textOf, type ClientKind } from "../support/clients.js";
import { startWithClient } from "../support/setup.js";

const tools = [
  { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } },
  { name: "flaky", inputSchema: { type: "object" } },
] as const;

const TIMEOUT = 300;

interface SdkClient {
  /** Errors the client reported outside a call (e.g. a response for an unknown id). */
  readonly errors: Error[];
  call(name: string, args?: Record<string, unknown>, timeout?: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** The SDK client of each major version, connected to `url`, with a per-call timeout. */
async function sdkClient(kind: ClientKind, url: string): Promise<SdkClient> {
  const errors: Error[] = [];
  if (kind === "v1") {
    const client = new ClientV1({ name: "faults-test", version: "1.0.0" });
    client.onerror = (e) => errors.push(e);
    await client.connect(new TransportV1(new URL(url)));
    return {
      errors,
      call: (name, args = {}, timeout = 5000) => client.callTool({ name, arguments: args }, undefined, { timeout }) as Promise<Record<string, unknown>>,
      close: () => client.close(),
    };
  }
  const client = new ClientV2({ name: "faults-test", version: "1.0.0" });
  client.onerror = (e: Error) => errors.push(e);
  await client.connect(new TransportV2(new URL(url)));
  return {
    errors,
    call: (name, args = {}, timeout = 5000) => client.callTool({ name, arguments: args }, { timeout }) as Promise<Record<string, unknown>>,
    close: () => client.close(),
  };
}

const setup = (kind: ClientKind, options: McpMockOptions<typeof tools> = {}) =>
  startWithClient({ tools, onUnmatched: "silent", ...options }, (url) => sdkClient(kind, url));

/** How a promise settled, and after how long. */
async function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T; ms: number } | { ok: false; error: Error & Record<string, unknown>; ms: number }> {
  const started = performance.now();
  try {
    const value = await promise;
    return { ok: true, value, ms: performance.now() - started };
  } catch (error) {
    return { ok: false, error: error as Error & Record<string, unknown>, ms: performance.now() - started };
  }
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

const modes = ["json", "sse"] as const;
const matrix = CLIENT_KINDS.flatMap((kind) => modes.map((responseMode) => ({ kind, responseMode })));

describe.each(matrix)("faults seen by the $kind client ($responseMode answers)", ({ kind, responseMode }) => {
  test('fails("connection-reset"): the call rejects, and the mock answers the next call and a new client', async () => {
    await using ctx = await setup(kind, { responseMode });
    ctx.mock.toolsCall("flaky").respondsWith("recovered");
    ctx.mock.toolsCall("flaky").once().fails("connection-reset"); // newer, so it answers first
    const first = await settle(ctx.client.call("flaky"));
    expect(first.ok).toBe(false);
    expect(first.ms).toBeLessThan(TIMEOUT); // it fails at once, not by timing out
    expect(textOf(await ctx.client.call("flaky"))).toBe("recovered");
    const other = await connect(kind, ctx.mock.url);
    expect(textOf(await other.callTool("flaky", {}))).toBe("recovered");
    await other.close();
    expect(ctx.mock.findRequests(toolsCall("flaky")).map((e) => e.answer)).toEqual([
      { fault: "connection-reset" },
      expect.objectContaining({ result: { content: [{ type: "text", text: "recovered" }] } }),
      expect.objectContaining({ result: { content: [{ type: "text", text: "recovered" }] } }),
    ]);
  });

  test('fails("empty-response"): the call rejects on the empty body', async () => {
    await using ctx = await setup(kind, { responseMode });
    ctx.mock.toolsCall("flaky").respondsWith("recovered");
    ctx.mock.toolsCall("flaky").once().fails("empty-response"); // newer, so it answers first
    const first = await settle(ctx.client.call("flaky"));
    expect(first.ok).toBe(false);
    if (!first.ok) expect(first.error.message).toMatch(/JSON/);
    expect(textOf(await ctx.client.call("flaky"))).toBe("recovered");
  });

  test('fails("malformed-json"): the call rejects on the cut-off JSON', async () => {
    await using ctx = await setup(kind, { responseMode });
    ctx.mock.toolsCall("flaky").respondsWith("recovered");
    ctx.mock.toolsCall("flaky").once().fails("malformed-json"); // newer, so it answers first
    const first = await settle(ctx.client.call("flaky"));
    expect(first.ok).toBe(false);
    if (!first.ok) expect(first.error.message).toMatch(/JSON/);
    expect(textOf(await ctx.client.call("flaky"))).toBe("recovered");
  });

  test('fails("duplicate-response"): the call resolves once; the client reports the duplicate as a response for an unknown id', async () => {
    await using ctx = await setup(kind, { responseMode });
    ctx.mock.toolsCall("flaky").fails("duplicate-response");
    const first = await settle(ctx.client.call("flaky"));
    expect(first.ok).toBe(true);
    if (first.ok) expect(first.value).toEqual({ content: [] });
    await tick(20);
    // Observed: both SDKs resolve with the first copy and pass the second to onerror.
    expect(ctx.client.errors.map((e) => e.message)).toEqual([expect.stringMatching(/^Received a response for an unknown message ID: \{"jsonrpc":"2.0","id":\d+,"result":\{"content":\[\]\}\}$/)]);
  });

  test('respondsWithStatus(503, "overloaded"): the call rejects with the status and the body', async () => {
    await using ctx = await setup(kind, { responseMode });
    ctx.mock.toolsCall("flaky").respondsWithStatus(503, "overloaded");
    const first = await settle(ctx.client.call("flaky"));
    expect(first.ok).toBe(false);
    if (first.ok) return;
    expect(first.error.message).toContain("overloaded");
    // v1 puts the status in `code`, v2 in `status` (its `code` is a string like CLIENT_HTTP_NOT_IMPLEMENTED)
    if (kind === "v1") expect(first.error["code"]).toBe(503);
    else expect(first.error["status"]).toBe(503);
  });
});

describe.each(CLIENT_KINDS)("faults that never deliver the answer, seen by the %s client", (kind) => {
  test('fails("wrong-id"): the answer carries another id, so the call times out', async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("flaky").respondsWith("recovered");
    ctx.mock.toolsCall("flaky").once().fails("wrong-id"); // newer, so it answers first
    const first = await settle(ctx.client.call("flaky", {}, TIMEOUT));
    expect(first.ok).toBe(false);
    if (!first.ok) expect(first.error.message).toMatch(/timed out/i);
    expect(first.ms).toBeGreaterThanOrEqual(TIMEOUT - 10);
    expect(ctx.client.errors.map((e) => e.message)).toEqual([expect.stringMatching(/^Received a response for an unknown message ID: \{"jsonrpc":"2.0","id":\d+,/)]);
    const [entry] = ctx.mock.findRequests(toolsCall("flaky"));
    const sentId = (ctx.client.errors[0]?.message.match(/"id":(\d+)/) ?? [])[1];
    expect(Number(sentId)).toBe((entry?.id as number) + 1_000_000);
    expect(textOf(await ctx.client.call("flaky"))).toBe("recovered");
  });

  test('fails("drop-stream-after", 0): the stream ends without the answer, so the call times out', async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("flaky").respondsWith("recovered");
    ctx.mock.toolsCall("flaky").once().fails("drop-stream-after", 0);
    const first = await settle(ctx.client.call("flaky", {}, TIMEOUT));
    expect(first.ok).toBe(false);
    if (!first.ok) expect(first.error.message).toMatch(/timed out/i);
    expect(first.ms).toBeGreaterThanOrEqual(TIMEOUT - 10);
    expect(ctx.mock.findRequests(toolsCall("flaky"))[0]?.answer).toEqual({ fault: "drop-stream-after" });
    expect(textOf(await ctx.client.call("flaky"))).toBe("recovered");
  });

  // By design: in a session at 2025-11-25 the answer is a resumable event stream (a priming
  // event with an id and `retry:`). The fault drops the connection before the result; the
  // result stays in the stream, so a client that reconnects with GET and Last-Event-ID gets it.
  test('fails("drop-stream-after", 0): a client that resumes the stream gets the result', async () => {
    await using ctx = await setup(kind, { sseRetryMs: 20 });
    ctx.mock.toolsCall("flaky").fails("drop-stream-after", 0);
    const first = await settle(ctx.client.call("flaky", {}, 2_000));
    expect(first.ok).toBe(true);
  });
});

describe("faults are checked at stub time", () => {
  test("a count is for drop-stream-after only", async () => {
    await using mock = await McpMock.start({ tools });
    expect(() => mock.toolsCall("flaky").fails("empty-response", 3)).toThrow(McpMockError);
    expect(() => mock.toolsCall("flaky").fails("empty-response", 3)).toThrow(
      '[mcpmock] toolsCall("flaky"): fails("empty-response") takes no count; only "drop-stream-after" does.',
    );
    expect(() => mock.toolsCall("flaky").fails("drop-stream-after", -1)).toThrow(/n is a count of events \(0 or more\), received -1/);
    expect(() => mock.toolsCall("flaky").fails("drop-stream-after", 1.5)).toThrow(McpMockError);
    expect(mock.toolsCall("flaky").fails("drop-stream-after", 2).toString()).toBe('tools/call "flaky" → the fault drop-stream-after (2 events) (seen 0)');
    expect(mock.toolsCall("flaky").fails("drop-stream-after", 1).toString()).toBe('tools/call "flaky" → the fault drop-stream-after (1 event) (seen 0)');
  });

  test("an unknown fault name is refused with the list of valid ones", async () => {
    await using mock = await McpMock.start({ tools });
    expect(() => mock.toolsCall("flaky").fails("explode" as never)).toThrow(
      '[mcpmock] toolsCall("flaky"): fails takes one of "connection-reset", "empty-response", "malformed-json", "wrong-id", "duplicate-response", "drop-stream-after", received "explode".',
    );
  });

  // A chain step (.once(), .withArgs(...)) returns a copy of the builder; the copy must run the
  // same checks and throw the same McpMockError, naming the chain written so far (a copy that
  // lost a #private brand once threw "TypeError: Receiver must be an instance of class StubBuilder").
  test("the same checks after a chain step throw the same McpMockError", async () => {
    await using mock = await McpMock.start({ tools });
    expect(() => mock.toolsCall("flaky").once().fails("explode" as never)).toThrow(McpMockError);
    expect(() => mock.toolsCall("flaky").once().fails("explode" as never)).toThrow(
      '[mcpmock] toolsCall("flaky").once(): fails takes one of "connection-reset", "empty-response", "malformed-json", "wrong-id", "duplicate-response", "drop-stream-after", received "explode".',
    );
    expect(() => mock.toolsCall("flaky").withArgs({}).priority(2).fails("empty-response", 3)).toThrow(McpMockError);
    expect(() => mock.toolsCall("flaky").withArgs({}).priority(2).fails("empty-response", 3)).toThrow(
      '[mcpmock] toolsCall("flaky").withArgs({}).priority(2): fails("empty-response") takes no count; only "drop-stream-after" does.',
    );
  });

  test("a pattern (not attached to a mock) cannot fail", () => {
    expect(() => toolsCall("flaky").fails("empty-response")).toThrow(/is a pattern, not attached to a mock/);
  });
});

describe("the wire bytes, with raw fetch", () => {
  const HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };

  /** A stateless mock: a tools/call needs no initialize first. */
  async function stateless(options: McpMockOptions<typeof tools> = {}) {
    return McpMock.start({ tools, sessions: "stateless", onUnmatched: "silent", ...options });
  }

  function call(url: string, id: number | string = 7): Promise<Response> {
    return fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "flaky", arguments: {} } }) });
  }

  /** The `data:` lines of an SSE body, in order. */
  function sseData(body: string): string[] {
    return body
      .split("\n\n")
      .filter((frame) => frame.trim() !== "")
      .map((frame) => frame.split("\n").find((line) => line.startsWith("data: "))?.slice(6) ?? `(no data: ${frame})`);
  }

  // Both faults answer application/json in either response mode, so in "sse" mode too the
  // client meets a JSON body it cannot parse (not an SSE stream).
  test.each(modes)("empty-response (%s mode): status 200, application/json, an empty body", async (responseMode) => {
    await using mock = await stateless({ responseMode });
    mock.toolsCall("flaky").fails("empty-response");
    const response = await call(mock.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.text()).toBe("");
  });

  test.each(modes)("malformed-json (%s mode): status 200, application/json, a body that is a prefix of the valid answer and does not parse", async (responseMode) => {
    await using mock = await stateless({ responseMode });
    mock.toolsCall("flaky").fails("malformed-json");
    const response = await call(mock.url, 7);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = await response.text();
    const valid = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [] } });
    expect(body.length).toBeGreaterThan(0);
    expect(body.length).toBeLessThan(valid.length);
    expect(valid.startsWith(body)).toBe(true);
    expect(() => JSON.parse(body)).toThrow(SyntaxError);
  });

  test("duplicate-response in JSON mode, for a single request: an SSE body with the same message twice", async () => {
    await using mock = await stateless({ responseMode: "json" });
    mock.toolsCall("flaky").fails("duplicate-response");
    const response = await call(mock.url, 7);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const data = sseData(await response.text());
    expect(data).toEqual([JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [] } }), JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [] } })]);
  });

  test("wrong-id: a well-formed answer whose id is not the request's", async () => {
    await using mock = await stateless();
    mock.toolsCall("flaky").fails("wrong-id");
    const numeric = (await (await call(mock.url, 7)).json()) as { id: unknown; result: unknown };
    expect(numeric.id).not.toBe(7);
    expect(numeric).toEqual({ jsonrpc: "2.0", id: 1_000_007, result: { content: [] } });
    const text = (await (await call(mock.url, "req-1")).json()) as { id: unknown };
    expect(text.id).not.toBe("req-1");
    expect(text.id).toBe("req-1-wrong");
  });

  test("drop-stream-after 0: an SSE stream that ends with no event at all", async () => {
    await using mock = await stateless();
    mock.toolsCall("flaky").fails("drop-stream-after", 0);
    const response = await call(mock.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toBe("");
  });

  // A plain answer has no events before its result, so the connection drops before the
  // result whatever the count (the count matters for streams(script, { dropAfter })).
  test("drop-stream-after n: the stream ends without the result, whatever the count", async () => {
    await using mock = await stateless();
    mock.toolsCall("flaky").withArgs({ n: 1 }).fails("drop-stream-after", 1);
    mock.toolsCall("flaky").withArgs({ n: 2 }).fails("drop-stream-after", 2);
    const body = async (n: number) =>
      (await fetch(mock.url, { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "flaky", arguments: { n } } }) })).text();
    expect(await body(1)).not.toContain('"result"');
    expect(await body(2)).not.toContain('"result"');
  });

  test("connection-reset: the journal records the fault", async () => {
    await using mock = await stateless();
    mock.toolsCall("flaky").fails("connection-reset");
    await call(mock.url).catch(() => undefined);
    expect(mock.findRequests(toolsCall("flaky"))[0]?.answer).toEqual({ fault: "connection-reset" });
  });

  // The fault destroys the socket: the client gets no HTTP answer at all (undici: "fetch failed",
  // cause UND_ERR_SOCKET "other side closed"), not a complete response such as the "HTTP 500"
  // with an empty body it once got when the server wrapper dropped the node request from fetch.
  test.each(modes)("connection-reset (%s mode): the connection is destroyed without any HTTP answer", async (responseMode) => {
    await using mock = await stateless({ responseMode });
    mock.toolsCall("flaky").fails("connection-reset");
    const error = (await call(mock.url).then(
      (response) => new Error(`fetch resolved with HTTP ${response.status}`),
      (e: unknown) => e,
    )) as Error & { cause?: { code?: string } };
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe("fetch failed");
    expect(error.cause?.code).toBe("UND_ERR_SOCKET");
    // and the mock still answers the next connection
    mock.toolsCall("flaky").respondsWith("recovered");
    const next = await call(mock.url);
    expect(next.status).toBe(200);
    expect(await next.text()).toContain(JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "recovered" }] } }));
  });
});
