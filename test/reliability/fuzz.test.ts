/**
 * Property-based robustness of the Streamable HTTP transport and the dispatcher (fast-check,
 * seeded and bounded): whatever arrives (arbitrary JSON, arbitrary values, random text, valid
 * requests with keys dropped, renamed or retyped), under random Accept / Content-Type /
 * session / protocol-version headers and random HTTP methods, the mock
 *   - answers within a timeout (no hang),
 *   - never answers 5xx,
 *   - answers a JSON-RPC message (or an array of them), an empty 202/204, an SSE stream, or an
 *     HTTP error whose body is a JSON-RPC error object with `id: null`,
 *   - never fails inside (no JSON-RPC -32603 "the mock failed" answer, no unhandled rejection),
 *   - and a valid tools/call right after every run still works.
 *
 * `MCPMOCK_FUZZ_RUNS=2000 npx vitest run test/reliability/fuzz.test.ts` runs longer (about 10 ms a
 * run); `MCPMOCK_FUZZ_SEED=n` explores other inputs.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ANY, McpMock, type McpMockOptions } from "../../src/index.js";
import { ACCEPT_BOTH } from "../support/raw-http.js";

const RUNS = Number(process.env["MCPMOCK_FUZZ_RUNS"] ?? 120);
const SEED = Number(process.env["MCPMOCK_FUZZ_SEED"] ?? 42);
const TEST_TIMEOUT_MS = Math.max(60_000, RUNS * 60);
const ANSWER_TIMEOUT_MS = 3000;

const tools = [
  { name: "echo", inputSchema: { type: "object" } },
  {
    name: "add",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    outputSchema: { type: "object", properties: { sum: { type: "number" } } },
  },
] as const;

let mock: McpMock<typeof tools>;
/** No sessions: nothing to revive, ids are not checked. */
let stateless = false;
/** Sessions the fuzzer may use (and DELETE); re-opened when deleted. */
const fuzzSessions = { modern: "", old: "" };
/** The session the health check uses; the fuzzer never sees it. */
let healthSession = "";
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

async function initialize(protocolVersion: string): Promise<string> {
  const res = await fetch(mock.url, {
    method: "POST",
    headers: { accept: ACCEPT_BOTH, "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "fuzz", version: "1" } } }),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return res.headers.get("mcp-session-id") ?? "none";
}

/** Starts the mock under test, with stubs that read params in many ways (so random params reach their matchers). */
async function startMock(options: McpMockOptions): Promise<void> {
  mock = await McpMock.start({
    tools,
    onUnmatched: "silent",
    prompts: [{ name: "greet", arguments: [{ name: "name", required: true }] }],
    resources: [
      { uri: "test://hello", name: "hello", text: "Hello" },
      { uriTemplate: "test://items/{id}", name: "item" },
    ],
    ...options,
  });
  mock.toolsCall("echo").respondsWith((call) => ({ echoed: call.args }));
  mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
  mock.toolsCall("add").withArgs({ a: ANY, b: 0 }).respondsWith({ sum: 0 });
  mock.toolsCall("add").withArgsMatching({ a: 5 }).respondsWith({ sum: 5 });
  mock.toolsCall("add").respondsWith((call) => ({ sum: Number(call.args.a) + Number(call.args.b) }));
  mock.promptsGet("greet").withArgs({ name: "Ada" }).respondsWith("Hello, Ada");
  mock.resourcesRead("test://items/{id}").respondsWith((call) => ({ text: `item ${String(call.variables.id)}` }));
  mock.completionComplete().forPrompt("greet").withArgument("name").respondsWith(["Ada", "Alan"]);
  mock.method("custom/thing").withParams({ id: 7 }).respondsWith({ ok: true });
  mock.method("custom/pred").withParams((p) => (p as { n?: unknown } | undefined)?.n === 1).respondsWith({ ok: 1 });
  stateless = options.sessions === "stateless";
  fuzzSessions.modern = await initialize("2025-11-25");
  fuzzSessions.old = await initialize("2025-03-26");
  healthSession = await initialize("2025-11-25");
}

beforeAll(() => void process.on("unhandledRejection", onUnhandled));
afterAll(() => void process.off("unhandledRejection", onUnhandled));

// ---------------------------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------------------------

type SessionPick = "modern" | "old" | "unknown" | "empty" | "none";

interface Envelope {
  readonly method: "POST" | "GET" | "DELETE" | "PUT";
  readonly accept: string | undefined;
  readonly contentType: string | undefined;
  readonly session: SessionPick;
  readonly protocolVersion: string | undefined;
  readonly lastEventId: string | undefined;
}

const envelope: fc.Arbitrary<Envelope> = fc.record({
  method: fc.constantFrom("POST", "POST", "POST", "GET", "DELETE", "PUT"),
  accept: fc.constantFrom(ACCEPT_BOTH, ACCEPT_BOTH, "application/json", "text/event-stream", "*/*", "", undefined),
  contentType: fc.constantFrom("application/json", "application/json", "application/json; charset=utf-8", "text/plain", "", undefined),
  session: fc.constantFrom<SessionPick>("modern", "modern", "old", "unknown", "empty", "none"),
  protocolVersion: fc.constantFrom("2025-11-25", "2025-06-18", "2025-03-26", "1999-01-01", "", undefined, undefined),
  lastEventId: fc.constantFrom(undefined, undefined, undefined, "1-0", "garbage", "99-1"),
});

const METHODS = [
  "initialize", "ping", "tools/list", "tools/call", "prompts/list", "prompts/get", "resources/list",
  "resources/templates/list", "resources/read", "resources/subscribe", "resources/unsubscribe",
  "completion/complete", "logging/setLevel", "server/discover", "custom/thing", "custom/pred",
  "notifications/initialized", "notifications/cancelled", "notifications/progress", "nope/nope",
];

const anyJson = fc.jsonValue({ maxDepth: 4 });

/** Valid messages of every kind, as a base for mutations. */
const validMessage: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ a: fc.integer({ min: -5, max: 10 }), b: fc.integer({ min: -5, max: 10 }) }).map((args) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: args } })),
  anyJson.map((v) => ({ jsonrpc: "2.0", id: "e", method: "tools/call", params: { name: "echo", arguments: { v } } })),
  fc.constant({ jsonrpc: "2.0", id: 2, method: "prompts/get", params: { name: "greet", arguments: { name: "Ada" } } }),
  fc.constant({ jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "test://items/7" } }),
  fc.constant({ jsonrpc: "2.0", id: 4, method: "completion/complete", params: { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "A" } } }),
  fc.constant({ jsonrpc: "2.0", id: 5, method: "logging/setLevel", params: { level: "info" } }),
  fc.constant({ jsonrpc: "2.0", id: 6, method: "tools/list", params: { cursor: "x" } }),
  fc.constant({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "f", version: "1" } } }),
  fc.constant({ jsonrpc: "2.0", id: 8, method: "custom/thing", params: { id: 7 } }),
  fc.constant({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }),
  fc.constant({ jsonrpc: "2.0", method: "notifications/initialized" }),
  fc.constant({ jsonrpc: "2.0", id: 99, result: {} }),
  fc.constant({ jsonrpc: "2.0", id: 98, error: { code: -1, message: "no" } }),
);

type Path = Array<string | number>;

function paths(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== "object") return [prefix];
  const out: Path[] = [prefix];
  // Plain loops: a mutation may give an array an own "constructor" key, which breaks Array#map.
  for (const key of Object.keys(value)) out.push(...paths((value as Record<string, unknown>)[key], [...prefix, Array.isArray(value) && /^\d+$/.test(key) ? Number(key) : key]));
  return out;
}

function edit(value: unknown, path: Path, change: (parent: Record<string | number, unknown>, key: string | number) => void): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  if (path.length === 0) return copy;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  change(parent, path[path.length - 1] as string | number);
  return copy;
}

type Mutation =
  | { kind: "drop" }
  | { kind: "rename"; to: string }
  | { kind: "retype"; to: unknown }
  | { kind: "add"; key: string; to: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant<Mutation>({ kind: "drop" }),
  fc.constantFrom("jsonrpc", "id", "method", "params", "name", "arguments", "__proto__", "constructor", "x").map((to): Mutation => ({ kind: "rename", to })),
  fc.oneof(anyJson, fc.constantFrom(null, 1.5, -0, 2 ** 60, true, [], {}, "", "2.0")).map((to): Mutation => ({ kind: "retype", to })),
  fc.tuple(fc.constantFrom("extra", "__proto__", "constructor", "_meta", "progressToken"), anyJson).map(([key, to]): Mutation => ({ kind: "add", key, to })),
);

function mutate(message: unknown, mutations: Array<[number, Mutation]>): unknown {
  let current = message;
  for (const [pick, m] of mutations) {
    const all = paths(current);
    const path = all[pick % all.length] as Path;
    current = edit(current, path, (parent, key) => {
      const value = parent[key];
      if (m.kind === "drop") delete parent[key];
      else if (m.kind === "rename") {
        delete parent[key];
        Object.defineProperty(parent, m.to, { value, enumerable: true, writable: true, configurable: true });
      } else if (m.kind === "retype") parent[key] = m.to;
      else if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        Object.defineProperty(value, m.key, { value: m.to, enumerable: true, writable: true, configurable: true });
      } else parent[key] = { [m.key]: m.to };
    });
  }
  return current;
}

const mutatedMessage = fc
  .tuple(validMessage, fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 3 }))
  .map(([message, mutations]) => mutate(message, mutations));

/** Random method names and params: reaches the dispatcher's branches with wrong shapes. */
const randomRequest = fc.record({
  jsonrpc: fc.constant("2.0"),
  id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
  method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 12 })),
  params: fc.dictionary(fc.constantFrom("name", "arguments", "uri", "cursor", "level", "ref", "argument", "_meta", "id", "n", "requestId"), anyJson, { maxKeys: 4 }),
});

const body: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: mutatedMessage.map((m) => JSON.stringify(m)) },
  { weight: 3, arbitrary: randomRequest.map((m) => JSON.stringify(m)) },
  { weight: 2, arbitrary: fc.json({ maxDepth: 4 }) },
  { weight: 2, arbitrary: fc.anything({ maxDepth: 3 }).map((v) => { try { return JSON.stringify(v) ?? "undefined"; } catch { return String(typeof v); } }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(validMessage, mutatedMessage), { maxLength: 4 }).map((a) => JSON.stringify(a)) },
);

// ---------------------------------------------------------------------------------------------
// Sending and checking
// ---------------------------------------------------------------------------------------------

function sessionHeader(pick: SessionPick): string | undefined {
  switch (pick) {
    case "modern":
      return fuzzSessions.modern;
    case "old":
      return fuzzSessions.old;
    case "unknown":
      return "session-does-not-exist";
    case "empty":
      return "";
    case "none":
      return undefined;
  }
}

function isJsonRpcAnswer(v: unknown): boolean {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const m = v as Record<string, unknown>;
  if (m["jsonrpc"] !== "2.0") return false;
  if ("result" in m) return typeof m["id"] === "string" || Number.isSafeInteger(m["id"]);
  if ("error" in m) return isErrorObject(m["error"]);
  return false;
}

function isErrorObject(e: unknown): boolean {
  return e !== null && typeof e === "object" && Number.isSafeInteger((e as { code?: unknown }).code) && typeof (e as { message?: unknown }).message === "string";
}

/** The JSON-RPC errors in an answer: -32603 means the mock itself failed. */
function internalErrors(messages: unknown[]): unknown[] {
  return messages.filter((m) => (m as { error?: { code?: number } }).error?.code === -32603);
}

/** Reads an SSE body to its end (a POST stream closes after the answer) and returns its messages. */
function sseMessages(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line.length > "data: ".length)
    .map((line) => JSON.parse(line.slice("data: ".length)) as unknown);
}

interface Sent {
  readonly status: number;
  readonly messages: unknown[];
}

async function send(env: Envelope, text: string, timeoutMs = ANSWER_TIMEOUT_MS): Promise<Sent> {
  const headers: Record<string, string> = {};
  if (env.accept !== undefined) headers["accept"] = env.accept;
  if (env.contentType !== undefined) headers["content-type"] = env.contentType;
  const session = sessionHeader(env.session);
  if (session !== undefined) headers["mcp-session-id"] = session;
  if (env.protocolVersion !== undefined) headers["mcp-protocol-version"] = env.protocolVersion;
  if (env.lastEventId !== undefined) headers["last-event-id"] = env.lastEventId;
  const timeout = AbortSignal.timeout(timeoutMs);
  const stream = new AbortController();
  const signal = AbortSignal.any([timeout, stream.signal]);
  const withBody = env.method === "POST" || env.method === "PUT";
  let res: Response;
  try {
    res = await fetch(mock.url, { method: env.method, headers, signal, ...(withBody ? { body: text } : {}) });
  } catch (error) {
    throw new Error(`no answer within ${timeoutMs} ms (or the connection failed): ${String(error)}`);
  }
  const contentType = res.headers.get("content-type") ?? "";
  if (env.method === "GET" && res.status === 200) {
    // The GET stream is held open: that it opened is the answer.
    expect(contentType).toBe("text/event-stream");
    stream.abort();
    return { status: res.status, messages: [] };
  }
  const raw = await res.text().catch((error: unknown) => {
    throw new Error(`the body did not arrive within ${timeoutMs} ms: ${String(error)}`);
  });
  if (res.status === 202 || res.status === 204) {
    expect(raw).toBe("");
    return { status: res.status, messages: [] };
  }
  if (res.status === 200 && contentType === "text/event-stream") {
    const messages = sseMessages(raw);
    for (const m of messages) expect(isJsonRpcAnswer(m), `SSE message ${JSON.stringify(m)}`).toBe(true);
    return { status: res.status, messages };
  }
  expect(contentType, `status ${res.status}, body ${raw.slice(0, 200)}`).toBe("application/json");
  const parsed = JSON.parse(raw) as unknown;
  if (res.status === 200) {
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(isJsonRpcAnswer(m), `answer ${JSON.stringify(m).slice(0, 300)}`).toBe(true);
    return { status: res.status, messages };
  }
  // An HTTP error: a JSON-RPC error object without an id.
  expect(res.status, raw.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(res.status, raw.slice(0, 300)).toBeLessThan(500);
  const error = parsed as Record<string, unknown>;
  expect(error["jsonrpc"]).toBe("2.0");
  expect(error["id"]).toBeNull();
  expect(isErrorObject(error["error"]), raw.slice(0, 300)).toBe(true);
  return { status: res.status, messages: [] };
}

/** Re-opens fuzz sessions a fuzzed DELETE (or initialize) ended. */
async function reviveSessions(): Promise<void> {
  if (stateless) return;
  const open = new Set(mock.sessions().map((s) => s.id));
  if (!open.has(fuzzSessions.modern)) fuzzSessions.modern = await initialize("2025-11-25");
  if (!open.has(fuzzSessions.old)) fuzzSessions.old = await initialize("2025-03-26");
}

let healthId = 0;
async function expectHealthy(): Promise<void> {
  const id = ++healthId;
  const res = await fetch(mock.url, {
    method: "POST",
    headers: { accept: ACCEPT_BOTH, "content-type": "application/json", "mcp-session-id": healthSession, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: `health-${id}`, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } }),
    signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
  });
  const text = await res.text();
  const answer = res.headers.get("content-type") === "text/event-stream" ? sseMessages(text) : [JSON.parse(text) as unknown];
  expect(answer).toHaveLength(1);
  expect(answer[0]).toStrictEqual({
    jsonrpc: "2.0",
    id: `health-${id}`,
    result: { content: [{ type: "text", text: '{"sum":3}' }], structuredContent: { sum: 3 } },
  });
  expect(res.status).toBe(200);
}

async function check(env: Envelope, text: string): Promise<void> {
  const sent = await send(env, text);
  expect(internalErrors(sent.messages), `the mock failed inside on ${text.slice(0, 300)}`).toEqual([]);
  expect(sent.status).toBeLessThan(500);
  await reviveSessions();
  await expectHealthy();
}

describe("fuzzing the HTTP transport and the dispatcher", () => {
  beforeAll(() => startMock({}));
  afterAll(() => mock.close());

  test(`arbitrary bodies under random headers and methods (${RUNS} runs, seed ${SEED})`, async () => {
    await fc.assert(fc.asyncProperty(envelope, body, check), { seed: SEED, numRuns: RUNS, endOnFailure: true });
    expect(unhandled).toEqual([]);
  }, TEST_TIMEOUT_MS);

  test(`mutated valid requests with valid headers (${RUNS} runs, seed ${SEED})`, async () => {
    const valid = envelope.map((e) => ({ ...e, method: "POST" as const, accept: ACCEPT_BOTH, contentType: "application/json", lastEventId: undefined }));
    await fc.assert(fc.asyncProperty(valid, mutatedMessage.map((m) => JSON.stringify(m)), check), { seed: SEED + 1, numRuns: RUNS, endOnFailure: true });
    expect(unhandled).toEqual([]);
  }, TEST_TIMEOUT_MS);

  test(`random methods and params reach the dispatcher (${RUNS} runs, seed ${SEED})`, async () => {
    const valid = fc.constantFrom<SessionPick>("modern", "old").map((session): Envelope => ({
      method: "POST", accept: ACCEPT_BOTH, contentType: "application/json", session, protocolVersion: undefined, lastEventId: undefined,
    }));
    const requests = fc.oneof(randomRequest, randomRequest.map((r) => [r, { ...r, id: `${String(r.id)}-2` }]));
    await fc.assert(fc.asyncProperty(valid, requests.map((m) => JSON.stringify(m)), check), { seed: SEED + 2, numRuns: RUNS, endOnFailure: true });
    expect(unhandled).toEqual([]);
  }, TEST_TIMEOUT_MS);
});

describe.each([
  ["responseMode: sse", { responseMode: "sse" } as const],
  ["sessions: stateless", { sessions: "stateless" } as const],
])("fuzzing a mock with %s", (_, options) => {
  beforeAll(() => startMock(options));
  afterAll(() => mock.close());

  test(`arbitrary bodies under random headers and methods (${Math.ceil(RUNS / 2)} runs, seed ${SEED})`, async () => {
    await fc.assert(fc.asyncProperty(envelope, body, check), { seed: SEED + 3, numRuns: Math.ceil(RUNS / 2), endOnFailure: true });
    expect(unhandled).toEqual([]);
  }, TEST_TIMEOUT_MS);
});

describe("the property's own checks", () => {
  test("they catch a 5xx, a body that is not JSON-RPC, and a hang", async () => {
    // A guard for the guard: a mock stubbed to misbehave must fail the checks.
    await startMock({});
    try {
      mock.toolsCall("echo").withArgs({ v: 500 }).respondsWithStatus(503, { oops: true });
      mock.toolsCall("echo").withArgs({ v: "text" }).respondsWithStatus(400, "plain text");
      mock.toolsCall("echo").withArgs({ v: "json" }).respondsWithStatus(200, { not: "json-rpc" });
      mock.toolsCall("echo").withArgs({ v: "internal" }).respondsWithError(-32603, "the mock failed");
      mock.toolsCall("echo").withArgs({ v: "slow" }).withDelay(1000).respondsWith("late");
      const env: Envelope = { method: "POST", accept: ACCEPT_BOTH, contentType: "application/json", session: "modern", protocolVersion: undefined, lastEventId: undefined };
      const call = (v: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { v } } });
      await expect(send(env, call(500))).rejects.toThrow();
      await expect(send(env, call("text"))).rejects.toThrow();
      await expect(send(env, call("json"))).rejects.toThrow();
      await expect(check(env, call("internal"))).rejects.toThrow(/the mock failed inside/);
      await expect(send(env, call("slow"), 200)).rejects.toThrow(/no answer within 200 ms/);
      await check(env, call("fine"));
    } finally {
      await mock.close();
    }
  });
});
