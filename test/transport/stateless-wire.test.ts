/**
 * The 2026-07-28 wire over raw HTTP (WIRE.md §10): every rejection with its exact status and
 * code, errors that echo the request id, the removed methods, the headers that repeat the body,
 * per-request capabilities, and the input rounds' state, tampered or not.
 */
import { describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";
import { HEADERS } from "../support/raw-http.js";

const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };

interface Answer {
  status: number;
  contentType: string | null;
  body: { jsonrpc: string; id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
  text: string;
}

/** POSTs one message the way a 2026 client does (headers derived from the body unless given). */
async function post(url: string, message: Record<string, unknown>, headers: Record<string, string | undefined> = {}): Promise<Answer> {
  const params = message["params"] as Record<string, unknown> | undefined;
  const name = params?.["name"] ?? params?.["uri"];
  const all: Record<string, string | undefined> = {
    ...HEADERS,
    "mcp-protocol-version": V,
    "mcp-method": message["method"] as string,
    ...(typeof name === "string" ? { "mcp-name": name } : {}),
    ...headers,
  };
  const sent = Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined));
  const res = await fetch(url, { method: "POST", headers: sent, body: JSON.stringify(message) });
  const text = await res.text();
  const data = text.startsWith("event:") ? JSON.parse(text.split("\n").filter((l) => l.startsWith("data: ")).pop()?.slice(6) ?? "{}") : text ? JSON.parse(text) : {};
  return { status: res.status, contentType: res.headers.get("content-type"), body: data, text };
}

function request(method: string, params: Record<string, unknown> = {}, id: number | string = 7): Record<string, unknown> {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...META, ...((params["_meta"] as object) ?? {}) } } };
}

async function start(): Promise<McpMock> {
  const mock = await McpMock.start({
    onUnmatched: "silent",
    tools: [
      { name: "echo", inputSchema: { type: "object", properties: { message: { type: "string" }, region: { type: "string", "x-mcp-header": "Region" } } } },
      { name: "ask", inputSchema: { type: "object" } },
    ],
  });
  mock.toolsCall("echo").respondsWith((call) => String(call.args["message"]));
  mock.toolsCall("ask").streams((s) =>
    s
      .request("elicitation/create", { message: "Name?", requestedSchema: { type: "object" } })
      .request("sampling/createMessage", { messages: [], maxTokens: 5 })
      .result((call) => JSON.stringify(call.answers)),
  );
  return mock;
}

describe("the envelope", () => {
  test("a request without _meta: 400, -32602, naming the missing key, echoing the id", async () => {
    await using mock = await start();
    const a = await post(mock.url, { jsonrpc: "2.0", id: 3, method: "tools/list", params: {} });
    expect(a.status).toBe(400);
    expect(a.body.id).toBe(3);
    expect(a.body.error?.code).toBe(-32602);
    expect(a.body.error?.data).toEqual({ envelope: { missing: ["_meta"] } });
  });

  test("_meta that is not an object: 400, -32602 naming the envelope, echoing the id; a bad field inside _meta is an invalid message", async () => {
    await using mock = await start();
    const a = await post(mock.url, { jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: "m" } });
    expect([a.status, a.body.id, a.body.error?.code]).toEqual([400, 4, -32602]);
    expect(a.body.error?.message).toBe('Invalid params: the per-request envelope _meta must be an object ("params._meta" must be an object, received string)');
    expect(a.body.error?.data).toEqual({ envelope: { key: "_meta", problem: "not an object" } });
    const b = await post(mock.url, { jsonrpc: "2.0", id: 5, method: "tools/list", params: { _meta: { ...META, progressToken: 1.5 } } });
    expect(b.status).toBe(400);
    expect(b.body.error?.data).not.toHaveProperty("envelope");
    expect(b.text).toContain("params._meta.progressToken");
  });

  test("an envelope without clientCapabilities: 400, -32602", async () => {
    await using mock = await start();
    const a = await post(mock.url, { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": V } } });
    expect([a.status, a.body.error?.code]).toEqual([400, -32602]);
    expect(a.body.error?.message).toContain("io.modelcontextprotocol/clientCapabilities: missing");
  });

  test("the header and the envelope name different versions: 400, -32020", async () => {
    await using mock = await start();
    const a = await post(mock.url, request("tools/list"), { "mcp-protocol-version": "2027-01-01" });
    expect([a.status, a.body.error?.code, a.body.id]).toEqual([400, -32020, 7]);
  });

  test("a version the mock does not speak: 400, -32022 with what it supports and what was asked", async () => {
    await using mock = await start();
    const message = { jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2027-01-01" } } };
    const a = await post(mock.url, message, { "mcp-protocol-version": "2027-01-01" });
    expect([a.status, a.body.error?.code, a.body.id]).toEqual([400, -32022, 4]);
    expect(a.body.error?.data?.["requested"]).toBe("2027-01-01");
    expect(a.body.error?.data?.["supported"]).toContain(V);
  });

  test("a mock limited to 2025 versions refuses 2026-07-28 with -32022, and initialize still works", async () => {
    await using mock = await McpMock.start({ protocolVersions: ["2025-11-25"] });
    const a = await post(mock.url, request("server/discover"));
    expect([a.status, a.body.error?.code]).toEqual([400, -32022]);
    expect(a.body.error?.data?.["supported"]).toEqual(["2025-11-25"]);
  });

  test("a mock limited to 2026-07-28 refuses initialize with -32022", async () => {
    await using mock = await McpMock.start({ protocolVersions: [V] });
    const res = await fetch(mock.url, {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32022);
  });

  test("protocolVersions must name known versions", async () => {
    await expect(McpMock.start({ protocolVersions: ["2099-01-01" as never] })).rejects.toThrow('"2099-01-01" is not one of them');
  });
});

describe("methods and transport", () => {
  test.each(["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "custom/unknown"])("%s: HTTP 404 with -32601, echoing the id", async (method) => {
    await using mock = await start();
    const a = await post(mock.url, request(method, method.startsWith("resources/") ? { uri: "test://a" } : {}));
    expect([a.status, a.body.error?.code, a.body.id]).toEqual([404, -32601, 7]);
  });

  test("a user stub of a custom method answers in 2026-07-28 too", async () => {
    await using mock = await start();
    mock.method("custom/ping").respondsWith({ ok: true });
    const a = await post(mock.url, request("custom/ping"));
    expect([a.status, a.body.result]).toEqual([200, { ok: true, resultType: "complete" }]);
  });

  test("an exact withParams stub ignores _meta (the envelope), so it answers both eras; one that names _meta compares it", async () => {
    await using mock = await start();
    mock.method("custom/sum").withParams({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    mock.method("custom/meta").withParams({ _meta: { tag: "x" } }).respondsWith({ tagged: true });
    expect((await post(mock.url, request("custom/sum", { a: 1, b: 2 }))).body.result).toEqual({ sum: 3, resultType: "complete" });
    expect((await post(mock.url, request("custom/meta"))).status).toBe(404);
    // The same stub in the session era, for a request whose _meta carries a progress token.
    await using stateless = await McpMock.start({ sessions: "stateless" });
    stateless.method("custom/sum").withParams({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    const res = await fetch(stateless.url, { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "custom/sum", params: { a: 1, b: 2, _meta: { progressToken: 5 } } }) });
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { sum: 3 } });
  });

  test("a batch: 400, -32600", async () => {
    await using mock = await start();
    const res = await fetch(mock.url, { method: "POST", headers: { ...HEADERS, "mcp-protocol-version": V, "mcp-method": "tools/list" }, body: JSON.stringify([request("tools/list")]) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  test("GET and DELETE of the 2026 revision: 405, no stream and no session to end", async () => {
    await using mock = await start();
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(mock.url, { method, headers: { accept: "text/event-stream", "mcp-protocol-version": V } });
      expect(res.status, method).toBe(405);
      await res.text();
    }
  });

  test("a notification: 202", async () => {
    await using mock = await start();
    const res = await fetch(mock.url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-protocol-version": V, "mcp-method": "notifications/cancelled" },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: META } }),
    });
    expect(res.status).toBe(202);
  });

  test("every result has resultType; lists, reads and discover carry ttlMs and cacheScope (cacheHints changes them)", async () => {
    await using mock = await McpMock.start({ cacheHints: { ttlMs: 5000, cacheScope: "public" }, resources: [{ uri: "test://a", name: "a", text: "A" }], tools: [{ name: "t", inputSchema: { type: "object" } }] });
    mock.toolsCall("t").respondsWith("x");
    for (const [method, params] of [["server/discover", {}], ["tools/list", {}], ["resources/list", {}], ["resources/templates/list", {}], ["resources/read", { uri: "test://a" }]] as const) {
      const a = await post(mock.url, request(method, params));
      expect(a.body.result, method).toMatchObject({ resultType: "complete", ttlMs: 5000, cacheScope: "public" });
    }
    const call = await post(mock.url, request("tools/call", { name: "t", arguments: {} }));
    expect(call.body.result).toEqual({ content: [{ type: "text", text: "x" }], resultType: "complete" });
  });

  test("a stub's own ttlMs wins over the mock's hints", async () => {
    await using mock = await start();
    mock.toolsList().respondsWith({ tools: [], ttlMs: 60000 });
    const a = await post(mock.url, request("tools/list"));
    expect(a.body.result).toEqual({ tools: [], ttlMs: 60000, resultType: "complete", cacheScope: "private" });
  });

  test("a resource not found is -32602 with data.uri, in HTTP 200", async () => {
    await using mock = await start();
    const a = await post(mock.url, request("resources/read", { uri: "test://nope" }));
    expect([a.status, a.body.error?.code, a.body.error?.data?.["uri"]]).toEqual([200, -32602, "test://nope"]);
  });
});

describe("headers that repeat the body", () => {
  test("Mcp-Method missing or different: 400, -32020", async () => {
    await using mock = await start();
    const missing = await post(mock.url, request("tools/list"), { "mcp-method": undefined });
    expect([missing.status, missing.body.error?.code]).toEqual([400, -32020]);
    expect(missing.body.error?.message).toContain("the required Mcp-Method header is absent");
    const other = await post(mock.url, request("tools/list"), { "mcp-method": "prompts/list" });
    expect([other.status, other.body.error?.code]).toEqual([400, -32020]);
  });

  test("Mcp-Name missing or different: 400, -32020; surrounding space is trimmed", async () => {
    await using mock = await start();
    const call = request("tools/call", { name: "echo", arguments: { message: "hi" } });
    expect((await post(mock.url, call, { "mcp-name": undefined })).body.error?.code).toBe(-32020);
    expect((await post(mock.url, call, { "mcp-name": "other" })).body.error?.code).toBe(-32020);
    expect((await post(mock.url, call, { "mcp-name": " echo " })).body.result?.["content"]).toEqual([{ type: "text", text: "hi" }]);
  });

  test("Mcp-Param-* from x-mcp-header arguments: required, equal, base64 decoded strictly", async () => {
    await using mock = await start();
    const call = request("tools/call", { name: "echo", arguments: { message: "hi", region: "eu west" } });
    expect((await post(mock.url, call)).body.error?.code).toBe(-32020);
    expect((await post(mock.url, call, { "mcp-param-region": "us" })).body.error?.code).toBe(-32020);
    expect((await post(mock.url, call, { "mcp-param-region": "eu west" })).status).toBe(200);
    const b64 = `=?base64?${Buffer.from("eu west").toString("base64")}?=`;
    expect((await post(mock.url, call, { "mcp-param-region": b64 })).status).toBe(200);
    expect((await post(mock.url, call, { "mcp-param-region": "=?base64?ZXUgd2VzdA?=" })).body.error?.code).toBe(-32020);
    const without = request("tools/call", { name: "echo", arguments: { message: "hi" } });
    expect((await post(mock.url, without, { "mcp-param-region": "eu" })).body.error?.code).toBe(-32020);
  });

  test("a mismatch with a body value of megabytes repeats 200 characters of it, not all", async () => {
    await using mock = await start();
    const huge = "n".repeat(2_000_000);
    const named = await post(mock.url, request("tools/call", { name: huge, arguments: {} }), { "mcp-name": "echo" });
    expect(named.status).toBe(400);
    expect(named.body.error?.message).toBe(`Bad Request: the request headers and body disagree: the body carries params.name="${"n".repeat(198)}… but the Mcp-Name header names "echo"`);
    const argument = await post(mock.url, request("tools/call", { name: "echo", arguments: { message: "hi", region: huge } }), { "mcp-param-region": "us" });
    expect(argument.status).toBe(400);
    expect(JSON.stringify(argument.body).length).toBeLessThan(2000);
  });
});

describe("capabilities and input rounds", () => {
  const caps = { elicitation: {}, sampling: {} };
  const withCaps = (params: Record<string, unknown>): Record<string, unknown> => request("tools/call", { ...params, _meta: { "io.modelcontextprotocol/clientCapabilities": caps } });

  test("a script that needs a capability the request did not declare: 400, -32021 with data.requiredCapabilities", async () => {
    await using mock = await start();
    const a = await post(mock.url, request("tools/call", { name: "ask", arguments: {}, _meta: { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } } }));
    expect([a.status, a.body.error?.code, a.body.id]).toEqual([400, -32021, 7]);
    expect(a.body.error?.data).toEqual({ requiredCapabilities: { sampling: {} } });
  });

  test("rounds: each request step asked under its key with a state; the result sees every answer", async () => {
    await using mock = await start();
    const first = await post(mock.url, withCaps({ name: "ask", arguments: {} }));
    expect(first.body.result?.["resultType"]).toBe("input_required");
    expect(first.body.result?.["inputRequests"]).toEqual({ "elicitation-1": { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object" } } } });
    const state1 = first.body.result?.["requestState"] as string;
    const second = await post(mock.url, withCaps({ name: "ask", arguments: {}, requestState: state1, inputResponses: { "elicitation-1": { action: "accept", content: { n: "Ada" } }, extra: 1 } }));
    expect(Object.keys(second.body.result?.["inputRequests"] as object)).toEqual(["sampling-2"]);
    const state2 = second.body.result?.["requestState"] as string;
    expect(state2).not.toBe(state1);
    // A missing key is asked again.
    const again = await post(mock.url, withCaps({ name: "ask", arguments: {}, requestState: state2, inputResponses: {} }));
    expect(Object.keys(again.body.result?.["inputRequests"] as object)).toEqual(["sampling-2"]);
    const done = await post(mock.url, withCaps({ name: "ask", arguments: {}, requestState: state2, inputResponses: { "sampling-2": { role: "assistant", content: { type: "text", text: "hi" }, model: "m" } } }));
    expect(done.body.result?.["resultType"]).toBe("complete");
    expect(JSON.parse((done.body.result?.["content"] as Array<{ text: string }>)[0]?.text ?? "")).toEqual([
      { action: "accept", content: { n: "Ada" } },
      { role: "assistant", content: { type: "text", text: "hi" }, model: "m" },
    ]);
    // Rounds are one call of the stub: it was hit once.
    expect(mock.stubs().find((s) => s.sentence.includes('"ask"'))?.calls).toBe(1);
  });

  test("a state whose MAC decodes to the same bytes is still refused: a changed last character, padding, an invalid character", async () => {
    await using mock = await start();
    const first = await post(mock.url, withCaps({ name: "ask", arguments: {} }));
    const state = first.body.result?.["requestState"] as string;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet[alphabet.indexOf(state.at(-1) as string) ^ 1] as string; // the same two bytes: only padding bits differ
    for (const tampered of [`${state.slice(0, -1)}${last}`, `${state}=`, `${state}==`, `${state.slice(0, -5)}!${state.slice(-5)}`, `${state.slice(0, -5)} ${state.slice(-5)}`]) {
      const t = await post(mock.url, withCaps({ name: "ask", arguments: {}, requestState: tampered, inputResponses: {} }));
      expect(t.body.error?.code, tampered).toBe(-32602);
      expect(t.body.error?.message, tampered).toContain("requestState was altered");
    }
    // The state as given still resumes.
    const ok = await post(mock.url, withCaps({ name: "ask", arguments: {}, requestState: state, inputResponses: {} }));
    expect(ok.body.error).toBeUndefined();
  });

  test("inputResponses that is not an object, a tampered state, a state of another request: -32602", async () => {
    await using mock = await start();
    const first = await post(mock.url, withCaps({ name: "ask", arguments: {} }));
    const state = first.body.result?.["requestState"] as string;
    for (const inputResponses of [null, 5, ["x"]]) {
      const a = await post(mock.url, withCaps({ name: "ask", arguments: {}, requestState: state, inputResponses }));
      expect(a.body.error?.code, JSON.stringify(inputResponses)).toBe(-32602);
      expect(a.body.error?.message).toContain("inputResponses must be an object");
    }
    const tampered = `${state.slice(0, 10)}${state[10] === "A" ? "B" : "A"}${state.slice(11)}`;
    const t = await post(mock.url, withCaps({ name: "ask", arguments: {}, requestState: tampered, inputResponses: {} }));
    expect(t.body.error?.code).toBe(-32602);
    expect(t.body.error?.message).toContain("requestState was altered");
    const other = await post(mock.url, withCaps({ name: "ask", arguments: { x: 1 }, requestState: state, inputResponses: {} }));
    expect(other.body.error?.message).toContain("requestState belongs to another request");
  });

  test("a state from another mock is refused", async () => {
    await using one = await start();
    await using two = await start();
    const first = await post(one.url, withCaps({ name: "ask", arguments: {} }));
    const a = await post(two.url, withCaps({ name: "ask", arguments: {}, requestState: first.body.result?.["requestState"], inputResponses: {} }));
    expect(a.body.error?.code).toBe(-32602);
  });

  test("mock.request() without a session says why, and what to use instead", async () => {
    await using mock = await start();
    await expect(mock.request("roots/list", undefined, { timeout: 50 })).rejects.toThrow("A 2026-07-28 client has no session");
  });
});

describe("subscriptions/listen", () => {
  /** Opens a listen stream by hand and collects its frames as they come. */
  async function listen(url: string, notifications: Record<string, unknown>): Promise<{ frames: Array<Record<string, unknown>>; status: number; ended: Promise<void>; until(n: number): Promise<void>; close(): void }> {
    const abort = new AbortController();
    const res = await fetch(url, {
      method: "POST",
      signal: abort.signal,
      headers: { ...HEADERS, "mcp-protocol-version": V, "mcp-method": "subscriptions/listen" },
      body: JSON.stringify(request("subscriptions/listen", { notifications }, 42)),
    });
    const frames: Array<Record<string, unknown>> = [];
    const waiters: Array<() => void> = [];
    const ended = (async () => {
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const data = buffer.slice(0, end).split("\n").find((l) => l.startsWith("data: "));
            buffer = buffer.slice(end + 2);
            if (data) frames.push(JSON.parse(data.slice(6)) as Record<string, unknown>);
            for (const wake of waiters.splice(0)) wake();
          }
        }
      } catch {
        // aborted
      }
    })();
    return {
      frames,
      status: res.status,
      ended,
      until: async (n) => {
        while (frames.length < n) await new Promise<void>((r) => waiters.push(r));
      },
      close: () => abort.abort(),
    };
  }

  const idOf = (frame: Record<string, unknown>): unknown => ((frame["params"] as Record<string, unknown>)["_meta"] as Record<string, unknown>)["io.modelcontextprotocol/subscriptionId"];

  test("the acknowledgement names what is honoured; every frame carries the subscription id; the filter holds", async () => {
    await using mock = await McpMock.start({ tools: [{ name: "t", inputSchema: { type: "object" } }], resources: [{ uri: "test://a", name: "a", text: "A" }] });
    mock.openStream().sends((s) => s.notify("notifications/message", { level: "info", data: "hello" }));
    const stream = await listen(mock.url, { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["test://a"] });
    expect(stream.status).toBe(200);
    await stream.until(2);
    expect(stream.frames[0]).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true, resourceSubscriptions: ["test://a"] } } });
    expect(stream.frames[1]).toMatchObject({ method: "notifications/message", params: { data: "hello" } });
    await mock.notify("notifications/resources/updated", { uri: "test://other" });
    await mock.notify("notifications/resources/list_changed");
    await mock.notify("notifications/resources/updated", { uri: "test://a" });
    mock.declareTool({ name: "late", inputSchema: { type: "object" } });
    await stream.until(4);
    expect(stream.frames.slice(2).map((f) => f["method"])).toEqual(["notifications/resources/updated", "notifications/tools/list_changed"]);
    expect(stream.frames.every((f) => idOf(f) === 42)).toBe(true);
    expect(mock.requests().find((e) => e.method === "subscriptions/listen")?.id).toBe(42);
    stream.close();
  });

  test("a stub refuses the subscription", async () => {
    await using mock = await start();
    mock.subscriptionsListen().respondsWithError(-32603, "Subscription limit reached");
    const a = await post(mock.url, request("subscriptions/listen", { notifications: { toolsListChanged: true } }));
    expect([a.status, a.body.id, a.body.error?.code, a.body.error?.message]).toEqual([200, 7, -32603, "Subscription limit reached"]);
  });

  test("close() ends an open listen stream: the client sees its end, and nothing is left registered", async () => {
    const mock = await start();
    const stream = await listen(mock.url, { toolsListChanged: true });
    await stream.until(1);
    let done = false;
    void stream.ended.then(() => (done = true));
    await mock.close();
    await Promise.race([stream.ended, new Promise((r) => setTimeout(r, 2000))]);
    expect(done, "the listen stream ended with close()").toBe(true);
    stream.close();
  });
});
