/**
 * Every bad input of docs/bad-input.md, one test per row (the test's title starts with the
 * row's id; a row covered by a dedicated file, such as admin-bounds or task-bounds, names that
 * file's test instead): raw `fetch` (or `node:http` where fetch cannot send the input) against a real
 * mock, or an in-process stdio transport, asserting the HTTP status, the JSON-RPC code and the
 * message exactly; then a valid request right after, which must still work. The last test
 * checks the table and this file agree (every row has its test, every test its row).
 *
 * test/transport/http-status.test.ts checks the status codes themselves; the rows here are
 * about bad input, and about the mock staying healthy after it.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, test, vi } from "vitest";
import { McpMock, type McpMockOptions } from "../../src/index.js";
import { ACCEPT_BOTH, nodeRequest as rawRequest, streamOf } from "../support/raw-http.js";
import { Waiters } from "../support/waiters.js";
import { LegacyStream } from "../support/legacy-sse.js";

const SUPPORTED = "2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07";
const INVALID_MESSAGE = "Parse error: Invalid JSON-RPC message";

const tools = [
  { name: "echo", inputSchema: { type: "object" } },
  { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
] as const;
const prompts = [{ name: "greet", arguments: [{ name: "name", required: true }] }];

const initRequest = (protocolVersion = "2025-11-25", id: number | string = 0) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "bad-input", version: "1" } },
});
const ping = (id: number | string) => ({ jsonrpc: "2.0", id, method: "ping" });
const call = (id: number | string, name: string, args?: unknown) => ({ jsonrpc: "2.0", id, method: "tools/call", params: args === undefined ? { name } : { name, arguments: args } });

type Body = string | Uint8Array | ReadableStream<Uint8Array> | object;
type HeaderOverrides = Record<string, string | undefined>;

function merge(base: Record<string, string>, overrides: HeaderOverrides): Record<string, string> {
  const out: Record<string, string> = { ...base };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete out[name];
    else out[name] = value;
  }
  return out;
}

function toBody(body: Body): string | Uint8Array | ReadableStream<Uint8Array> {
  return typeof body === "string" || body instanceof Uint8Array || body instanceof ReadableStream ? body : JSON.stringify(body);
}

/** Asserts an HTTP rejection: status, JSON content-type and the exact `id: null` error body. */
async function expectRejection(res: Response, status: number, code: number, message: string, data?: unknown): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/json");
  const error = data === undefined ? { code, message } : { code, message, data };
  expect(JSON.parse(text)).toStrictEqual({ jsonrpc: "2.0", error, id: null });
}

/** Asserts a 200 JSON answer carrying a JSON-RPC error for request `id`. */
async function expectRpcError(res: Response, id: number | string, code: number, message: string, data?: unknown): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/json");
  const error = data === undefined ? { code, message } : { code, message, data };
  expect(JSON.parse(text)).toStrictEqual({ jsonrpc: "2.0", id, error });
}

async function expectEmpty(res: Response, status: number): Promise<void> {
  expect(await res.text()).toBe("");
  expect(res.status).toBe(status);
}

/** A mock with tools and a prompt, one initialized session, and the checks the rows share. */
class Harness {
  readonly mock: McpMock<typeof tools>;
  session: string;
  version: string;
  #healthId = 0;

  private constructor(mock: McpMock<typeof tools>, session: string, version: string) {
    this.mock = mock;
    this.session = session;
    this.version = version;
  }

  static async start(options: McpMockOptions = {}, version = "2025-11-25"): Promise<Harness> {
    const mock = (await McpMock.start({ tools, prompts, onUnmatched: "silent", ...options })) as unknown as McpMock<typeof tools>;
    mock.toolsCall("echo").respondsWith((c) => ({ echoed: c.args }));
    const harness = new Harness(mock, "", version);
    harness.session = await harness.initialize(version);
    return harness;
  }

  get url(): string {
    return this.mock.url;
  }

  /** The session headers a client sends after initialize. */
  get headers(): Record<string, string> {
    return { "mcp-session-id": this.session, "mcp-protocol-version": this.version };
  }

  async initialize(version = this.version): Promise<string> {
    const res = await this.post(initRequest(version), { "mcp-session-id": undefined, "mcp-protocol-version": undefined });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return res.headers.get("mcp-session-id") as string;
  }

  /** POSTs with the SDK client's headers and this session; `headers` override (undefined removes). */
  post(body: Body, headers: HeaderOverrides = {}): Promise<Response> {
    const base = { accept: ACCEPT_BOTH, "content-type": "application/json", ...this.headers };
    return fetch(this.url, { method: "POST", headers: merge(base, headers), body: toBody(body), duplex: "half" } as RequestInit);
  }

  /** A request with any method to any path; `headers` are sent as given. */
  send(method: string, headers: Record<string, string> = {}, path?: string, body?: string): Promise<Response> {
    return fetch(path === undefined ? this.url : new URL(path, this.url).href, { method, headers, ...(body === undefined ? {} : { body }) });
  }

  /** A valid tools/call right after the bad input: answered as stubbed. */
  async healthy(): Promise<void> {
    const id = `health-${++this.#healthId}`;
    const res = await this.post(call(id, "echo", { n: this.#healthId }));
    expect(await res.json()).toStrictEqual({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `{"echoed":{"n":${this.#healthId}}}` }] } });
    expect(res.status).toBe(200);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.mock.close();
  }
}

/** The mock served over stdio on in-process streams. */
class StdioHarness {
  readonly mock: McpMock;
  readonly input = new PassThrough();
  readonly output = new PassThrough();
  readonly log = new PassThrough();
  readonly lines: string[] = [];
  logText = "";
  #pending = "";
  #done: Promise<void>;
  readonly #waiters = new Waiters();

  private constructor(mock: McpMock) {
    this.mock = mock;
    this.output.setEncoding("utf8");
    this.output.on("data", (chunk: string) => {
      this.#pending += chunk;
      let newline: number;
      while ((newline = this.#pending.indexOf("\n")) >= 0) {
        this.lines.push(this.#pending.slice(0, newline));
        this.#pending = this.#pending.slice(newline + 1);
      }
      this.#waiters.wake();
    });
    this.log.setEncoding("utf8");
    this.log.on("data", (chunk: string) => (this.logText += chunk));
    this.#done = mock.serveStdio({ input: this.input, output: this.output, log: this.log });
  }

  static async start(): Promise<StdioHarness> {
    const mock = await McpMock.start({ transport: "none", tools, onUnmatched: "silent" });
    (mock as unknown as McpMock<typeof tools>).toolsCall("echo").respondsWith((c) => ({ echoed: c.args }));
    return new StdioHarness(mock);
  }

  write(text: string): void {
    this.input.write(text);
  }

  /** Resolves with the answer to request `id`. */
  answer(id: number | string, timeout = 2000): Promise<Record<string, unknown>> {
    return this.#waiters.until(
      () => this.lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((m) => m["id"] === id),
      timeout,
      () => `no answer to id ${JSON.stringify(id)} within ${timeout} ms; stdout: ${this.lines.join("\n")}`,
    );
  }

  async initialize(): Promise<void> {
    this.write(`${JSON.stringify(initRequest())}\n`);
    expect(await this.answer(0)).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
  }

  /** A valid tools/call right after: answered, and stdout carried nothing else since `mark`. */
  async healthy(mark: number, id = "health"): Promise<void> {
    this.write(`${JSON.stringify(call(id, "echo", { ok: 1 }))}\n`);
    expect(await this.answer(id)).toStrictEqual({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: '{"echoed":{"ok":1}}' }] } });
    expect(this.lines.slice(mark)).toHaveLength(1);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.input.end();
    await this.#done;
    await this.mock.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Bodies that are not JSON, or not JSON-RPC
// ---------------------------------------------------------------------------------------------

describe("bodies", () => {
  test("B01 malformed JSON is a parse error", async () => {
    await using h = await Harness.start();
    const res = await h.post('{"jsonrpc":"2.0","id":1,');
    await expectRejection(res, 400, -32700, "Parse error: Invalid JSON", "Expected double-quoted property name in JSON at position 24");
    await h.healthy();
  });

  test("B02 an empty body is a parse error", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post(""), 400, -32700, "Parse error: Invalid JSON", "Unexpected end of JSON input");
    await h.healthy();
  });

  test("B03 invalid UTF-8 is a parse error", async () => {
    await using h = await Harness.start();
    const head = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"');
    const res = await h.post(new Uint8Array([...head, 0xc3, 0x28, 0x22, 0x7d, 0x7d]));
    await expectRejection(res, 400, -32700, "Parse error: Invalid JSON", "The body is not valid UTF-8.");
    await h.healthy();
  });

  test("B04 a number body is not a JSON-RPC message", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post("42"), 400, -32700, INVALID_MESSAGE, "a message must be a JSON object, received number");
    await h.healthy();
  });

  test("B05 a string body is not a JSON-RPC message", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post('"ping"'), 400, -32700, INVALID_MESSAGE, "a message must be a JSON object, received string");
    await h.healthy();
  });

  test("B06 a null body is not a JSON-RPC message", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post("null"), 400, -32700, INVALID_MESSAGE, "a message must be a JSON object, received null");
    await h.healthy();
  });

  test("B07 an array of numbers is not a batch of messages", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post("[1,2,3]"), 400, -32700, INVALID_MESSAGE, "message [0]: a message must be a JSON object, received number");
    await h.healthy();
  });

  test("B08 jsonrpc 1.0 is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post({ jsonrpc: "1.0", id: 1, method: "ping" }), 400, -32700, INVALID_MESSAGE, '"jsonrpc" must be "2.0"');
    await h.healthy();
  });

  test("B09 a missing jsonrpc member is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post({ id: 1, method: "ping" }), 400, -32700, INVALID_MESSAGE, '"jsonrpc" must be "2.0"');
    await h.healthy();
  });

  test("B10 id null is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post({ jsonrpc: "2.0", id: null, method: "ping" }), 400, -32700, INVALID_MESSAGE, '"id" must be a string or an integer, received null');
    await h.healthy();
  });

  test("B11 a float id is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post({ jsonrpc: "2.0", id: 1.5, method: "ping" }), 400, -32700, INVALID_MESSAGE, '"id" must be a string or an integer, received 1.5 (number)');
    await h.healthy();
  });

  test("B12 a boolean id is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post({ jsonrpc: "2.0", id: true, method: "ping" }), 400, -32700, INVALID_MESSAGE, '"id" must be a string or an integer, received true (boolean)');
    await h.healthy();
  });

  test("B13 an object id is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post({ jsonrpc: "2.0", id: { a: 1 }, method: "ping" }), 400, -32700, INVALID_MESSAGE, '"id" must be a string or an integer, received {"a":1} (object)');
    await h.healthy();
  });

  test("B14 an unknown top-level key is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post({ jsonrpc: "2.0", id: 1, method: "ping", extra: true }), 400, -32700, INVALID_MESSAGE, 'unknown top-level key "extra"');
    await h.healthy();
  });

  test("B15 params as an array is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post({ jsonrpc: "2.0", id: 1, method: "ping", params: [1, 2] }), 400, -32700, INVALID_MESSAGE, '"params" must be an object, received array');
    await h.healthy();
  });

  test("B16 params as a string is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post({ jsonrpc: "2.0", id: 1, method: "ping", params: "x" }), 400, -32700, INVALID_MESSAGE, '"params" must be an object, received string');
    await h.healthy();
  });

  test("B17 a method that is not a string is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post({ jsonrpc: "2.0", id: 1, method: 5 }), 400, -32700, INVALID_MESSAGE, '"method" must be a string, received number');
    await h.healthy();
  });

  test("B18 a message with neither method, result nor error is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post({ jsonrpc: "2.0", id: 1 }), 400, -32700, INVALID_MESSAGE, 'a message needs "method" (request or notification), "result" or "error" (response)');
    await h.healthy();
  });

  test("B19 a float progress token is refused", async () => {
    await using h = await Harness.start();
    const res = await h.post({ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { progressToken: 1.5 } } });
    await expectRejection(res, 400, -32700, INVALID_MESSAGE, '"params._meta.progressToken" must be a string or an integer, received number');
    await h.healthy();
  });

  test("B20 an error response with id null is refused", async () => {
    await using h = await Harness.start();
    const res = await h.post({ jsonrpc: "2.0", id: null, error: { code: -32603, message: "client failed" } });
    await expectRejection(res, 400, -32700, INVALID_MESSAGE, '"id" must be a string or an integer, received null');
    await h.healthy();
  });
});

// ---------------------------------------------------------------------------------------------
// Batches
// ---------------------------------------------------------------------------------------------

describe("batches", () => {
  const pings = (n: number) => Array.from({ length: n }, (_, i) => ping(i + 1));

  test("B21 an empty batch is refused", async () => {
    await using h = await Harness.start({}, "2025-03-26");
    await expectRejection(await h.post([]), 400, -32600, "Invalid Request: Empty batch", "A batch must hold at least one message.");
    await h.healthy();
  });

  test("B22 a batch of 101 messages is refused", async () => {
    await using h = await Harness.start({}, "2025-03-26");
    await expectRejection(await h.post(pings(101)), 400, -32600, "Invalid Request: Batch must not exceed 100 messages");
    await h.healthy();
  });

  test("B23 initialize inside a batch is refused", async () => {
    await using h = await Harness.start({}, "2025-03-26");
    const res = await h.post([initRequest("2025-03-26"), ping(1)], { "mcp-session-id": undefined });
    await expectRejection(res, 400, -32600, "Invalid Request: Only one initialization request is allowed");
    expect(h.mock.sessions()).toHaveLength(1);
    await h.healthy();
  });

  test("B24 a batch in a session at 2025-11-25 is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post(pings(2)), 400, -32600, "Invalid Request: Batches are not allowed in protocol version 2025-11-25",
      "Only protocol version 2025-03-26 allows JSON-RPC batches. Send one message per POST.");
    await h.healthy();
  });

  test("B25 a batch under an MCP-Protocol-Version header of 2024-11-05 is refused", async () => {
    await using h = await Harness.start({}, "2025-03-26");
    await expectRejection(await h.post(pings(2), { "mcp-protocol-version": "2024-11-05" }), 400, -32600,
      "Invalid Request: Batches are not allowed in protocol version 2024-11-05",
      "Only protocol version 2025-03-26 allows JSON-RPC batches. Send one message per POST.");
    await h.healthy();
  });

  test("B26 a batch at 2025-03-26 is answered with an array", async () => {
    await using h = await Harness.start({}, "2025-03-26");
    const res = await h.post([ping("a"), { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }, call("b", "echo", { x: 1 })]);
    expect(await res.json()).toStrictEqual([
      { jsonrpc: "2.0", id: "a", result: {} },
      { jsonrpc: "2.0", id: "b", result: { content: [{ type: "text", text: '{"echoed":{"x":1}}' }] } },
    ]);
    expect(res.status).toBe(200);
    await h.healthy();
  });

  test("B27 a batch repeating a request id gets -32600 for the repeat", async () => {
    await using h = await Harness.start({}, "2025-03-26");
    const res = await h.post([ping(1), ping(1)]);
    expect(await res.json()).toStrictEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 1, error: { code: -32600, message: "Invalid Request: duplicate request id in flight",
        data: "[mcpmock] request id 1 is already in flight in session-1; JSON-RPC ids must be unique among pending requests." } },
    ]);
    expect(res.status).toBe(200);
    await h.healthy();
  });
});

// ---------------------------------------------------------------------------------------------
// Lifecycle and sessions
// ---------------------------------------------------------------------------------------------

describe("lifecycle and sessions", () => {
  test("B28 a second initialize with a live session is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post(initRequest()), 400, -32600, "Invalid Request: Server already initialized");
    expect(h.mock.sessions()).toHaveLength(1);
    await h.healthy();
  });

  test("B29 a request before initialize (no session header) is refused", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post(call(1, "echo", {}), { "mcp-session-id": undefined }), 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    await h.healthy();
  });

  test("B30 a notification without a session header is refused", async () => {
    await using h = await Harness.start();
    const res = await h.post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": undefined });
    await expectRejection(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    await h.healthy();
  });

  test("B31 an unknown session id is 404", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post(ping(1), { "mcp-session-id": "session-404" }), 404, -32001, "Session not found");
    await h.healthy();
  });

  test("B32 a deleted session id is 404", async () => {
    await using h = await Harness.start();
    await expectEmpty(await h.send("DELETE", h.headers), 204);
    await expectRejection(await h.post(ping(1)), 404, -32001, "Session not found");
    h.session = await h.initialize();
    await h.healthy();
  });

  test("B33 an expired session id is 404", async () => {
    await using h = await Harness.start({ sessionIdleMs: 100 });
    await new Promise((r) => setTimeout(r, 150));
    await expectRejection(await h.post(ping(1)), 404, -32001, "Session not found");
    h.session = await h.initialize();
    await h.healthy();
  });

  test("B34 an evicted session id is 404", async () => {
    await using h = await Harness.start({ maxSessions: 2 });
    const first = h.session;
    await h.initialize();
    h.session = await h.initialize();
    await expectRejection(await h.post(ping(1), { "mcp-session-id": first }), 404, -32001, "Session not found");
    await h.healthy();
  });

  test("B35 an unsupported MCP-Protocol-Version header is refused", async () => {
    await using h = await Harness.start();
    const res = await h.post(ping(1), { "mcp-protocol-version": "1999-01-01" });
    await expectRejection(res, 400, -32000, `Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: ${SUPPORTED})`);
    await h.healthy();
  });

  test("B36 initialize asking for an unknown version gets the latest", async () => {
    await using h = await Harness.start();
    const res = await h.post(initRequest("1999-01-01"), { "mcp-session-id": undefined, "mcp-protocol-version": undefined });
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBe("session-2");
    await h.healthy();
  });

  test("B37 a 2026-07-28 request without its _meta envelope gets 400, -32602, naming what is missing", async () => {
    await using h = await Harness.start();
    const res = await h.post({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} }, { "mcp-session-id": undefined, "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32602, message: "Invalid params: the MCP-Protocol-Version header names protocol revision 2026-07-28, but the request is missing the required per-request envelope key(s): _meta", data: { envelope: { missing: ["_meta"] } } },
    });
    await h.healthy();
  });
});

// ---------------------------------------------------------------------------------------------
// Headers
// ---------------------------------------------------------------------------------------------

describe("headers", () => {
  test("B38 a POST without Accept is 406", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post(ping(1), { accept: undefined }), 406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream");
    await h.healthy();
  });

  test("B39 a POST accepting application/* and text/* is 406", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post(ping(1), { accept: "application/*, text/*" }), 406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream");
    await h.healthy();
  });

  test("B40 a POST without Content-Type is 415", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post(ping(1), { "content-type": undefined }), 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    await h.healthy();
  });

  test("B41 a POST with Content-Type application/json-seq is 415", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post(ping(1), { "content-type": "application/json-seq" }), 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    await h.healthy();
  });

  test("B42 a foreign Origin is 403", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.post(ping(1), { origin: "http://evil.example" }), 403, -32000, "Invalid Origin header: http://evil.example",
      'mcpmock allows loopback origins only by default. To allow this one: McpMock.start({ allowedOrigins: ["http://evil.example"] }).');
    await h.healthy();
  });

  test("B43 a foreign Host on a loopback mock is 403 (DNS rebinding)", async () => {
    await using h = await Harness.start();
    const res = await rawRequest(h.url, { headers: { host: "evil.example:1234", accept: ACCEPT_BOTH, "content-type": "application/json", ...h.headers }, body: JSON.stringify(ping(1)) });
    expect(res.status).toBe(403);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(res.body)).toStrictEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32000,
        message: "Invalid Host header: evil.example:1234",
        data: 'mcpmock answers loopback Host names only when it binds a loopback address (DNS-rebinding protection). To allow this one: McpMock.start({ allowedHosts: ["evil.example:1234"] }).',
      },
    });
    // A name that merely starts with 127. is not a loopback literal; names compare case-insensitively.
    for (const host of ["127.0.0.1.evil.example", "127.attacker.example:80"]) {
      const other = await rawRequest(h.url, { headers: { host, accept: ACCEPT_BOTH, "content-type": "application/json", ...h.headers }, body: JSON.stringify(ping(2)) });
      expect([host, other.status, (JSON.parse(other.body) as { error: { message: string } }).error.message]).toEqual([host, 403, `Invalid Host header: ${host}`]);
    }
    expect(h.mock.requests().filter((e) => e.method === "ping")).toHaveLength(0);
    for (const host of ["LOCALHOST", "127.1.2.3:80", "[::1]"]) {
      const loopback = await rawRequest(h.url, { headers: { host, accept: ACCEPT_BOTH, "content-type": "application/json", ...h.headers }, body: JSON.stringify(ping(3)) });
      expect([host, loopback.status]).toEqual([host, 200]);
    }
    await h.healthy();
  });
});

// ---------------------------------------------------------------------------------------------
// HTTP methods, paths, streams
// ---------------------------------------------------------------------------------------------

describe("methods, paths and streams", () => {
  test("B44 a GET without Accept is 406", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.send("GET", h.headers), 406, -32000, "Not Acceptable: Client must accept text/event-stream");
    await h.healthy();
  });

  test("B45 a GET without a session is 400", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.send("GET", { accept: "text/event-stream" }), 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    await h.healthy();
  });

  test("B46 a second GET stream is 409", async () => {
    await using h = await Harness.start();
    const first = new AbortController();
    const open = await fetch(h.url, { headers: { accept: "text/event-stream", ...h.headers }, signal: first.signal });
    try {
      expect(open.status).toBe(200);
      await expectRejection(await h.send("GET", { accept: "text/event-stream", ...h.headers }), 409, -32000, "Conflict: Only one SSE stream is allowed per session");
      await h.healthy();
    } finally {
      first.abort();
    }
  });

  test("B47 a garbled Last-Event-ID is 400", async () => {
    await using h = await Harness.start();
    const res = await h.send("GET", { accept: "text/event-stream", "last-event-id": "not-an-event", ...h.headers });
    await expectRejection(res, 400, -32000, "Invalid event ID format", '[mcpmock] Last-Event-ID "not-an-event" names no stream of session-1 that can be resumed.');
    await h.healthy();
  });

  test("B48 a Last-Event-ID of a stream still connected is 409", async () => {
    await using h = await Harness.start();
    const first = new AbortController();
    const open = await fetch(h.url, { headers: { accept: "text/event-stream", ...h.headers }, signal: first.signal });
    try {
      expect(open.status).toBe(200);
      const res = await h.send("GET", { accept: "text/event-stream", "last-event-id": "1-0", ...h.headers });
      await expectRejection(res, 409, -32000, "Conflict: Stream already has an active connection");
      await h.healthy();
    } finally {
      first.abort();
    }
  });

  test("B49 PUT and PATCH on the endpoint are 405", async () => {
    await using h = await Harness.start();
    for (const method of ["PUT", "PATCH"]) {
      const res = await h.send(method, { "content-type": "application/json", ...h.headers }, undefined, JSON.stringify(ping(1)));
      expect(res.headers.get("allow")).toBe("GET, POST, DELETE");
      await expectRejection(res, 405, -32000, "Method not allowed.");
    }
    await h.healthy();
  });

  test("B50 HEAD on the endpoint is 405 without a body", async () => {
    await using h = await Harness.start();
    const res = await h.send("HEAD", h.headers);
    expect(res.headers.get("allow")).toBe("GET, POST, DELETE");
    await expectEmpty(res, 405);
    await h.healthy();
  });

  test("B51 an OPTIONS preflight from a loopback origin is 204 with CORS headers", async () => {
    await using h = await Harness.start();
    const res = await h.send("OPTIONS", { origin: "http://localhost:5173", "access-control-request-method": "POST", "access-control-request-headers": "content-type, mcp-session-id" });
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(res.headers.get("access-control-allow-methods")).toBe("GET,POST,DELETE");
    expect(res.headers.get("access-control-allow-headers")?.split(",")).toEqual(expect.arrayContaining(["content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id"]));
    await expectEmpty(res, 204);
    await h.healthy();
  });

  test("B52 an OPTIONS preflight from a foreign origin is 403", async () => {
    await using h = await Harness.start();
    const res = await h.send("OPTIONS", { origin: "https://evil.example", "access-control-request-method": "POST" });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    await expectRejection(res, 403, -32000, "Invalid Origin header: https://evil.example",
      'mcpmock allows loopback origins only by default. To allow this one: McpMock.start({ allowedOrigins: ["https://evil.example"] }).');
    await h.healthy();
  });

  test("B53 a DELETE without a session is 400", async () => {
    await using h = await Harness.start();
    await expectRejection(await h.send("DELETE"), 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    await h.healthy();
  });

  test("B54 an unknown path is 404 naming the endpoint", async () => {
    await using h = await Harness.start();
    const res = await h.send("POST", { accept: ACCEPT_BOTH, "content-type": "application/json" }, "/rpc", JSON.stringify(initRequest()));
    await expectRejection(res, 404, -32000, "Not Found: /rpc", "This is an mcpmock server; its MCP endpoint is /mcp (POST, GET, DELETE).");
    await h.healthy();
  });

  test("B55 a /.well-known probe is 404", async () => {
    await using h = await Harness.start();
    const res = await h.send("GET", {}, "/.well-known/oauth-authorization-server");
    await expectRejection(res, 404, -32000, "Not Found: /.well-known/oauth-authorization-server", "This is an mcpmock server; its MCP endpoint is /mcp (POST, GET, DELETE).");
    await h.healthy();
  });
});

// ---------------------------------------------------------------------------------------------
// Sizes
// ---------------------------------------------------------------------------------------------

describe("sizes", () => {
  test("B56 a body over 4 MiB with a content-length is 413", async () => {
    await using h = await Harness.start();
    const res = await h.post(" ".repeat(4 * 1024 * 1024 + 1));
    await expectRejection(res, 413, -32000, "Payload Too Large: Request body must not exceed 4194304 bytes");
    await h.healthy();
  });

  test("B57 a chunked body over maxBodyBytes is 413 and the connection closes", async () => {
    await using h = await Harness.start({ maxBodyBytes: 1000 });
    const res = await h.post(streamOf(JSON.stringify(ping(1)), " ".repeat(600), " ".repeat(600)));
    expect(res.headers.get("connection")).toBe("close");
    await expectRejection(res, 413, -32000, "Payload Too Large: Request body must not exceed 1000 bytes");
    await h.healthy();
  });

  test("B58 maxBodyBytes is configurable", async () => {
    await using h = await Harness.start({ maxBodyBytes: 2048 });
    const over = await h.post(JSON.stringify(call(1, "echo", { s: "x".repeat(2100) })));
    await expectRejection(over, 413, -32000, "Payload Too Large: Request body must not exceed 2048 bytes");
    const under = await h.post(JSON.stringify(call(2, "echo", { s: "x".repeat(1900) })));
    expect(await under.json()).toMatchObject({ id: 2, result: { content: [{ type: "text" }] } });
    await h.healthy();
  });

  test("B59 headers over 16 KiB are 431 from Node, without a body", async () => {
    await using h = await Harness.start();
    const res = await rawRequest(h.url, { headers: { accept: ACCEPT_BOTH, "content-type": "application/json", ...h.headers, "x-padding": "a".repeat(20_000) }, body: JSON.stringify(ping(1)) });
    expect(res.status).toBe(431);
    expect(res.headers["connection"]).toBe("close");
    expect(res.body).toBe("");
    await h.healthy();
  });

  test("B60 a 3 MiB string in params (within the limit) is answered", async () => {
    await using h = await Harness.start();
    const mock = h.mock as unknown as McpMock;
    mock.declareTool({ name: "size", inputSchema: { type: "object" } });
    mock.toolsCall("size").respondsWith((c) => ({ length: String(c.args["s"]).length }));
    const started = performance.now();
    const res = await h.post(call(1, "size", { s: "é".repeat(1_500_000) }));
    expect(await res.json()).toStrictEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: '{"length":1500000}' }] } });
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(3000);
    await h.healthy();
  });
});

// ---------------------------------------------------------------------------------------------
// The dispatcher
// ---------------------------------------------------------------------------------------------

const nested = (levels: number): unknown => (levels === 0 ? 1 : { a: nested(levels - 1) });

describe("the dispatcher", () => {
  // One nesting limit, checked when the message is parsed (src/protocol/jsonrpc.ts): the
  // message, its params, then arguments up to 512 deep (withArgs' limit). Before, arguments
  // 513 deep were answered and journaled, and verify() or the admin API overflowed on them.
  test("B61 tools/call arguments nested deeper than 512 are refused when parsed", async () => {
    await using h = await Harness.start();
    h.mock.toolsCall("echo").withArgsMatching((args) => "a" in args).respondsWith("deep");
    const res = await h.post(call(1, "echo", nested(513)));
    await expectRejection(res, 400, -32700, INVALID_MESSAGE,
      "a message must not nest objects and arrays deeper than 514 levels (512 within params.arguments); send a flatter value");
    expect(h.mock.requests().filter((e) => e.id === 1)).toEqual([]);
    const ok = await h.post(call(2, "echo", nested(512)));
    expect(await ok.json()).toStrictEqual({ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "deep" }] } });
    await h.healthy();
  });

  // Before: an id 5,000 deep was HTTP 500 "RangeError: Maximum call stack size exceeded".
  test("B62 an id nested 5,000 deep is refused when parsed, not a stack overflow", async () => {
    await using h = await Harness.start();
    const deepId = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const res = await h.post(`{"jsonrpc":"2.0","id":${deepId},"method":"ping"}`);
    await expectRejection(res, 400, -32700, INVALID_MESSAGE,
      "a message must not nest objects and arrays deeper than 514 levels (512 within params.arguments); send a flatter value");
    const batch = await h.post(`[{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}}]`, { "mcp-protocol-version": "2025-03-26" });
    await expectRejection(batch, 400, -32700, INVALID_MESSAGE,
      "message [0]: a message must not nest objects and arrays deeper than 514 levels (512 within params.arguments); send a flatter value");
    await h.healthy();
  });

  test("B63 a response to a request never sent is 202 and journaled as unmatched", async () => {
    await using h = await Harness.start();
    await expectEmpty(await h.post({ jsonrpc: "2.0", id: 999, result: { answer: 1 } }), 202);
    const [entry] = h.mock.unmatched();
    expect(entry).toMatchObject({ kind: "response", id: 999, method: undefined, params: { answer: 1 }, unmatched: true,
      missReport: "[mcpmock] a response to id 999, which the mock never sent (or already had answered)." });
    await h.healthy();
  });

  test("B64 a duplicate request id in flight gets -32600", async () => {
    await using h = await Harness.start();
    h.mock.toolsCall("echo").withArgs({ slow: true }).withDelay(300).respondsWith("slow");
    const first = h.post(call(7, "echo", { slow: true }));
    await h.mock.waitFor(h.mock.toolsCall("echo").withArgs({ slow: true }));
    const second = await h.post(call(7, "echo", { slow: true }));
    await expectRpcError(second, 7, -32600, "Invalid Request: duplicate request id in flight",
      "[mcpmock] request id 7 is already in flight in session-1; JSON-RPC ids must be unique among pending requests.");
    expect(await (await first).json()).toStrictEqual({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "slow" }] } });
    await h.healthy();
  });

  test("B65 tools/call without a name gets -32602", async () => {
    await using h = await Harness.start();
    await expectRpcError(await h.post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { arguments: {} } }), 1, -32602,
      "[mcpmock] tools/call needs params.name (the tool's name, a string), received undefined.");
    await h.healthy();
  });

  test("B66 tools/call with arguments that are not an object gets -32602", async () => {
    await using h = await Harness.start();
    await expectRpcError(await h.post(call(1, "echo", [1])), 1, -32602, "[mcpmock] tools/call params.arguments must be an object, received [1].");
    await h.healthy();
  });

  test("B67 tools/call of an unknown tool gets -32602", async () => {
    await using h = await Harness.start();
    await expectRpcError(await h.post(call(1, "nope", {})), 1, -32602, "Unknown tool: nope", { unknownTool: "nope", declaredTools: ["echo", "add"] });
    await h.healthy();
  });

  // Before: the name came back whole three times (a 3 MB answer for a 1 MB name), and the
  // did-you-mean compared it with every known method character by character (seconds of a held
  // server, more for a longer name).
  test("B129 a method name of a million characters gets -32601, its report showing the name cut", async () => {
    await using h = await Harness.start();
    const res = await h.post({ jsonrpc: "2.0", id: 1, method: "x".repeat(1_000_000) });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text.length).toBeLessThan(2_000);
    const { error } = JSON.parse(text) as { error: { code: number; message: string; data: string } };
    expect(error.code).toBe(-32601);
    expect(error.message).toBe("Method not found");
    expect(error.data).toBe(`[mcpmock] No stub answers "${"x".repeat(198)}… with no params.\nNothing is stubbed for it (a method name of 1000000 characters).`);
    await h.healthy();
  });

  test("B130 tools/call of an undeclared tool name of a million characters gets -32602, the name cut in the message", async () => {
    await using h = await Harness.start();
    const name = "y".repeat(1_000_000);
    const res = await h.post(call(1, name, {}));
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text.length).toBeLessThan(1_000_400); // the name once, in data (it was twice)
    const { error } = JSON.parse(text) as { error: { code: number; message: string; data: Record<string, unknown> } };
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(`Unknown tool: "${"y".repeat(198)}…`);
    expect(error.data).toStrictEqual({ unknownTool: name, declaredTools: ["echo", "add"] });
    expect(h.mock.unmatched().at(-1)?.missReport).toBe(`[mcpmock] tools/call "${"y".repeat(198)}…: no such tool is declared (declared: echo, add). The name is 1000000 characters long: no declaration is suggested.`);
    await h.healthy();
  });

  test("B131 resources/read of a URI of a million characters gets -32002, its report showing the URI cut", async () => {
    await using h = await Harness.start();
    const uri = `test://${"z".repeat(1_000_000)}`;
    const res = await h.post({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri } });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text.length).toBeLessThan(1_004_000); // the URI once, in data.uri (it was four times)
    const { error } = JSON.parse(text) as { error: { code: number; message: string; data: { uri: string; report: string } } };
    expect(error.code).toBe(-32002);
    expect(error.message).toBe("Resource not found");
    expect(error.data.uri).toBe(uri);
    expect(error.data.report).toBe(`[mcpmock] No resource answers resources/read ${JSON.stringify(uri).slice(0, 1_999)}….\nDeclared: none. Stubbed: none.\nThe URI is ${uri.length} characters long: no stub is suggested.`);
    await h.healthy();
  });

  test("B68 tools/call with arguments that break the inputSchema gets an isError result", async () => {
    await using h = await Harness.start();
    h.mock.toolsCall("add").respondsWith("added");
    const res = await h.post(call(1, "add", { a: "one" }));
    const body = (await res.json()) as { result: { isError: boolean; content: Array<{ text: string }> } };
    expect(res.status).toBe(200);
    expect(body.result.isError).toBe(true);
    expect(body.result.content[0]?.text).toMatch(/^\[mcpmock\] tool "add" rejected the arguments \{"a":"one"\}: they do not match its inputSchema\./);
    await h.healthy();
  });

  test("B69 an unknown method gets -32601", async () => {
    await using h = await Harness.start();
    await expectRpcError(await h.post({ jsonrpc: "2.0", id: 1, method: "tools/frobnicate" }), 1, -32601, "Method not found", expect.stringContaining('No stub answers "tools/frobnicate"'));
    await h.healthy();
  });

  test("B70 prompts/get missing a required argument gets -32602", async () => {
    await using h = await Harness.start();
    const res = await h.post({ jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "greet", arguments: {} } });
    await expectRpcError(res, 1, -32602, 'Invalid params: prompt "greet" requires the argument "name"',
      '[mcpmock] Invalid params: prompt "greet" requires the argument "name". If the rejection is intended, stub these arguments: mock.promptsGet("greet").withArgs({}).respondsWith(...)');
    await h.healthy();
  });

  test("B71 prompts/get of an unknown prompt gets -32602", async () => {
    await using h = await Harness.start();
    const res = await h.post({ jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "nope" } });
    await expectRpcError(res, 1, -32602, "Unknown prompt: nope", { unknownPrompt: "nope", declaredPrompts: ["greet"] });
    await h.healthy();
  });

  test("B72 resources/read of an unknown URI gets -32002", async () => {
    await using h = await Harness.start();
    const res = await h.post({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "test://nope" } });
    await expectRpcError(res, 1, -32002, "Resource not found", {
      uri: "test://nope",
      knownUris: [],
      report: '[mcpmock] No resource answers resources/read "test://nope".\nDeclared: none. Stubbed: none.\nTo answer it: mock.resourcesRead("test://nope").respondsWith({ text: "..." })',
    });
    await h.healthy();
  });

  test("B73 resources/read without a uri gets -32602", async () => {
    await using h = await Harness.start();
    const res = await h.post({ jsonrpc: "2.0", id: 1, method: "resources/read", params: {} });
    await expectRpcError(res, 1, -32602, "[mcpmock] resources/read needs params.uri (a string), received undefined.");
    await h.healthy();
  });

  test("B74 an invalid cursor gets -32602", async () => {
    await using h = await Harness.start();
    const res = await h.post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: "not-a-cursor" } });
    await expectRpcError(res, 1, -32602, "Invalid params: invalid cursor", '[mcpmock] "not-a-cursor" is not a cursor this mock gave for tools/list.');
    await h.healthy();
  });

  test("B75 an invalid log level gets -32602", async () => {
    await using h = await Harness.start();
    const res = await h.post({ jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level: "loud" } });
    await expectRpcError(res, 1, -32602, "Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, emergency");
    expect(h.mock.sessions()[0]?.logLevel).toBeUndefined();
    await h.healthy();
  });

  test("B76 a notification with an unknown method is 202 and journaled", async () => {
    await using h = await Harness.start();
    await expectEmpty(await h.post({ jsonrpc: "2.0", method: "notifications/whatever", params: { x: 1 } }), 202);
    expect(h.mock.requests().filter((e) => e.method === "notifications/whatever")).toMatchObject([{ kind: "notification", params: { x: 1 }, unmatched: false }]);
    await h.healthy();
  });
});

// ---------------------------------------------------------------------------------------------
// stdio
// ---------------------------------------------------------------------------------------------

describe("stdio", () => {
  test("B77 stdio: a line that is not JSON gets no answer and a log line", async () => {
    await using s = await StdioHarness.start();
    await s.initialize();
    const mark = s.lines.length;
    s.write("this is not json\n");
    await s.healthy(mark);
    expect(s.logText).toBe("[mcpmock] ignored a line that is not JSON (as the SDK does): this is not json\n");
  });

  test("B78 stdio: an invalid JSON-RPC message gets no answer and a log line", async () => {
    await using s = await StdioHarness.start();
    await s.initialize();
    const mark = s.lines.length;
    s.write('{"jsonrpc":"2.0","id":null,"method":"ping"}\n');
    await s.healthy(mark);
    expect(s.logText).toBe('[mcpmock] ignored an invalid JSON-RPC message: "id" must be a string or an integer, received null\n');
  });

  test("B79 stdio: a batch at 2025-11-25 is ignored with a log line", async () => {
    await using s = await StdioHarness.start();
    await s.initialize();
    const mark = s.lines.length;
    s.write(`${JSON.stringify([ping(1), ping(2)])}\n`);
    await s.healthy(mark);
    expect(s.logText).toBe("[mcpmock] ignored a batch: protocol version 2025-11-25 has no batches (only 2025-03-26 does).\n");
  });

  // Guards the batch rule before initialize (src/transports/stdio.ts #onLine): stdio used to assume
  // 2025-03-26 before initialize and answer every item of [initialize, ping], opening the
  // session. Initialize comes alone (over HTTP the same batch is 400 -32600, row B23), so any
  // batch before initialize is ignored with a log line; a lone initialize then works.
  test("B80 stdio: initialize inside a batch is not answered", async () => {
    await using s = await StdioHarness.start();
    s.write(`${JSON.stringify([initRequest(), ping(1)])}\n`);
    s.write(`${JSON.stringify([ping(2), ping(3)])}\n`); // any batch before initialize
    s.write(`${JSON.stringify(ping("after"))}\n`);
    await s.answer("after");
    expect(s.lines.map((l) => (JSON.parse(l) as { id: unknown }).id)).toEqual(["after"]);
    expect(s.mock.sessions()).toEqual([]);
    expect(s.logText).toBe("[mcpmock] ignored a batch before initialize: initialize comes alone, and only protocol 2025-03-26 has batches.\n".repeat(2));
    await s.initialize();
    await s.healthy(s.lines.length);
  });

  // An over-long line arriving in pieces: the limit is passed before its newline arrives, so the
  // reader drops it and discards the rest up to the newline (one log line, nothing answered).
  test("B81 stdio: a line over 10 MiB without a newline is dropped with a log line", async () => {
    await using s = await StdioHarness.start();
    await s.initialize();
    const mark = s.lines.length;
    const chunk = "x".repeat(64 * 1024);
    for (let i = 0; i < 161; i++) s.write(chunk);
    s.write(`${JSON.stringify(ping("tail"))}\n`); // the rest of the over-long line: dropped too
    await s.healthy(mark);
    expect(s.logText).toBe("[mcpmock] a line longer than 10485760 bytes was dropped (up to its newline).\n");
  });

  // An over-long line arriving whole, with its newline, in one chunk: dropped before parsing.
  test("B82 stdio: a line over 10 MiB arriving in one chunk is dropped with a log line", async () => {
    await using s = await StdioHarness.start();
    await s.initialize();
    const mark = s.lines.length;
    s.write(`${" ".repeat(10 * 1024 * 1024)}${JSON.stringify(ping("big"))}\n`);
    await s.healthy(mark);
    expect(s.logText).toBe("[mcpmock] a line longer than 10485760 bytes was dropped.\n");
  });

  // The same nesting limit as HTTP (B61, B62): the line is ignored with a log line, as other
  // invalid messages are.
  test("B83 stdio: a message nested deeper than the limit gets no answer and a log line", async () => {
    await using s = await StdioHarness.start();
    await s.initialize();
    const mark = s.lines.length;
    s.write(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":${"[".repeat(100_000)}${"]".repeat(100_000)}}}\n`);
    await s.healthy(mark);
    expect(s.logText).toBe("[mcpmock] ignored an invalid JSON-RPC message: a message must not nest objects and arrays deeper than 514 levels (512 within params.arguments); send a flatter value\n");
    expect(s.mock.requests().filter((e) => e.id === 1)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Limits (issue 20)
// ---------------------------------------------------------------------------------------------

describe("limits", () => {
  // Before: with every session at the cap holding its GET stream, the only session the cap
  // could end was the one just opened: initialize answered 200 with a session id already gone.
  test("B84 initialize when every session at maxSessions holds a GET stream is 503", async () => {
    await using h = await Harness.start({ maxSessions: 2 });
    const held: AbortController[] = [];
    const hold = async (session: string): Promise<void> => {
      const abort = new AbortController();
      const res = await fetch(h.url, { headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }, signal: abort.signal });
      expect(res.status).toBe(200);
      held.push(abort);
    };
    await hold(h.session);
    const second = await h.initialize();
    await hold(second);
    const res = await h.post(initRequest(), { "mcp-session-id": undefined, "mcp-protocol-version": undefined });
    await expectRejection(res, 503, -32000, "Service Unavailable: all 2 sessions (maxSessions) hold an open GET stream",
      "[mcpmock] no session can end to make room for a new one. Raise maxSessions (McpMock.start({ maxSessions: n })), or have clients close their GET streams or DELETE their sessions.");
    expect(h.mock.sessions().map((s) => s.id)).toEqual([h.session, second]);
    held[1]?.abort();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = await h.initialize();
    const list = await h.post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-session-id": third });
    expect(list.status).toBe(200);
    held[0]?.abort();
    await h.healthy();
  });
});

// ---------------------------------------------------------------------------------------------
// Host beyond loopback, and the admin API (issue 20)
// ---------------------------------------------------------------------------------------------

describe("Host beyond loopback, and the admin API", () => {
  test("B85 a foreign Host on a mock bound to 0.0.0.0 is 403 naming the machine's names", async () => {
    let mock: McpMock;
    try {
      mock = await McpMock.start({ host: "0.0.0.0", tools, onUnmatched: "silent" });
    } catch {
      return; // this sandbox cannot bind 0.0.0.0 (security.test.ts skips likewise)
    }
    try {
      const res = await rawRequest(`http://127.0.0.1:${mock.port}/mcp`, { headers: { accept: ACCEPT_BOTH, "content-type": "application/json", host: "evil.example" }, body: JSON.stringify(initRequest()) });
      expect(res.status).toBe(403);
      const body = JSON.parse(res.body) as { error: { code: number; message: string; data: string } };
      expect(body.error).toMatchObject({ code: -32000, message: "Invalid Host header: evil.example" });
      expect(body.error.data).toMatch(/^mcpmock answers this machine's own names only \(localhost, 127\.0\.0\.1, \[::1\], .+\), as it binds 0\.0\.0\.0 \(DNS-rebinding protection\)\. To allow this one: McpMock\.start\(\{ allowedHosts: \["evil\.example"\] \}\) or mcpmock serve --allowed-host evil\.example\.$/);
      const ok = await rawRequest(`http://127.0.0.1:${mock.port}/mcp`, { headers: { accept: ACCEPT_BOTH, "content-type": "application/json" }, body: JSON.stringify(initRequest()) });
      expect(ok.status).toBe(200);
    } finally {
      await mock.close();
    }
  });

  test("B86 an admin request from a browser page not in allowedOrigins is 403", async () => {
    await using h = await Harness.start({ admin: true });
    const res = await fetch(h.url.replace(/\/mcp$/, "/__admin/stubs"), { method: "POST", headers: { origin: "http://localhost:5173", "content-type": "text/plain" }, body: "{}" });
    expect(res.status).toBe(403);
    expect(await res.json()).toStrictEqual({ error: "[mcpmock] the admin API does not answer browsers' cross-origin requests (Origin: http://localhost:5173). To let a page drive it: McpMock.start({ allowedOrigins: [\"http://localhost:5173\"] })." });
    await h.healthy();
  });

  test("B87 an admin write that is not JSON is 415", async () => {
    await using h = await Harness.start({ admin: true });
    const res = await fetch(h.url.replace(/\/mcp$/, "/__admin/reset"), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=1" });
    expect(res.status).toBe(415);
    expect(await res.json()).toStrictEqual({ error: "[mcpmock] admin writes must be sent with content-type: application/json (received application/x-www-form-urlencoded), so a browser page cannot send them without a CORS preflight." });
    await h.healthy();
  });
});

// ---------------------------------------------------------------------------------------------
// Slow clients (issue 20)
// ---------------------------------------------------------------------------------------------

describe("slow clients", () => {
  test("B88 a client that reads nothing of a streamed answer for sseStallMs is dropped", async () => {
    await using h = await Harness.start({ sseStallMs: 300 });
    const frame = "x".repeat(16 * 1024);
    h.mock.toolsCall("add").streams(function* () {
      for (let i = 0; i < 2000; i++) yield { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: frame } };
    });
    const paused = await new Promise<import("node:http").IncomingMessage>((resolve, reject) => {
      const req = httpRequest(h.url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json", ...h.headers } }, (res) => (res.pause(), resolve(res)));
      req.on("error", reject);
      req.end(JSON.stringify(call(1, "add", { a: 1, b: 2 })));
    });
    expect(paused.statusCode).toBe(200);
    const started = Date.now();
    while (h.mock.requests().find((e) => e.id === 1)?.answer === undefined && Date.now() - started < 3000) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(h.mock.requests().find((e) => e.id === 1)?.answer).toStrictEqual({ cancelled: true,
      reason: "the client read nothing for 300 ms (sseStallMs) with the socket's buffer full; the stream was dropped" });
    paused.destroy();
    await h.healthy();
  });
});

describe("the legacy HTTP+SSE endpoints", () => {
  /** A mock, one initialized GET /sse session, and a check that it still answers. */
  async function legacy(options: McpMockOptions = {}): Promise<{ mock: McpMock; stream: LegacyStream; healthy: () => Promise<void>; [Symbol.asyncDispose]: () => Promise<void> }> {
    const mock = await McpMock.start({ onUnmatched: "silent", ...options });
    const stream = await LegacyStream.open(mock.sseUrl);
    await stream.initialize();
    let n = 0;
    const healthy = async (): Promise<void> => {
      const id = `healthy-${++n}`;
      expect((await stream.post(ping(id))).status).toBe(202);
      expect(JSON.parse((await stream.until((e) => e.data.includes(`"id":"${id}"`))).data)).toEqual({ jsonrpc: "2.0", id, result: {} });
    };
    return { mock, stream, healthy, [Symbol.asyncDispose]: async () => (stream.close(), await mock.close()) };
  }
  const messages = (mock: McpMock, query: string, body: object): Promise<Response> =>
    fetch(new URL(`/messages${query}`, mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  test("B89 legacy: a POST to /messages without sessionId is 400", async () => {
    await using l = await legacy();
    await expectRejection(await messages(l.mock, "", ping(1)), 400, -32000, "Bad Request: sessionId query parameter is required", "POST to the URI of the endpoint event that GET /sse sent: /messages?sessionId=...");
    await l.healthy();
  });

  test("B90 legacy: a POST for a session no GET /sse issued is 404", async () => {
    await using l = await legacy();
    await expectRejection(await messages(l.mock, "?sessionId=nope", ping(1)), 404, -32001, "Session not found", "[mcpmock] no GET /sse connection issued session nope. Open one, and POST to the URI of its endpoint event.");
    await l.healthy();
  });

  test("B91 legacy: a POST for a session whose SSE stream is gone is 404", async () => {
    await using l = await legacy();
    const gone = await LegacyStream.open(l.mock.sseUrl);
    gone.close();
    await vi.waitFor(async () => {
      const res = await gone.post(ping(1));
      await expectRejection(res, 404, -32001, "Session not found", "[mcpmock] the SSE stream of session session-2 is gone, and the session ended with it: on the 2024-11-05 transport a session lives as long as its GET /sse connection. Open a new one.");
    }, { timeout: 2000 });
    await l.healthy();
  });

  test("B92 legacy: a POST for a session that expired is 404, and its SSE stream closes", async () => {
    // An initialized session's open stream keeps it alive; one that never initialized idles out.
    await using l = await legacy({ sessionIdleMs: 200 });
    const idle = await LegacyStream.open(l.mock.sseUrl);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expectRejection(await idle.post(ping(1)), 404, -32001, "Session not found", "[mcpmock] session session-2 ended (it expired, or was ended by the mock); its SSE stream is closed now. Open a new one with GET /sse.");
    await idle.settle(() => false);
    expect(idle.ended).toBe(true);
    await l.healthy();
  });

  test("B93 legacy: a POST to /messages for a Streamable HTTP session is 404", async () => {
    await using l = await legacy();
    const res = await fetch(l.mock.url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json" }, body: JSON.stringify(initRequest()) });
    const sessionId = res.headers.get("mcp-session-id") ?? "";
    await res.text();
    await expectRejection(await messages(l.mock, `?sessionId=${sessionId}`, ping(1)), 404, -32001, "Session not found", `[mcpmock] session ${sessionId} is a Streamable HTTP session: POST its messages to the MCP endpoint with an Mcp-Session-Id header.`);
    await l.healthy();
  });

  test("B94 legacy: a POST with Content-Type text/plain is 415", async () => {
    await using l = await legacy();
    const res = await l.stream.post(ping(1), { "content-type": "text/plain" });
    await expectRejection(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    await l.healthy();
  });

  test("B95 legacy: a POST whose body is not JSON is 400", async () => {
    await using l = await legacy();
    await expectRejection(await l.stream.post('{"jsonrpc":"2.0","id":1,'), 400, -32700, "Parse error: Invalid JSON", "Expected double-quoted property name in JSON at position 24");
    await l.healthy();
  });

  test("B96 legacy: a POST that is not a JSON-RPC message is 400", async () => {
    await using l = await legacy();
    await expectRejection(await l.stream.post({ jsonrpc: "2.0", id: null, method: "ping" }), 400, -32700, INVALID_MESSAGE, '"id" must be a string or an integer, received null');
    await l.healthy();
  });

  test("B97 legacy: a POST over maxBodyBytes is 413", async () => {
    await using l = await legacy({ maxBodyBytes: 1000 });
    await expectRejection(await l.stream.post({ ...ping(1), params: { pad: "x".repeat(2000) } }), 413, -32000, "Payload Too Large: Request body must not exceed 1000 bytes");
    await l.healthy();
  });

  test("B98 legacy: a batch at 2024-11-05 is 400", async () => {
    await using l = await legacy();
    await expectRejection(await l.stream.post([ping(1), ping(2)]), 400, -32600, "Invalid Request: Batches are not allowed in protocol version 2024-11-05", "Only protocol version 2025-03-26 allows JSON-RPC batches. Send one message per POST.");
    await l.healthy();
  });
});

// ---------------------------------------------------------------------------------------------
// The newest surfaces (issue 33): OAuth, tasks, requestState, the admin API
// ---------------------------------------------------------------------------------------------

/** A mock with `auth`, and what its authorization server routes need. */
async function authMock(): Promise<McpMock & AsyncDisposable> {
  return (await McpMock.start({ auth: true, tools, onUnmatched: "silent" })) as McpMock & AsyncDisposable;
}

const CALLBACK = "http://127.0.0.1:9/cb";

function postForm(mock: McpMock, path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL(path, mock.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body });
}

async function registered(mock: McpMock): Promise<string> {
  const res = await fetch(new URL("/register", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [CALLBACK] }) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

/** A code for a fresh client, and the form that exchanges it. */
async function exchangeForm(mock: McpMock): Promise<string> {
  const clientId = await registered(mock);
  const verifier = "v".repeat(43);
  const url = new URL("/authorize", mock.url);
  const q = { response_type: "code", client_id: clientId, redirect_uri: CALLBACK, code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256", resource: mock.url };
  for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
  const code = new URL((await fetch(url, { redirect: "manual" })).headers.get("location") ?? "").searchParams.get("code") ?? "";
  return `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(CALLBACK)}&client_id=${clientId}&code_verifier=${verifier}`;
}

async function expectOAuthError(res: Response, status: number, error: string, description: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(await res.json()).toStrictEqual({ error, error_description: description });
}

const V26 = "2026-07-28";
function modern(url: string, method: string, params: Record<string, unknown>): Promise<Response> {
  const name = params["name"] ?? params["taskId"];
  // The tasks methods need the tasks extension declared (else 400/-32021, before any task is looked up).
  const _meta = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, ...(method.startsWith("tasks/") ? { extensions: { "io.modelcontextprotocol/tasks": {} } } : {}) } };
  return fetch(url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json", "mcp-protocol-version": V26, "mcp-method": method, ...(typeof name === "string" ? { "mcp-name": name } : {}) }, body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { ...params, _meta } }) });
}

/** The last message of a JSON or SSE answer. */
function lastMessage(text: string): unknown {
  return JSON.parse(text.startsWith("event:") ? (text.split("\n").filter((l) => l.startsWith("data: ")).pop() ?? "").slice(6) : text);
}

const taskTools = [{ name: "build", inputSchema: { type: "object" as const }, execution: { taskSupport: "optional" as const } }];

describe("the newest surfaces", () => {
  test("B99 /register refuses a javascript: redirect URI", async () => {
    await using mock = await authMock();
    const res = await fetch(new URL("/register", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: ["javascript:alert(document.domain)"] }) });
    await expectOAuthError(res, 400, "invalid_redirect_uri", `[mcpmock] redirect_uris holds "javascript:alert(document.domain)", which has the scheme javascript:: a redirect URI must be https, or http on a loopback host (localhost, 127.0.0.1, [::1]), without a #fragment.`);
    await registered(mock);
  });

  test("B100 /token with Basic credentials of bad percent-encoding is 401 invalid_client", async () => {
    await using mock = await authMock();
    const res = await postForm(mock, "/token", "grant_type=authorization_code&code=x", { authorization: `Basic ${Buffer.from("%zz:x").toString("base64")}` });
    await expectOAuthError(res, 401, "invalid_client", `[mcpmock] The HTTP Basic credentials are not valid percent-encoding: encode the client_id and client_secret with application/x-www-form-urlencoded, join them with a colon, then base64 (RFC 6749 section 2.3.1).`);
    mock.auth.verify({ endpoint: "token", status: 401, outcome: "invalid_client" }, 1);
    expect((await postForm(mock, "/token", await exchangeForm(mock))).status).toBe(200);
  });

  test("B101 /token with a parameter sent twice is invalid_request", async () => {
    await using mock = await authMock();
    const form = await exchangeForm(mock);
    const res = await postForm(mock, "/token", `${form}&code=again`);
    await expectOAuthError(res, 400, "invalid_request", `[mcpmock] code is sent more than once; send each parameter once (RFC 6749 section 3.2).`);
    expect((await postForm(mock, "/token", form)).status).toBe(200);
  });

  test("B102 /token without grant_type is invalid_request", async () => {
    await using mock = await authMock();
    const form = await exchangeForm(mock);
    const res = await postForm(mock, "/token", form.replace("grant_type=authorization_code&", ""));
    await expectOAuthError(res, 400, "invalid_request", `[mcpmock] grant_type is missing; send grant_type=authorization_code (or refresh_token).`);
    expect((await postForm(mock, "/token", form)).status).toBe(200);
  });

  test("B103 a replayed authorization code is refused and revokes its tokens", async () => {
    await using mock = await authMock();
    const form = await exchangeForm(mock);
    const first = (await (await postForm(mock, "/token", form)).json()) as { access_token: string };
    const res = await postForm(mock, "/token", form);
    await expectOAuthError(res, 400, "invalid_grant", `[mcpmock] The authorization code was used already; the tokens issued for it are revoked now (RFC 6749 section 4.1.2). Authorize again for a new code.`);
    expect(mock.auth.issued().find((t) => t.token === first.access_token)?.revoked).toBe(true);
    expect((await postForm(mock, "/token", await exchangeForm(mock))).status).toBe(200);
  });

  test("B104 the MCP endpoint with Authorization: Basic gets a challenge without an error code", async () => {
    await using mock = await authMock();
    const res = await fetch(mock.url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json", authorization: "Basic dXNlcjpwYXNz" }, body: JSON.stringify(initRequest()) });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).not.toContain("error=");
    expect(await res.json()).toStrictEqual({ error_description: `[mcpmock] This MCP endpoint takes bearer tokens only (the request sent the "Basic" scheme): send Authorization: Bearer <token>.` });
    const ok = await fetch(mock.url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json", authorization: `Bearer ${mock.auth.issueToken()}` }, body: JSON.stringify(initRequest()) });
    expect(ok.status).toBe(200);
  });

  test("B105 a request without a session asking for a session's task gets 'Task not found'", async () => {
    await using h = await Harness.start({ tools: [...tools, ...taskTools] });
    h.mock.toolsCall("build" as never).withDelay(2000).respondsWith("built");
    const created = (await (await h.post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "build", arguments: {}, task: {} } })).json()) as { result: { task: { taskId: string } } };
    const res = await modern(h.url, "tasks/get", { taskId: created.result.task.taskId });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ id: 7, error: { code: -32602, message: "Failed to retrieve task: Task not found" } });
    await h.healthy();
  });

  test("B106 a requestState whose MAC differs only where base64url decoding would not see it is refused", async () => {
    await using h = await Harness.start();
    h.mock.toolsCall("echo").streams((s) => s.request("elicitation/create", { message: "?", requestedSchema: { type: "object" } }).result("done"));
    const first = lastMessage(await (await modern(h.url, "tools/call", { name: "echo", arguments: {} })).text()) as { result: { requestState: string } };
    const state = first.result.requestState;
    const res = await modern(h.url, "tools/call", { name: "echo", arguments: {}, requestState: `${state}=`, inputResponses: {} });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(lastMessage(text)).toMatchObject({ id: 7, error: { code: -32602, message: "Invalid params: requestState was altered, or comes from another mock: echo it byte for byte as the input_required result gave it." } });
  });

  test("B112 with auth, another token sent with a session's id gets 404", async () => {
    await using mock = await authMock();
    const open = await fetch(mock.url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json", authorization: `Bearer ${mock.auth.issueToken({ clientId: "app", subject: "alice" })}` }, body: JSON.stringify(initRequest()) });
    await open.text();
    const session = open.headers.get("mcp-session-id") ?? "";
    const res = await fetch(mock.url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25", authorization: `Bearer ${mock.auth.issueToken({ clientId: "app", subject: "mallory" })}` }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: -32001, message: "Session not found" } });
  });
});

// ---------------------------------------------------------------------------------------------
// The table and this file agree
// ---------------------------------------------------------------------------------------------

interface Row {
  readonly id: string;
  readonly status: string;
  readonly code: string;
  readonly message: string;
  readonly test: string;
  /** Where the row's test is, when not in this file (`test/...`: a dedicated file covers it). */
  readonly file?: string;
}

/** A row's test cell: `` `B01 title` `` in this file, or `` `test/x.test.ts` › `title` `` in another. */
const ELSEWHERE = /^`(test\/[^`]+\.test\.ts)` › `(.+)`$/;

function tableRows(markdown: string): Row[] {
  return markdown
    .split("\n")
    .filter((line) => /^\|\s*B\d+\s*\|/.test(line))
    .map((line) => {
      const cells = line.slice(1, line.lastIndexOf("|")).split("|").map((c) => c.trim());
      expect(cells, line).toHaveLength(7);
      const [id, , status, code, message, , title] = cells as [string, string, string, string, string, string, string];
      const unquote = (s: string) => s.replace(/^`(.*)`$/, "$1");
      const elsewhere = ELSEWHERE.exec(title);
      if (elsewhere) return { id, status, code, message: unquote(message), test: elsewhere[2] as string, file: elsewhere[1] as string };
      return { id, status, code, message: unquote(message), test: unquote(title) };
    });
}

describe("docs/bad-input.md", () => {
  test("every row has a test with its id and exact title, asserting its status, code and message", () => {
    const doc = readFileSync(fileURLToPath(new URL("../../docs/bad-input.md", import.meta.url)), "utf8");
    const source = readFileSync(fileURLToPath(import.meta.url), "utf8");
    const rows = tableRows(doc);
    expect(rows.length).toBeGreaterThanOrEqual(40);
    expect(rows.map((r) => r.id)).toEqual(rows.map((_, i) => `B${String(i + 1).padStart(2, "0")}`));

    // Test titles in this file, by id, and the source of each test.
    const titled = [...source.matchAll(/test(?:\.fails|\.each\([^)]*\))?\(\s*"(B\d+ [^"]+)"/g)];
    const titles = titled.map((m) => m[1] as string);
    const bodyOf = (title: string): string => {
      const at = titled.findIndex((m) => m[1] === title);
      const start = titled[at]?.index ?? 0;
      const end = titled[at + 1]?.index ?? source.indexOf("// The table and this file agree");
      return source.slice(start, end);
    };
    /** The source of the test titled `title` in `file` (a dedicated test file), or "" when there is none. */
    const bodyIn = (file: string, title: string): string => {
      const other = readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), "utf8");
      const start = other.indexOf(`test(${JSON.stringify(title)}`);
      if (start === -1) return "";
      const next = other.slice(start + 1).search(/\n\s*test\(/);
      return other.slice(start, next === -1 ? undefined : start + 1 + next);
    };
    for (const row of rows) {
      let body: string;
      if (row.file !== undefined) {
        body = bodyIn(row.file, row.test);
        expect(body, `${row.id}: no test titled ${JSON.stringify(row.test)} in ${row.file}`).not.toBe("");
      } else {
        expect(row.test.startsWith(`${row.id} `), `${row.id}: its test title must start with the id`).toBe(true);
        expect(titles, `${row.id}: no test titled ${JSON.stringify(row.test)}`).toContain(row.test);
        body = bodyOf(row.test);
      }
      // A dedicated file's JSON-RPC helpers read the answer's body, so a 200 is implied there.
      if (/^\d{3}$/.test(row.status) && !(row.file !== undefined && row.status === "200")) {
        const checked = body.includes(row.status) || (row.status === "200" && body.includes("expectRpcError("));
        expect(checked, `${row.id}: the test does not check status ${row.status}`).toBe(true);
      }
      if (row.code !== "—") expect(body, `${row.id}: the test does not check code ${row.code}`).toContain(row.code);
      if (row.message !== "—") {
        const message = row.message.replace(/\\\|/g, "|");
        const literal = message.includes("${") ? message : message.replace(SUPPORTED, "${SUPPORTED}");
        const found = body.includes(message) || body.includes(literal) || (message === INVALID_MESSAGE && body.includes("INVALID_MESSAGE"));
        expect(found, `${row.id}: the test does not assert the message ${JSON.stringify(message)}`).toBe(true);
      }
    }
    // ...and every test with an id is in the table.
    expect(titles.filter((t) => !rows.some((r) => r.test === t))).toEqual([]);
  });
});
