/**
 * The admin REST API (WireMock's), driven with plain fetch the way a test in another
 * language would, while an SDK v1 client talks MCP to the same mock: stubs added and removed
 * as definition fragments, the journal, verify with its count forms, notify, reset, and the
 * error answers (bad JSON, an invalid fragment, an unknown route).
 */
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, test } from "vitest";
import { McpMock, toolsCall } from "../../src/index.js";
import { CLI, ROOT } from "../support/build.js";

const tools = [
  { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } },
  { name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
] as const;

interface Answer {
  readonly status: number;
  readonly type: string | null;
  readonly body: unknown;
}

/** One admin call; the body parsed when it is JSON. */
async function admin(base: string, method: string, path: string, body?: unknown, raw?: string): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined && raw === undefined ? {} : { headers: { "content-type": "application/json" }, body: raw ?? JSON.stringify(body) }),
  });
  const text = await response.text();
  const type = response.headers.get("content-type");
  return { status: response.status, type, body: text && type?.includes("json") ? (JSON.parse(text) as unknown) : text };
}

interface Ctx {
  readonly mock: McpMock;
  readonly client: Client;
  readonly base: string;
  /** Notifications the client received (on its GET stream), in order. */
  readonly notes: Array<{ method: string; params: unknown }>;
  call(path: string, method?: string, body?: unknown, raw?: string): Promise<Answer>;
  [Symbol.asyncDispose](): Promise<void>;
}

async function setup(): Promise<Ctx> {
  const mock = await McpMock.start({ tools, admin: true, onUnmatched: "silent" });
  const client = new Client({ name: "admin-test", version: "1.0.0" });
  const notes: Array<{ method: string; params: unknown }> = [];
  client.fallbackNotificationHandler = async (n) => void notes.push({ method: n.method, params: n.params });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  } catch (error) {
    await mock.close();
    throw error;
  }
  const base = mock.url.replace(/\/mcp$/, "/__admin");
  return {
    mock,
    client,
    base,
    notes,
    call: (path, method = "GET", body, raw) => admin(base, method, path, body, raw),
    async [Symbol.asyncDispose]() {
      await client.close();
      await mock.close();
    },
  };
}

const textOf = (result: unknown): string => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? "");

describe("McpMock.start({ admin: true })", () => {
  test("POST /__admin/stubs adds a fragment's stubs (201 with their ids), and they answer the client", async () => {
    await using ctx = await setup();
    const added = await ctx.call("/stubs", "POST", {
      responses: [
        { tool: "add", args: { a: 1, b: 2 }, result: { sum: 3 } },
        { tool: "get_weather", result: { city: "{{args.city}}", temp: 15 } },
      ],
    });
    expect(added).toEqual({ status: 201, type: "application/json", body: { ids: ["stub-1", "stub-2"] } });
    expect(textOf(await ctx.client.callTool({ name: "add", arguments: { a: 1, b: 2 } }))).toBe('{"sum":3}');
    expect(textOf(await ctx.client.callTool({ name: "get_weather", arguments: { city: "Jeju" } }))).toBe('{"city":"Jeju","temp":15}');
    const miss = await ctx.client.callTool({ name: "add", arguments: { a: 2, b: 2 } });
    expect(miss.isError).toBe(true);
    expect(textOf(miss)).toContain("stubs added through the admin API");
  });

  test("a fragment may declare tools, resources and prompts; clients see them", async () => {
    await using ctx = await setup();
    const added = await ctx.call("/stubs", "POST", {
      tools: [{ name: "late", inputSchema: { type: "object" } }],
      responses: [{ tool: "late", result: "here now" }],
      resources: [{ uri: "test://added", name: "added", text: "added later" }],
      prompts: [{ name: "hello", responses: [{ messages: "Hello from the admin API" }] }],
    });
    expect(added.status).toBe(201);
    expect((added.body as { ids: string[] }).ids).toHaveLength(2);
    expect((await ctx.client.listTools()).tools.map((t) => t.name)).toEqual(["add", "get_weather", "late"]);
    expect(textOf(await ctx.client.callTool({ name: "late", arguments: {} }))).toBe("here now");
    expect((await ctx.client.readResource({ uri: "test://added" })).contents).toEqual([{ uri: "test://added", text: "added later" }]);
    expect((await ctx.client.getPrompt({ name: "hello" })).messages).toEqual([{ role: "user", content: { type: "text", text: "Hello from the admin API" } }]);
  });

  test("GET /__admin/stubs lists every stub as data, with its source and calls", async () => {
    await using ctx = await setup();
    await ctx.call("/stubs", "POST", { responses: [{ tool: "add", args: { a: 1, b: 2 }, result: { sum: 3 } }] });
    ctx.mock.toolsCall("add").withArgs({ a: 0, b: 0 }).respondsWith({ sum: 0 });
    await ctx.client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    const listed = await ctx.call("/stubs");
    expect(listed.status).toBe(200);
    const stubs = listed.body as Array<{ id: string; sentence: string; calls: number; source: string }>;
    expect(stubs.filter((s) => s.source !== "default")).toEqual([
      { id: "stub-1", sentence: 'tools/call "add" with arguments equal to {"a":1,"b":2} → {"sum":3} (seen 1)', calls: 1, source: "the admin request responses[0]" },
      { id: "stub-2", sentence: 'tools/call "add" with arguments equal to {"a":0,"b":0} → {"sum":0} (seen 0)', calls: 0, source: "dsl" },
    ]);
    expect(stubs.some((s) => s.id === "default:initialize" && s.calls === 1)).toBe(true);
  });

  test("DELETE /__admin/stubs/:id removes a stub (204), then 404; built-in answers stay", async () => {
    await using ctx = await setup();
    const { body } = await ctx.call("/stubs", "POST", { responses: [{ tool: "add", result: { sum: 0 } }] });
    const [id] = (body as { ids: string[] }).ids;
    expect(textOf(await ctx.client.callTool({ name: "add", arguments: {} }))).toBe('{"sum":0}');
    expect(await ctx.call(`/stubs/${id}`, "DELETE")).toMatchObject({ status: 204, body: "" });
    expect((await ctx.client.callTool({ name: "add", arguments: {} })).isError).toBe(true);
    expect(await ctx.call(`/stubs/${id}`, "DELETE")).toEqual({
      status: 404,
      type: "application/json",
      body: { error: `no stub "${id}"; GET /__admin/stubs lists them.` },
    });
    expect((await ctx.call("/stubs/default:ping", "DELETE")).status).toBe(404);
    expect(await ctx.client.ping()).toEqual({});
  });

  test("GET /__admin/requests is the journal as JSON, without the internal call object", async () => {
    await using ctx = await setup();
    await ctx.call("/stubs", "POST", { responses: [{ tool: "add", args: { a: 1, b: 2 }, result: { sum: 3 } }] });
    await ctx.client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    await ctx.client.callTool({ name: "add", arguments: { a: 5, b: 5 } });
    const { status, body } = await ctx.call("/requests");
    expect(status).toBe(200);
    const entries = body as Array<Record<string, unknown>>;
    expect(entries.map((e) => e["method"])).toEqual(["initialize", "notifications/initialized", "tools/call", "tools/call"]);
    for (const entry of entries) expect(entry).not.toHaveProperty("call");
    expect(entries[2]).toMatchObject({
      seq: 3,
      kind: "request",
      params: { name: "add", arguments: { a: 1, b: 2 } },
      sessionId: "session-1",
      transport: "http",
      stubId: "stub-1",
      unmatched: false,
      answer: { jsonrpc: "2.0", result: { content: [{ type: "text", text: '{"sum":3}' }] } },
    });
    expect(entries[3]).toMatchObject({ unmatched: true, missReport: expect.stringContaining('No stub answers tools/call "add"') });
  });

  test("POST /__admin/verify: 200 { ok: true } when it holds, with each count form", async () => {
    await using ctx = await setup();
    await ctx.call("/stubs", "POST", { responses: [{ tool: "add", result: { sum: 0 } }] });
    await ctx.client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    await ctx.client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    await ctx.client.callTool({ name: "add", arguments: { a: 3, b: 4 } });
    const verify = (body: unknown) => ctx.call("/verify", "POST", body);
    expect(await verify({ pattern: { tool: "add" } })).toEqual({ status: 200, type: "application/json", body: { ok: true, matched: 3 } });
    expect((await verify({ pattern: { tool: "add", args: { a: 1, b: 2 } }, count: 2 })).body).toEqual({ ok: true, matched: 2 });
    expect((await verify({ pattern: { tool: "get_weather" }, count: "never" })).body).toEqual({ ok: true, matched: 0 });
    expect((await verify({ pattern: { tool: "add" }, count: { atLeast: 2 } })).body).toEqual({ ok: true, matched: 3 });
    expect((await verify({ pattern: { tool: "add" }, count: { atMost: 3 } })).body).toEqual({ ok: true, matched: 3 });
    expect((await verify({ pattern: { tool: "add", argsMatching: { a: 3 } }, count: { exactly: 1 } })).body).toEqual({ ok: true, matched: 1 });
    expect((await verify({ pattern: { method: "tools/call", sessionId: "session-1" }, count: 3 })).body).toEqual({ ok: true, matched: 3 });
  });

  test("POST /__admin/verify: 422 with the near-miss report when it does not hold", async () => {
    await using ctx = await setup();
    await ctx.call("/stubs", "POST", { responses: [{ tool: "add", result: { sum: 0 } }] });
    await ctx.client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    const failed = await ctx.call("/verify", "POST", { pattern: { tool: "add", args: { a: 2, b: 2 } } });
    expect(failed.status).toBe(422);
    const { ok, message } = failed.body as { ok: boolean; message: string };
    expect(ok).toBe(false);
    expect(message).toContain('[mcpmock] Expected tools/call "add" with arguments equal to {"a":2,"b":2} at least once, but received it never.');
    expect(message).toContain("Closest requests received:");
    expect(message).toContain("args.a: 2");
    expect(message).toContain("<<<<< arguments do not match");
    // The same text the library's verify() throws, but for where to look next: admin routes, not mock.requests().
    expect(message).toContain("To see everything received: GET /__admin/requests.");
    expect(() => ctx.mock.verify(toolsCall("add").withArgs({ a: 2, b: 2 }))).toThrow(message.replace("GET /__admin/requests.", "mock.requests()."));

    const wrongCount = await ctx.call("/verify", "POST", { pattern: { tool: "add" }, count: "never" });
    expect(wrongCount.status).toBe(422);
    expect((wrongCount.body as { message: string }).message).toContain("never");
    expect((await ctx.call("/verify", "POST", { pattern: { tool: "add" }, count: 2 })).status).toBe(422);
    expect((await ctx.call("/verify", "POST", { pattern: { tool: "add" }, count: { atLeast: 2 } })).status).toBe(422);
  });

  test("POST /__admin/verify: a malformed request is 400 with the expected form", async () => {
    await using ctx = await setup();
    expect(await ctx.call("/verify", "POST", { count: 1 })).toEqual({
      status: 400,
      type: "application/json",
      body: { error: '[mcpmock] send { "pattern": { "tool": "add", "args": { ... } }, "count": 1 }.' },
    });
    const badCount = await ctx.call("/verify", "POST", { pattern: { tool: "add" }, count: "twice" });
    expect(badCount.status).toBe(400);
    expect((badCount.body as { error: string }).error).toContain('"count" must be a number n (exactly n), "never", { "exactly": n }, { "atLeast": n } or { "atMost": n }, or left out (at least once)');
    expect((await ctx.call("/verify", "POST", { pattern: {} })).status).toBe(400);
  });

  test("POST /__admin/notify reaches the client's GET stream", async () => {
    await using ctx = await setup();
    const sent = await ctx.call("/notify", "POST", { method: "notifications/resources/updated", params: { uri: "test://x" } });
    expect(sent).toEqual({ status: 200, type: "application/json", body: { sessions: ["session-1"] } });
    await expect.poll(() => ctx.notes, { timeout: 2_000 }).toEqual([{ method: "notifications/resources/updated", params: { uri: "test://x" } }]);
    const toSession = await ctx.call("/notify", "POST", { method: "notifications/custom", sessionId: "session-1" });
    expect(toSession.body).toEqual({ sessions: ["session-1"] });
    await expect.poll(() => ctx.notes.map((n) => n.method), { timeout: 2_000 }).toEqual(["notifications/resources/updated", "notifications/custom"]);
    expect((await ctx.call("/notify", "POST", { params: {} })).status).toBe(400);
  });

  test("POST /__admin/reset removes the stubs and clears the journal (204)", async () => {
    await using ctx = await setup();
    await ctx.call("/stubs", "POST", { responses: [{ tool: "add", result: { sum: 0 } }] });
    ctx.mock.toolsCall("get_weather").respondsWith({ temp: 1 });
    await ctx.client.callTool({ name: "add", arguments: {} });
    expect(await ctx.call("/reset", "POST")).toMatchObject({ status: 204, body: "" });
    expect(((await ctx.call("/stubs")).body as Array<{ source: string }>).filter((s) => s.source !== "default")).toEqual([]);
    expect((await ctx.call("/requests")).body).toEqual([]);
    expect((await ctx.client.callTool({ name: "add", arguments: {} })).isError).toBe(true);
    expect(await ctx.client.ping()).toEqual({}); // the session stays open
  });

  test("a body that is not JSON is 400 with a message", async () => {
    await using ctx = await setup();
    for (const path of ["/stubs", "/verify", "/notify"]) {
      expect(await ctx.call(path, "POST", undefined, '{"responses": [')).toEqual({
        status: 400,
        type: "application/json",
        body: { error: "[mcpmock] the request body must be JSON (content-type: application/json)." },
      });
    }
  });

  // Guards that an empty JSON body is no body (each route's own form is said), not a JSON parse error.
  test("an empty body is no body: each route says what to send", async () => {
    await using ctx = await setup();
    expect(await ctx.call("/verify", "POST", undefined, "")).toMatchObject({ status: 400, body: { error: '[mcpmock] send { "pattern": { "tool": "add", "args": { ... } }, "count": 1 }.' } });
    expect(await ctx.call("/notify", "POST", undefined, "")).toMatchObject({ status: 400, body: { error: expect.stringContaining('send { "method": "notifications/...",') } });
    expect(await ctx.call("/stubs", "POST", undefined, "")).toMatchObject({ status: 400, body: { error: expect.stringContaining("the root must be an object") } });
  });

  // Guards that a snapshot asked of a mock without an upstream says how to get one.
  test("POST /__admin/recordings/snapshot without an upstream is 409 saying to start with a proxy", async () => {
    await using ctx = await setup();
    for (const raw of [undefined, "{}"]) {
      const answer = await ctx.call("/recordings/snapshot", "POST", undefined, raw);
      expect(answer.status).toBe(409);
      expect((answer.body as { error: string }).error).toMatch(/^\[mcpmock\] this mock has no upstream.*--proxy <url>.*McpMock\.start\(\{ proxy:/);
    }
  });

  test("an invalid fragment is 400 naming the JSON path, and adds nothing", async () => {
    await using ctx = await setup();
    const typo = await ctx.call("/stubs", "POST", { responses: [{ tool: "add", result: { sum: 0 } }, { tool: "add", args: { a: 1 }, reslt: 1 }] });
    expect(typo.status).toBe(400);
    expect((typo.body as { error: string }).error).toBe(
      '[mcpmock] Invalid mock definition — the admin request: responses[1].reslt: "reslt" is not a field here (a typo?). Did you mean "result"?\n' +
        '→ Expected like: { "tool": "add", "args": { "a": 1, "b": 2 }, "result": { "sum": 3 } }',
    );
    const unknownTool = await ctx.call("/stubs", "POST", { responses: [{ tool: "sub", result: 1 }] });
    expect(unknownTool.status).toBe(400);
    expect((unknownTool.body as { error: string }).error).toContain('responses[0].tool: tool "sub" is not in tools. Available tools: add, get_weather.');
    expect((await ctx.call("/stubs", "POST", [])).status).toBe(400);
    expect(((await ctx.call("/stubs")).body as Array<{ source: string }>).filter((s) => s.source !== "default")).toEqual([]);
  });

  test("an unknown admin route is 404 listing the routes", async () => {
    await using ctx = await setup();
    for (const [method, path] of [
      ["GET", "/stub"],
      ["PUT", "/stubs"],
      ["GET", ""],
    ] as const) {
      const answer = await ctx.call(path, method);
      expect(answer.status).toBe(404);
      expect((answer.body as { error: string }).error).toBe(
        `no admin route ${method} /__admin${path}. Routes: GET/POST /__admin/stubs, DELETE /__admin/stubs/:id, GET /__admin/requests, GET /__admin/requests/unmatched, GET /__admin/sessions, GET /__admin/app-events, GET /__admin/scenarios, GET /__admin/events, GET /__admin/ui, POST /__admin/verify, POST /__admin/notify, POST /__admin/recordings/snapshot, POST /__admin/reset.`,
      );
    }
  });

  test("a browser page from a foreign origin cannot use it", async () => {
    await using ctx = await setup();
    const response = await fetch(`${ctx.base}/stubs`, { headers: { origin: "https://evil.example" } });
    expect(response.status).toBe(403);
    await response.text();
    expect(ctx.mock.stubs().filter((s) => s.source !== "default")).toEqual([]);
  });
});

test("without admin: true, /__admin/... is the plain 404 naming the MCP endpoint", async () => {
  await using mock = await McpMock.start({ tools });
  const base = mock.url.replace(/\/mcp$/, "/__admin");
  const plain = await admin(base, "GET", "/stubs");
  expect(plain.status).toBe(404);
  expect(plain.body).toMatchObject({ jsonrpc: "2.0", error: { message: "Not Found: /__admin/stubs" } });
  expect(JSON.stringify(plain.body)).toContain("its MCP endpoint is /mcp");
  const post = await admin(base, "POST", "/stubs", { responses: [{ tool: "add", result: 1 }] });
  expect(post.status).toBe(404);
  expect(mock.stubs().filter((s) => s.source !== "default")).toEqual([]);
});

test("mcpmock serve answers the admin API beside its definition's stubs", async () => {
  const child = spawn(process.execPath, [CLI, "serve", "examples/weather.mock.json"], { cwd: ROOT, stdio: "pipe" });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.resume();
  const client = new Client({ name: "admin-serve-test", version: "1.0.0" });
  try {
    await expect.poll(() => stdout, { timeout: 5_000 }).toContain("stub-3:");
    const url = /at (http:\/\/\S+\/mcp)\n/.exec(stdout)?.[1] ?? "";
    const base = /admin API at (http:\/\/\S+\/__admin)\n/.exec(stdout)?.[1] ?? "";
    expect(base).toBe(url.replace(/\/mcp$/, "/__admin"));

    // The file's tool may be stubbed without declaring it again.
    const added = await admin(base, "POST", "/stubs", { responses: [{ tool: "get_weather", args: { city: "Jeju" }, result: { city: "Jeju", temp: 18 } }] });
    expect(added).toMatchObject({ status: 201, body: { ids: ["stub-4"] } });

    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(textOf(await client.callTool({ name: "get_weather", arguments: { city: "Jeju" } }))).toBe('{"city":"Jeju","temp":18}');
    expect(textOf(await client.callTool({ name: "get_weather", arguments: { city: "Seoul" } }))).toBe('{"city":"Seoul","temp":21,"condition":"clear"}');

    expect((await admin(base, "POST", "/verify", { pattern: { tool: "get_weather", args: { city: "Jeju" } }, count: 1 })).body).toEqual({ ok: true, matched: 1 });
    const sources = ((await admin(base, "GET", "/stubs")).body as Array<{ id: string; source: string }>).filter((s) => s.source !== "default");
    expect(sources.map((s) => s.source)).toEqual([
      "weather.mock.json responses[0]",
      "weather.mock.json responses[1]",
      "weather.mock.json responses[2]",
      "the admin request responses[0]",
    ]);

    // reset goes back to the file's stubs.
    expect((await admin(base, "POST", "/reset")).status).toBe(204);
    const afterReset = ((await admin(base, "GET", "/stubs")).body as Array<{ source: string }>).filter((s) => s.source !== "default");
    expect(afterReset.map((s) => s.source)).toEqual(["weather.mock.json responses[0]", "weather.mock.json responses[1]", "weather.mock.json responses[2]"]);
    expect(textOf(await client.callTool({ name: "get_weather", arguments: { city: "Jeju" } }))).toBe('{"city":"Jeju","temp":15,"condition":"cloudy"}');
  } finally {
    await client.close();
    child.kill("SIGKILL");
  }
});
