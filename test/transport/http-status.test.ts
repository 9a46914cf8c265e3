/**
 * Every HTTP status the Streamable HTTP transport answers, checked with raw `fetch` against a
 * real mock: status, content-type and the exact JSON-RPC error body (WIRE.md §2.1, §2.2, §9).
 */
import { describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";
import { ACCEPT_BOTH, streamOf } from "../support/raw-http.js";

const SUPPORTED = "2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07";

const initRequest = (protocolVersion = "2025-11-25") =>
  ({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" } } });
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

type Body = string | Uint8Array | ReadableStream<Uint8Array> | object;

/** POSTs with the SDK client's default headers; `headers` override them. */
function post(url: string, body: Body, headers: Record<string, string> = {}): Promise<Response> {
  const raw = typeof body === "string" || body instanceof Uint8Array || body instanceof ReadableStream ? body : JSON.stringify(body);
  const headersWithDefaults = { accept: ACCEPT_BOTH, "content-type": "application/json", ...headers };
  return fetch(url, { method: "POST", headers: headersWithDefaults, body: raw, duplex: "half" } as RequestInit);
}

/** Initializes a session and returns its id. */
async function initialize(url: string, protocolVersion = "2025-11-25"): Promise<string> {
  const res = await post(url, initRequest(protocolVersion));
  await res.text();
  expect(res.status).toBe(200);
  const id = res.headers.get("mcp-session-id");
  expect(id).toMatch(/^[\x21-\x7e]+$/);
  return id as string;
}

async function jsonOf(res: Response): Promise<unknown> {
  return JSON.parse(await res.text()) as unknown;
}

/** Asserts an HTTP rejection: status, JSON content-type and the exact `id: null` error body. */
async function expectRejection(res: Response, status: number, code: number, message: string, data?: unknown): Promise<void> {
  const text = await res.text();
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/json");
  const error = data === undefined ? { code, message } : { code, message, data };
  expect(JSON.parse(text)).toStrictEqual({ jsonrpc: "2.0", error, id: null });
}

async function expectEmpty(res: Response, status: number): Promise<void> {
  expect(await res.text()).toBe("");
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBeNull();
}

/** Opens the GET stream; the caller must abort `controller` when done. */
function openGet(url: string, headers: Record<string, string>, controller = new AbortController()) {
  return fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: controller.signal }).then((res) => ({ res, controller }));
}

describe("POST", () => {
  test.each(["application/json", "text/event-stream", "*/*"])("406 when Accept is %s", async (accept) => {
    await using mock = await McpMock.start();
    const res = await post(mock.url, initRequest(), { accept });
    await expectRejection(res, 406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream");
  });

  test("415 for a content-type other than application/json", async () => {
    await using mock = await McpMock.start();
    const res = await post(mock.url, initRequest(), { "content-type": "text/plain" });
    await expectRejection(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
  });

  test("application/json with a charset parameter is accepted", async () => {
    await using mock = await McpMock.start();
    const res = await post(mock.url, initRequest(), { "content-type": "application/json; charset=utf-8" });
    expect(await jsonOf(res)).toMatchObject({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25" } });
    expect(res.status).toBe(200);
  });

  test("the media type is read without regard to case or spaces; a missing content-type is 415", async () => {
    await using mock = await McpMock.start();
    const res = await post(mock.url, initRequest(), { "content-type": " Application/JSON ;charset=UTF-8" });
    expect(res.status).toBe(200);
    await res.text();
    const none = await fetch(mock.url, { method: "POST", headers: { accept: "application/json, text/event-stream" }, body: new Blob([JSON.stringify(initRequest())]) });
    await expectRejection(none, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    await expectRejection(await post(mock.url, initRequest(), { "content-type": "application/jsonx" }), 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
  });

  test("413 over maxBodyBytes with a content-length; a body of exactly the limit passes", async () => {
    await using mock = await McpMock.start({ maxBodyBytes: 1000 });
    const over = await post(mock.url, JSON.stringify(initRequest()).padEnd(1001, " "));
    await expectRejection(over, 413, -32000, "Payload Too Large: Request body must not exceed 1000 bytes");
    const exact = await post(mock.url, JSON.stringify(initRequest()).padEnd(1000, " "));
    await exact.text();
    expect(exact.status).toBe(200);
  });

  test("413 over maxBodyBytes with a streamed (chunked) body; a small streamed body passes", async () => {
    await using mock = await McpMock.start({ maxBodyBytes: 1000 });
    const over = await post(mock.url, streamOf(JSON.stringify(initRequest()), " ".repeat(600), " ".repeat(600)));
    await expectRejection(over, 413, -32000, "Payload Too Large: Request body must not exceed 1000 bytes");
    const json = JSON.stringify(initRequest());
    const small = await post(mock.url, streamOf(json.slice(0, 40), json.slice(40)));
    expect(await jsonOf(small)).toMatchObject({ id: 0, result: { protocolVersion: "2025-11-25" } });
    expect(small.status).toBe(200);
  });

  test("400 parse error for malformed JSON", async () => {
    await using mock = await McpMock.start();
    const res = await post(mock.url, '{"jsonrpc":"2.0","id":1,');
    await expectRejection(res, 400, -32700, "Parse error: Invalid JSON", expect.stringContaining("JSON"));
  });

  test("400 parse error for invalid UTF-8 bytes", async () => {
    await using mock = await McpMock.start();
    const head = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"');
    const res = await post(mock.url, new Uint8Array([...head, 0xff, 0xfe, 0x22, 0x7d, 0x7d]));
    await expectRejection(res, 400, -32700, "Parse error: Invalid JSON", "The body is not valid UTF-8.");
  });

  test.each([
    ["id null", { jsonrpc: "2.0", id: null, method: "ping" }, '"id" must be a string or an integer, received null'],
    ["id 1.5", { jsonrpc: "2.0", id: 1.5, method: "ping" }, '"id" must be a string or an integer, received 1.5 (number)'],
    ["an unknown top-level key", { jsonrpc: "2.0", id: 1, method: "ping", extra: 1 }, 'unknown top-level key "extra"'],
    ['jsonrpc "1.0"', { jsonrpc: "1.0", id: 1, method: "ping" }, '"jsonrpc" must be "2.0"'],
    ["a number body", 5, "a message must be a JSON object, received number"],
    ["array params", { jsonrpc: "2.0", id: 1, method: "ping", params: [1] }, '"params" must be an object, received array'],
    ["a bad batch item", [ping(1), { jsonrpc: "2.0", id: null, method: "ping" }], 'message [1]: "id" must be a string or an integer, received null'],
  ])("400 invalid JSON-RPC message: %s", async (_, body, reason) => {
    await using mock = await McpMock.start();
    const res = await post(mock.url, JSON.stringify(body));
    await expectRejection(res, 400, -32700, "Parse error: Invalid JSON-RPC message", reason);
  });

  test("400 for an empty batch", async () => {
    await using mock = await McpMock.start();
    const res = await post(mock.url, []);
    await expectRejection(res, 400, -32600, "Invalid Request: Empty batch", "A batch must hold at least one message.");
  });

  test("400 for a batch over 100 messages; exactly 100 pass at 2025-03-26", async () => {
    await using mock = await McpMock.start();
    const session = await initialize(mock.url, "2025-03-26");
    const many = (n: number) => Array.from({ length: n }, (_, i) => ping(i + 1));
    const over = await post(mock.url, many(101), { "mcp-session-id": session });
    await expectRejection(over, 400, -32600, "Invalid Request: Batch must not exceed 100 messages");
    const hundred = await post(mock.url, many(100), { "mcp-session-id": session });
    const answers = (await jsonOf(hundred)) as Array<{ id: number }>;
    expect(hundred.status).toBe(200);
    expect(answers.map((a) => a.id)).toEqual(many(100).map((m) => m.id));
  });

  test.each([
    ["negotiated", "2025-11-25", {}, "2025-11-25"],
    ["header", "2025-03-26", { "mcp-protocol-version": "2025-06-18" }, "2025-06-18"],
  ])("400 for a batch when the %s version is not 2025-03-26", async (_, negotiated, headers, version) => {
    await using mock = await McpMock.start();
    const session = await initialize(mock.url, negotiated);
    const res = await post(mock.url, [ping(1), ping(2)], { "mcp-session-id": session, ...headers });
    await expectRejection(res, 400, -32600, `Invalid Request: Batches are not allowed in protocol version ${version}`,
      "Only protocol version 2025-03-26 allows JSON-RPC batches. Send one message per POST.");
  });

  test("a batch at 2025-03-26 gets a JSON array answer", async () => {
    await using mock = await McpMock.start();
    const session = await initialize(mock.url, "2025-03-26");
    const res = await post(mock.url, [ping(1), { jsonrpc: "2.0", id: "b", method: "tools/list" }], {
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-03-26",
    });
    expect(await jsonOf(res)).toStrictEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: "b", result: { tools: [] } },
    ]);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
  });

  test("400 for initialize inside a batch", async () => {
    await using mock = await McpMock.start();
    const res = await post(mock.url, [initRequest(), ping(1)]);
    await expectRejection(res, 400, -32600, "Invalid Request: Only one initialization request is allowed");
  });

  test("400 for initialize with a live session id", async () => {
    await using mock = await McpMock.start();
    const session = await initialize(mock.url);
    const res = await post(mock.url, initRequest(), { "mcp-session-id": session });
    await expectRejection(res, 400, -32600, "Invalid Request: Server already initialized");
  });

  test("400 when the session header is missing", async () => {
    await using mock = await McpMock.start();
    await initialize(mock.url);
    await expectRejection(await post(mock.url, ping(1)), 400, -32000, "Bad Request: Mcp-Session-Id header is required");
  });

  test("404 for an unknown session", async () => {
    await using mock = await McpMock.start();
    await initialize(mock.url);
    const res = await post(mock.url, ping(1), { "mcp-session-id": "session-99" });
    await expectRejection(res, 404, -32001, "Session not found");
  });

  test("400 for an unsupported MCP-Protocol-Version header", async () => {
    await using mock = await McpMock.start();
    const session = await initialize(mock.url);
    const res = await post(mock.url, ping(1), { "mcp-session-id": session, "mcp-protocol-version": "1999-01-01" });
    await expectRejection(res, 400, -32000, `Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: ${SUPPORTED})`);
  });

  test("202 with an empty body for a notification and for response-only bodies", async () => {
    await using mock = await McpMock.start();
    const headers = { "mcp-session-id": await initialize(mock.url), "mcp-protocol-version": "2025-11-25" };
    await expectEmpty(await post(mock.url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers), 202);
    await expectEmpty(await post(mock.url, { jsonrpc: "2.0", id: 7, result: {} }, headers), 202);
    await expectEmpty(await post(mock.url, { jsonrpc: "2.0", id: 8, error: { code: -1, message: "no" } }, headers), 202);
  });

  test("200 JSON for initialize, with deterministic session ids", async () => {
    await using mock = await McpMock.start({ serverInfo: { name: "probe", version: "9.9.9" } });
    const first = await post(mock.url, initRequest());
    expect(await jsonOf(first)).toStrictEqual({
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: "2025-11-25", capabilities: { logging: {} }, serverInfo: { name: "probe", version: "9.9.9" } },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/json");
    expect(first.headers.get("mcp-session-id")).toBe("session-1");
    const second = await post(mock.url, initRequest("2025-06-18"));
    expect(await jsonOf(second)).toMatchObject({ id: 0, result: { protocolVersion: "2025-06-18" } });
    expect(second.headers.get("mcp-session-id")).toBe("session-2");
  });

  test('200 SSE answer with responseMode: "sse"', async () => {
    await using mock = await McpMock.start({ responseMode: "sse", serverInfo: { name: "probe", version: "9.9.9" } });
    const res = await post(mock.url, initRequest());
    const body = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(res.headers.get("mcp-session-id")).toBe("session-1");
    const result = { protocolVersion: "2025-11-25", capabilities: { logging: {} }, serverInfo: { name: "probe", version: "9.9.9" } };
    // Byte for byte: the priming event (2025-11-25: an id, retry, empty data), then the answer as
    // `event: message` with an id that names the stream (1) and the event (1).
    expect(body).toBe(`id: 1-0\nretry: 1000\ndata: \n\nevent: message\nid: 1-1\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 0, result })}\n\n`);
    const ping1 = await post(mock.url, ping(1), { "mcp-session-id": "session-1" });
    expect(await ping1.text()).toBe('id: 2-0\nretry: 1000\ndata: \n\nevent: message\nid: 2-1\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
    // A client at an older version gets no priming event (it could not handle empty data).
    const old = await post(mock.url, { ...ping(2) }, { "mcp-session-id": "session-1", "mcp-protocol-version": "2025-06-18" });
    expect(await old.text()).toBe('event: message\nid: 3-1\ndata: {"jsonrpc":"2.0","id":2,"result":{}}\n\n');
  });

  // Guards the SDK's SSE headers (Hono's streamSSE once overwrote cache-control with "no-cache").
  test("SSE answers and the GET stream carry cache-control: no-cache, no-transform", async () => {
    await using mock = await McpMock.start({ responseMode: "sse" });
    const res = await post(mock.url, initRequest());
    await res.text();
    const { res: stream, controller } = await openGet(mock.url, { "mcp-session-id": "session-1" });
    controller.abort();
    expect([res.headers.get("cache-control"), stream.headers.get("cache-control")]).toEqual(["no-cache, no-transform", "no-cache, no-transform"]);
  });

  // Guards the connection after a 413 on a streamed body (it once failed the next request).
  test("the connection stays usable after a 413 on a large streamed body", async () => {
    await using mock = await McpMock.start({ maxBodyBytes: 1000 });
    const chunk = " ".repeat(65536);
    const over = await post(mock.url, streamOf(chunk, chunk, chunk));
    await expectRejection(over, 413, -32000, "Payload Too Large: Request body must not exceed 1000 bytes");
    await new Promise((r) => setTimeout(r, 50));
    const next = await post(mock.url, initRequest());
    await next.text();
    expect(next.status).toBe(200);
  });

  test.each(["2025-06-18", "2025-11-25"])("initialize with MCP-Protocol-Version: %s is accepted", async (version) => {
    await using mock = await McpMock.start();
    const res = await post(mock.url, initRequest("2025-06-18"), { "mcp-protocol-version": version });
    expect(await jsonOf(res)).toMatchObject({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-06-18" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBe("session-1");
  });
});

describe("initialize in the 2026 revision", () => {
  test("initialize with MCP-Protocol-Version: 2026-07-28 is a 2026 request, where initialize does not exist", async () => {
    await using mock = await McpMock.start({ onUnmatched: "silent" });
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const res = await post(mock.url, { ...initRequest("2025-06-18"), params: { ...initRequest("2025-06-18").params, _meta: meta } }, { "mcp-protocol-version": "2026-07-28", "mcp-method": "initialize" });
    expect(res.status).toBe(404);
    expect(await jsonOf(res)).toMatchObject({ jsonrpc: "2.0", id: 0, error: { code: -32601 } });
    expect(res.headers.get("mcp-session-id")).toBeNull();
  });
});

describe("probes before initialize", () => {
  test("server/discover without a session is answered at once in HTTP 200, with no session", async () => {
    await using mock = await McpMock.start();
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const discover = { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } };
    const started = performance.now();
    const res = await post(mock.url, discover, { "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" });
    const body = await jsonOf(res);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("mcp-session-id")).toBeNull();
    expect(body).toMatchObject({ jsonrpc: "2.0", id: 1, result: { supportedVersions: ["2026-07-28"], resultType: "complete" } });
  });

  test("GET without a session is 400, never 401", async () => {
    await using mock = await McpMock.start();
    const res = await fetch(mock.url, { headers: { accept: "text/event-stream" } });
    await expectRejection(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
  });

  test("GET /.well-known/oauth-protected-resource is 404 naming the endpoint", async () => {
    await using mock = await McpMock.start();
    const res = await fetch(new URL("/.well-known/oauth-protected-resource", mock.url));
    await expectRejection(res, 404, -32000, "Not Found: /.well-known/oauth-protected-resource",
      "This is an mcpmock server; its MCP endpoint is /mcp (POST, GET, DELETE).");
  });

  test("an unknown path is 404", async () => {
    await using mock = await McpMock.start({ path: "/rpc" });
    const res = await post(new URL("/mcp", mock.url).href, initRequest());
    await expectRejection(res, 404, -32000, "Not Found: /mcp", "This is an mcpmock server; its MCP endpoint is /rpc (POST, GET, DELETE).");
  });
});

describe("GET", () => {
  test("406 without text/event-stream in Accept", async () => {
    await using mock = await McpMock.start();
    const session = await initialize(mock.url);
    const res = await fetch(mock.url, { headers: { accept: "application/json", "mcp-session-id": session } });
    await expectRejection(res, 406, -32000, "Not Acceptable: Client must accept text/event-stream");
  });

  test("404 for an unknown session", async () => {
    await using mock = await McpMock.start();
    const { res } = await openGet(mock.url, { "mcp-session-id": "nope" });
    await expectRejection(res, 404, -32001, "Session not found");
  });

  test("200 text/event-stream, held open with keep-alive comments", async () => {
    await using mock = await McpMock.start({ keepAliveMs: 20 });
    const session = await initialize(mock.url);
    const { res, controller } = await openGet(mock.url, { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" });
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      expect(res.headers.get("mcp-session-id")).toBe(session);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      expect(new TextDecoder().decode(first.value)).toBe("id: 1-0\nretry: 1000\ndata: \n\n");
      const second = await reader.read();
      expect(new TextDecoder().decode(second.value)).toBe(": keepalive\n\n");
    } finally {
      controller.abort();
    }
  });

  test("409 for a second concurrent GET; the stream is free again once the first ends", async () => {
    await using mock = await McpMock.start();
    const headers = { "mcp-session-id": await initialize(mock.url) };
    const first = await openGet(mock.url, headers);
    try {
      expect(first.res.status).toBe(200);
      const second = await openGet(mock.url, headers);
      await expectRejection(second.res, 409, -32000, "Conflict: Only one SSE stream is allowed per session");
    } finally {
      first.controller.abort();
    }
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      const again = await openGet(mock.url, headers);
      status = again.res.status;
      if (status === 200) again.controller.abort();
      else await again.res.text();
      if (status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(200);
  });

  test.each([
    ["sessions: stateless", { sessions: "stateless" } as const, "POST"],
    ["getStream: false", { getStream: false }, "POST, DELETE"],
  ])("405 with an allow header when %s", async (_, options, allow) => {
    await using mock = await McpMock.start(options);
    const init = await post(mock.url, initRequest());
    await init.text();
    const { res } = await openGet(mock.url, { "mcp-session-id": init.headers.get("mcp-session-id") ?? "none" });
    await expectRejection(res, 405, -32000, "Method not allowed.");
    expect(res.headers.get("allow")).toBe(allow);
  });
});

describe("DELETE", () => {
  const del = (url: string, headers: Record<string, string> = {}) => fetch(url, { method: "DELETE", headers });

  test("204, then the session is gone and its GET stream ends", async () => {
    await using mock = await McpMock.start();
    const headers = { "mcp-session-id": await initialize(mock.url) };
    const { res: stream, controller } = await openGet(mock.url, headers);
    try {
      await expectEmpty(await del(mock.url, headers), 204);
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
      let end = await reader.read();
      while (!end.done) end = await reader.read(); // the priming event, then the end
      expect(end.done).toBe(true);
    } finally {
      controller.abort();
    }
    await expectRejection(await post(mock.url, ping(1), headers), 404, -32001, "Session not found");
    await expectRejection(await del(mock.url, headers), 404, -32001, "Session not found");
  });

  test("400 without a session, 404 for an unknown one", async () => {
    await using mock = await McpMock.start();
    await expectRejection(await del(mock.url), 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    await expectRejection(await del(mock.url, { "mcp-session-id": "session-7" }), 404, -32001, "Session not found");
  });

  test("405 in stateless mode", async () => {
    await using mock = await McpMock.start({ sessions: "stateless" });
    const res = await del(mock.url, { "mcp-session-id": "x" });
    await expectRejection(res, 405, -32000, "Method not allowed.");
    expect(res.headers.get("allow")).toBe("POST");
  });

  test("a stubbed 405 keeps the session working", async () => {
    await using mock = await McpMock.start();
    mock.deleteSession().respondsWithStatus(405);
    const headers = { "mcp-session-id": await initialize(mock.url) };
    const res = await del(mock.url, headers);
    await res.text();
    expect(res.status).toBe(405);
    const after = await post(mock.url, ping(3), headers);
    expect(await jsonOf(after)).toStrictEqual({ jsonrpc: "2.0", id: 3, result: {} });
    expect(after.status).toBe(200);
  });
});

describe("other methods", () => {
  test.each(["PUT", "PATCH"])("%s is 405 with allow: GET, POST, DELETE", async (method) => {
    await using mock = await McpMock.start();
    const res = await fetch(mock.url, { method, headers: { "content-type": "application/json" }, body: "{}" });
    await expectRejection(res, 405, -32000, "Method not allowed.");
    expect(res.headers.get("allow")).toBe("GET, POST, DELETE");
  });
});

describe("Origin", () => {
  test("a foreign Origin is 403", async () => {
    await using mock = await McpMock.start();
    const res = await post(mock.url, initRequest(), { origin: "http://evil.example" });
    await expectRejection(res, 403, -32000, "Invalid Origin header: http://evil.example",
      'mcpmock allows loopback origins only by default. To allow this one: McpMock.start({ allowedOrigins: ["http://evil.example"] }).');
  });

  test.each(["http://localhost:3000", "http://127.0.0.1:8080"])("a loopback Origin %s is allowed", async (origin) => {
    await using mock = await McpMock.start();
    const res = await post(mock.url, initRequest(), { origin });
    await res.text();
    expect(res.status).toBe(200);
  });

  test("an Origin in allowedOrigins is allowed, others are not", async () => {
    await using mock = await McpMock.start({ allowedOrigins: ["https://app.example"] });
    const ok = await post(mock.url, initRequest(), { origin: "https://app.example" });
    await ok.text();
    expect(ok.status).toBe(200);
    const other = await post(mock.url, initRequest(), { origin: "https://other.example" });
    await other.text();
    expect(other.status).toBe(403);
  });
});

describe("stateless mode", () => {
  test("initialize issues no session id, and tools/list works without one", async () => {
    const tools = [{ name: "echo", inputSchema: { type: "object" } }] as const;
    await using mock = await McpMock.start({ sessions: "stateless", tools });
    const init = await post(mock.url, initRequest());
    expect(await jsonOf(init)).toMatchObject({ id: 0, result: { protocolVersion: "2025-11-25" } });
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toBeNull();
    const list = await post(mock.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-protocol-version": "2025-11-25" });
    expect(await jsonOf(list)).toStrictEqual({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "echo", inputSchema: { type: "object" } }] } });
    expect(list.status).toBe(200);
    expect(list.headers.get("mcp-session-id")).toBeNull();
  });
});
