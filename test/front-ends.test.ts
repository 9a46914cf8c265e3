/**
 * The front ends agree. Every kind of definition entry is written twice, as data and as its
 * DSL chain, and the two must give the same stub (the same `explain()` sentence) or the same
 * refusal: the DSL's message, with the file and the JSON path in front for the definition.
 * Each data form goes through all three ways in: `assertMockDefinition` (what
 * `mcpmock validate` runs), `McpMock.fromDefinition`, and `POST /__admin/stubs`.
 *
 * Two cases once disagreed and are kept here: a fault with `after` on a kind that takes no
 * count, and a `then` answer that `strict: true` refuses.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ABSENT, ANY, McpMock, McpMockError, assertMockDefinition, contains, type MockDefinition } from "../src/index.js";

const tools = [
  { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } },
  { name: "slow", inputSchema: { type: "object" } },
  { name: "job", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } },
] as const;
const prompts = [{ name: "greet", arguments: [{ name: "name", required: true }] }];
const resources = [{ uri: "test://hello", name: "hello", text: "Hello, world" }];

/** An entry (or a few) as data, beside the DSL chain that says the same. */
interface Case {
  readonly name: string;
  /** The definition's stubs: `responses`, prompts' `responses` (under `greet`), `completions`, `openStream`. */
  readonly data: Pick<MockDefinition, "responses" | "completions" | "openStream"> & { readonly greet?: NonNullable<MockDefinition["prompts"]>[number]["responses"] };
  readonly dsl: (mock: McpMock) => unknown;
  readonly strict?: boolean;
}

/** A refusal: the JSON path the definition's message names. */
interface Refusal extends Case {
  readonly path: string;
}

function definitionOf(c: Case): MockDefinition {
  const { greet, ...rest } = c.data;
  return {
    tools: [...tools],
    resources,
    prompts: [{ ...prompts[0]!, ...(greet ? { responses: greet } : {}) }],
    ...rest,
    ...(c.strict ? { options: { strict: true } } : {}),
  };
}

/** The fragment the admin API takes: the stubs, and the prompt they answer. */
function fragmentOf(c: Case): Record<string, unknown> {
  const { greet, ...rest } = c.data;
  return { ...rest, ...(greet ? { prompts: [{ ...prompts[0]!, responses: greet }] } : {}) };
}

async function codeMock(strict = false): Promise<McpMock> {
  return (await McpMock.start({ tools, resources, prompts, transport: "none", ...(strict ? { strict: true } : {}) })) as unknown as McpMock;
}

/** The sentences of the stubs a user wrote (not the built-in answers). */
const sentences = (mock: McpMock): string[] => mock.stubs().filter((s) => s.source !== "default").map((s) => s.sentence);

function thrown(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(McpMockError);
    return (error as Error).message;
  }
  throw new Error("it was accepted");
}

/** The definition's message for the DSL's `message`: the same text after the file and the JSON path. */
const inFile = (file: string, path: string, message: string): string => `[mcpmock] Invalid mock definition — ${file}: ${path}: ${message.replace(/^\[mcpmock\] /, "")}`;

const accepted: Case[] = [
  { name: "a tool response without args", data: { responses: [{ tool: "add", result: { sum: 0 } }] }, dsl: (m) => m.toolsCall("add").respondsWith({ sum: 0 }) },
  { name: "a tool response with args", data: { responses: [{ tool: "add", args: { a: 1, b: 2 }, result: { sum: 3 } }] }, dsl: (m) => m.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 }) },
  { name: "isError", data: { responses: [{ tool: "add", result: "no", isError: true }] }, dsl: (m) => m.toolsCall("add").respondsWith("no", { isError: true }) },
  { name: "a whole CallToolResult", data: { responses: [{ tool: "add", result: { content: [{ type: "text", text: "3" }] } }] }, dsl: (m) => m.toolsCall("add").respondsWith({ content: [{ type: "text", text: "3" }] }) },
  { name: "argsMatching", data: { responses: [{ tool: "add", argsMatching: { a: 1 }, result: 1 }] }, dsl: (m) => m.toolsCall("add").withArgsMatching({ a: 1 }).respondsWith(1) },
  { name: "params", data: { responses: [{ method: "custom/thing", params: { id: 7 }, result: { ok: true } }] }, dsl: (m) => m.method("custom/thing").withParams({ id: 7 }).respondsWith({ ok: true }) },
  {
    name: "paramsMatching",
    data: { responses: [{ method: "custom/thing", paramsMatching: { id: 8 }, result: { ok: 8 } }] },
    dsl: (m) => m.method("custom/thing").withParamsMatching({ id: 8 }).respondsWith({ ok: 8 }),
  },
  {
    name: "headers",
    data: { responses: [{ tool: "add", headers: { authorization: "Bearer x", "x-team": "blue" }, result: 1 }] },
    dsl: (m) => m.toolsCall("add").withHeader("authorization", "Bearer x").withHeader("x-team", "blue").respondsWith(1),
  },
  {
    name: "data-form matchers in args: $any, $regex, $contains, $absent, $literal",
    data: { responses: [{ tool: "add", args: { a: { $any: true }, b: { $literal: { $any: true } }, q: { $regex: "^w" }, t: { $contains: "ar" }, page: { $absent: true } }, result: 1 }] },
    dsl: (m) => m.toolsCall("add").withArgs({ a: ANY, b: { $any: true }, q: /^w/u, t: contains("ar"), page: ABSENT } as never).respondsWith(1),
  },
  {
    name: "data-form matchers in argsMatching, params and paramsMatching",
    data: {
      responses: [
        { tool: "add", argsMatching: { q: { $contains: "x" } }, result: 1 },
        { method: "custom/thing", params: { id: { $regex: "^[0-9]+$" }, tag: { $any: true } }, result: { ok: 1 } },
        { method: "custom/other", paramsMatching: { cursor: { $absent: true } }, result: { ok: 2 } },
      ],
    },
    dsl: (m) => {
      m.toolsCall("add").withArgsMatching({ q: contains("x") } as never).respondsWith(1);
      m.method("custom/thing").withParams({ id: /^[0-9]+$/u, tag: ANY }).respondsWith({ ok: 1 });
      m.method("custom/other").withParamsMatching({ cursor: ABSENT }).respondsWith({ ok: 2 });
    },
  },
  {
    name: "data-form matchers in headers",
    data: { responses: [{ tool: "add", headers: { authorization: { $regex: "^Bearer " }, "x-team": { $contains: "blu" }, "x-trace": { $any: true }, cookie: { $absent: true } }, result: 1 }] },
    dsl: (m) => m.toolsCall("add").withHeader("authorization", /^Bearer /u).withHeader("x-team", contains("blu")).withHeader("x-trace", ANY).withHeader("cookie", ABSENT).respondsWith(1),
  },
  { name: "sessionId", data: { responses: [{ tool: "add", sessionId: "s-1", result: 1 }] }, dsl: (m) => m.toolsCall("add").withSessionId("s-1").respondsWith(1) },
  { name: "protocolVersion", data: { responses: [{ tool: "add", protocolVersion: "2025-06-18", result: 1 }] }, dsl: (m) => m.toolsCall("add").withProtocolVersion("2025-06-18").respondsWith(1) },
  { name: "bodyContains", data: { responses: [{ tool: "add", bodyContains: "needle", result: 1 }] }, dsl: (m) => m.toolsCall("add").withBodyContaining("needle").respondsWith(1) },
  { name: "priority", data: { responses: [{ tool: "add", priority: 5, result: 1 }] }, dsl: (m) => m.toolsCall("add").priority(5).respondsWith(1) },
  { name: "times", data: { responses: [{ tool: "add", times: 2, result: 1 }] }, dsl: (m) => m.toolsCall("add").times(2).respondsWith(1) },
  { name: "optional", data: { responses: [{ tool: "add", optional: true, result: 1 }] }, dsl: (m) => m.toolsCall("add").optional().respondsWith(1) },
  {
    name: "a task: its result after polls, the statuses they report, its ttl, pollInterval and final status message",
    data: { responses: [{ tool: "job", task: { afterPolls: 3, statuses: ["working", "input_required"], ttl: 5000, pollInterval: 10, statusMessage: "built" }, result: "done" }] },
    dsl: (m) => m.toolsCall("job").asTask({ afterPolls: 3, statuses: ["working", "input_required"], ttl: 5000, pollInterval: 10, statusMessage: "built" }).respondsWith("done"),
  },
  { name: "a fixed delay", data: { responses: [{ tool: "add", delay: 50, result: 1 }] }, dsl: (m) => m.toolsCall("add").withDelay(50).respondsWith(1) },
  {
    name: "a uniform delay",
    data: { responses: [{ tool: "add", delay: { distribution: "uniform", min: 10, max: 20 }, result: 1 }] },
    dsl: (m) => m.toolsCall("add").withDelay({ distribution: "uniform", min: 10, max: 20 }).respondsWith(1),
  },
  {
    name: "a log-normal delay",
    data: { responses: [{ tool: "add", delay: { distribution: "lognormal", median: 80, sigma: 0.5 }, result: 1 }] },
    dsl: (m) => m.toolsCall("add").withDelay({ distribution: "lognormal", median: 80, sigma: 0.5 }).respondsWith(1),
  },
  {
    name: "a scenario",
    data: { responses: [{ tool: "add", scenario: { name: "checkout", whenState: "Started", setState: "Paid" }, result: "paying" }] },
    dsl: (m) => m.toolsCall("add").inScenario("checkout").whenState("Started").willSetState("Paid").respondsWith("paying"),
  },
  { name: "a scenario that only moves on", data: { responses: [{ tool: "add", scenario: { name: "s", setState: "done" }, result: 1 }] }, dsl: (m) => m.toolsCall("add").inScenario("s").willSetState("done").respondsWith(1) },
  { name: "an error", data: { responses: [{ tool: "add", error: { code: -32603, message: "internal" } }] }, dsl: (m) => m.toolsCall("add").respondsWithError(-32603, "internal") },
  {
    name: "an error with data",
    data: { responses: [{ tool: "add", error: { code: -32603, message: "internal", data: { why: "test" } } }] },
    dsl: (m) => m.toolsCall("add").respondsWithError(-32603, "internal", { why: "test" }),
  },
  { name: "a status", data: { responses: [{ tool: "add", status: 503 }] }, dsl: (m) => m.toolsCall("add").respondsWithStatus(503) },
  { name: "a status with a text body", data: { responses: [{ tool: "add", status: 503, body: "down" }] }, dsl: (m) => m.toolsCall("add").respondsWithStatus(503, "down") },
  { name: "a status with a JSON body", data: { responses: [{ tool: "add", status: 429, body: { retry: 1 } }] }, dsl: (m) => m.toolsCall("add").respondsWithStatus(429, { retry: 1 }) },
  { name: "a status with headers", data: { responses: [{ tool: "add", status: 401, responseHeaders: { "www-authenticate": "Bearer" } }] }, dsl: (m) => m.toolsCall("add").respondsWithStatus(401, undefined, { headers: { "www-authenticate": "Bearer" } }) },
  ...(["connection-reset", "empty-response", "malformed-json", "wrong-id", "duplicate-response", "drop-stream-after"] as const).map(
    (kind): Case => ({ name: `the fault ${kind}`, data: { responses: [{ tool: "add", fault: { kind } }] }, dsl: (m) => m.toolsCall("add").fails(kind) }),
  ),
  { name: "drop-stream-after with a count", data: { responses: [{ tool: "add", fault: { kind: "drop-stream-after", after: 2 } }] }, dsl: (m) => m.toolsCall("add").fails("drop-stream-after", 2) },
  {
    name: "a stream with a progress step",
    data: { responses: [{ tool: "slow", stream: [{ progress: 1 }, { progress: 2, total: 2, message: "done" }], result: "ok" }] },
    dsl: (m) => m.toolsCall("slow").streams((s) => s.progress(1).progress(2, 2, "done").result("ok")),
  },
  {
    name: "a stream with log steps",
    data: { responses: [{ tool: "slow", stream: [{ log: "info", data: "working" }, { log: "error", data: { n: 1 }, logger: "db" }], result: "ok" }] },
    dsl: (m) => m.toolsCall("slow").streams((s) => s.log("info", "working").log("error", { n: 1 }, "db").result("ok")),
  },
  { name: "a stream with a delay step", data: { responses: [{ tool: "slow", stream: [{ delay: 10 }], result: "ok" }] }, dsl: (m) => m.toolsCall("slow").streams((s) => s.delay(10).result("ok")) },
  {
    name: "a stream with notify steps",
    data: { responses: [{ tool: "slow", stream: [{ notify: "notifications/tools/list_changed" }, { notify: "notifications/resources/updated", params: { uri: "test://hello" } }], result: "ok" }] },
    dsl: (m) => m.toolsCall("slow").streams((s) => s.notify("notifications/tools/list_changed").notify("notifications/resources/updated", { uri: "test://hello" }).result("ok")),
  },
  {
    name: "a stream with request steps",
    data: { responses: [{ tool: "slow", stream: [{ request: "roots/list" }, { request: "elicitation/create", params: { message: "Name?" }, timeoutMs: 500 }], result: "ok" }] },
    dsl: (m) => m.toolsCall("slow").streams((s) => s.request("roots/list").request("elicitation/create", { message: "Name?" }, { timeoutMs: 500 }).result("ok")),
  },
  {
    name: "a stream with a named request, a group of requests and startTask (a task tool)",
    data: {
      responses: [
        {
          tool: "job",
          stream: [
            { request: "elicitation/create", key: "user_name", params: { message: "Name?" } },
            { startTask: true },
            { requests: { team: { request: "elicitation/create", params: { message: "Team?" } }, roots: { request: "roots/list" } } },
          ],
          result: "ok",
        },
      ],
    },
    dsl: (m) =>
      m.toolsCall("job").streams((s) =>
        s
          .request("elicitation/create", { message: "Name?" }, { key: "user_name" })
          .startTask()
          .requests({ team: { method: "elicitation/create", params: { message: "Team?" } }, roots: { method: "roots/list" } })
          .result("ok"),
      ),
  },
  {
    name: "a streamed tool failure (isError beside stream and result)",
    data: { responses: [{ tool: "slow", stream: [{ delay: 1 }], result: "broke", isError: true }] },
    dsl: (m) => m.toolsCall("slow").streams((s) => s.delay(1).result({ content: [{ type: "text", text: "broke" }], isError: true })),
  },
  {
    name: "a prompt entry in responses that streams",
    // The admin API's fragment declares the prompt it answers, as prompt entries do (`greet: []`).
    data: { greet: [], responses: [{ prompt: "greet", args: { name: "Ada" }, stream: [{ request: "elicitation/create", key: "context", params: { message: "Context?" } }], result: { messages: [{ role: "user", content: { type: "text", text: "Hi" } }] } }] },
    dsl: (m) => m.promptsGet("greet").withArgs({ name: "Ada" }).streams((s) => s.request("elicitation/create", { message: "Context?" }, { key: "context" }).result({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }] })),
  },
  {
    name: "a stream with a send step",
    data: { responses: [{ tool: "slow", stream: [{ send: { jsonrpc: "2.0", method: "notifications/custom" } }], result: "ok" }] },
    dsl: (m) => m.toolsCall("slow").streams((s) => s.send({ jsonrpc: "2.0", method: "notifications/custom" }).result("ok")),
  },
  {
    name: "a stream that ends in an error",
    data: { responses: [{ tool: "slow", stream: [{ progress: 1 }], error: { code: -32000, message: "gave up" } }] },
    dsl: (m) => m.toolsCall("slow").streams((s) => s.progress(1).error(-32000, "gave up")),
  },
  { name: "a stream without an end", data: { responses: [{ tool: "slow", stream: [{ progress: 1 }] }] }, dsl: (m) => m.toolsCall("slow").streams((s) => s.progress(1)) },
  {
    name: "a stream with dropAfter",
    data: { responses: [{ tool: "slow", stream: [{ progress: 1 }, { progress: 2 }], result: "ok", dropAfter: 1 }] },
    dsl: (m) => m.toolsCall("slow").streams((s) => s.progress(1).progress(2).result("ok"), { dropAfter: 1 }),
  },
  {
    name: "a then sequence",
    data: { responses: [{ tool: "add", result: "first", then: [{ result: "second" }, { result: "third", isError: true }] }] },
    dsl: (m) => m.toolsCall("add").respondsWith("first").andThen("second").andThen("third", { isError: true }),
  },
  {
    name: "a then sequence on a method",
    data: { responses: [{ method: "custom/thing", result: { n: 1 }, then: [{ result: { n: 2 } }] }] },
    dsl: (m) => m.method("custom/thing").respondsWith({ n: 1 }).andThen({ n: 2 }),
  },
  { name: "a prompt response", data: { greet: [{ args: { name: "Ada" }, messages: "Hello, Ada" }] }, dsl: (m) => m.promptsGet("greet").withArgs({ name: "Ada" }).respondsWith("Hello, Ada") },
  {
    name: "a prompt response with messages and a description",
    data: { greet: [{ messages: [{ role: "assistant", content: { type: "text", text: "Hi" } }], description: "hi" }] },
    dsl: (m) => m.promptsGet("greet").respondsWith([{ role: "assistant", content: { type: "text", text: "Hi" } }], { description: "hi" }),
  },
  { name: "a prompt error", data: { greet: [{ args: { name: "Eve" }, error: { code: -32602, message: "no Eve" } }] }, dsl: (m) => m.promptsGet("greet").withArgs({ name: "Eve" }).respondsWithError(-32602, "no Eve") },
  { name: "a prompt response with modifiers", data: { greet: [{ messages: "Hello", priority: -1, times: 3 }] }, dsl: (m) => m.promptsGet("greet").priority(-1).times(3).respondsWith("Hello") },
  { name: "a prompt response with then", data: { greet: [{ messages: "first", then: [{ result: "second" }] }] }, dsl: (m) => m.promptsGet("greet").respondsWith("first").andThen("second") },
  {
    name: "a completion for a prompt argument",
    data: { completions: [{ ref: { type: "ref/prompt", name: "greet" }, argument: "name", values: ["Ada", "Alan"] }] },
    dsl: (m) => m.completionComplete().forPrompt("greet").withArgument("name").respondsWith(["Ada", "Alan"]),
  },
  {
    name: "a completion for a resource",
    data: { completions: [{ ref: { type: "ref/resource", uri: "test://hello" }, values: ["x"] }] },
    dsl: (m) => m.completionComplete().forResource("test://hello").respondsWith(["x"]),
  },
  { name: "a completion for anything", data: { completions: [{ values: ["x", "y"] }] }, dsl: (m) => m.completionComplete().respondsWith(["x", "y"]) },
  {
    name: "openStream",
    data: { openStream: [{ delay: 100 }, { notify: "notifications/tools/list_changed" }] },
    dsl: (m) => m.openStream().sends((s) => s.delay(100).notify("notifications/tools/list_changed")),
  },
  { name: "initialize", data: { responses: [{ method: "initialize", result: { instructions: "Be brief" } }] }, dsl: (m) => m.initialize().respondsWith({ instructions: "Be brief" }) },
  {
    name: "initialize with a session id",
    data: { responses: [{ method: "initialize", result: { instructions: "Be brief" }, sessionId: "s-9" }] },
    dsl: (m) => m.initialize().respondsWith({ instructions: "Be brief" }, { sessionId: "s-9" }),
  },
  { name: "a method entry for an MCP method", data: { responses: [{ method: "tools/list", result: { tools: [] } }] }, dsl: (m) => m.method("tools/list").respondsWith({ tools: [] }) },
  {
    name: "strict answers that the SDK accepts",
    strict: true,
    data: { responses: [{ tool: "add", result: "fine", then: [{ result: { content: [{ type: "text", text: "also fine" }] } }] }] },
    dsl: (m) => m.toolsCall("add").respondsWith("fine").andThen({ content: [{ type: "text", text: "also fine" }] }),
  },
];

const refused: Refusal[] = [
  {
    name: "two requests of a stream under one key",
    path: "responses[0]",
    data: { responses: [{ tool: "slow", stream: [{ request: "roots/list", key: "k" }, { requests: { k: { request: "roots/list" } } }], result: "ok" }] },
    dsl: (m) => m.toolsCall("slow").streams((s) => s.request("roots/list", undefined, { key: "k" }).requests({ k: { method: "roots/list" } }).result("ok")),
  },
  {
    name: "startTask twice",
    path: "responses[0]",
    data: { responses: [{ tool: "job", stream: [{ startTask: true }, { startTask: true }], result: "ok" }] },
    dsl: (m) => m.toolsCall("job").streams((s) => s.startTask().startTask().result("ok")),
  },
  // Once accepted by a definition: a count on a fault that takes none.
  ...(["connection-reset", "empty-response", "malformed-json", "wrong-id", "duplicate-response"] as const).map(
    (kind): Refusal => ({ name: `the fault ${kind} with after`, path: "responses[0]", data: { responses: [{ tool: "add", fault: { kind, after: 3 } }] }, dsl: (m) => m.toolsCall("add").fails(kind, 3) }),
  ),
  {
    name: "a then answer that is a fault with a count",
    path: "responses[0].then[0]",
    data: { responses: [{ tool: "add", result: 1, then: [{ fault: { kind: "wrong-id", after: 1 } }] }] },
    dsl: (m) => m.toolsCall("add").fails("wrong-id", 1),
  },
  // Once accepted by a definition: a then answer that strict refuses.
  {
    name: "a then answer that strict refuses",
    strict: true,
    path: "responses[0].then[0]",
    data: { responses: [{ tool: "add", result: "fine", then: [{ result: { content: [{ type: "bogus" }] } }] }] },
    dsl: (m) => m.toolsCall("add").respondsWith("fine").andThen({ content: [{ type: "bogus" }] } as never),
  },
  {
    name: "a later then answer that strict refuses, on a method",
    strict: true,
    path: "responses[0].then[1]",
    data: { responses: [{ method: "ping", result: {}, then: [{ result: {} }, { result: { extra: 1 } }] }] },
    dsl: (m) => m.method("ping").respondsWith({}).andThen({}).andThen({ extra: 1 }),
  },
  {
    name: "a first answer that strict refuses",
    strict: true,
    path: "responses[0]",
    data: { responses: [{ method: "ping", result: { extra: 1 } }] },
    dsl: (m) => m.method("ping").respondsWith({ extra: 1 }),
  },
  {
    name: "a prompt's then answer that strict refuses",
    strict: true,
    path: "prompts[0].responses[0].then[0]",
    data: { greet: [{ messages: "fine", then: [{ result: [{ role: "nobody", content: { type: "text", text: "x" } }] }] }] },
    dsl: (m) => m.promptsGet("greet").respondsWith("fine").andThen([{ role: "nobody", content: { type: "text", text: "x" } }] as never),
  },
  { name: "a data-form key that does not exist", path: "responses[0].args.q", data: { responses: [{ tool: "add", args: { q: { $regx: "^w" } }, result: 1 }] }, dsl: () => { throw new McpMockError('"$regx" is not a data-form matcher. Use one of $any, $absent, $contains, $regex, $literal; for an object that really has this key, write { "$literal": {"$regx":"^w"} }.'); } },
  { name: "a $regex that is no regular expression", path: "responses[0].headers.authorization", data: { responses: [{ tool: "add", headers: { authorization: { $regex: "(" } }, result: 1 }] }, dsl: () => { throw new McpMockError('{ "$regex": "(" }: $regex is not a valid regular expression (Invalid regular expression: /(/u: Unterminated group); write JavaScript\'s RegExp source, for example { "$regex": "^err" }.'); } },
  { name: "a header name HTTP does not allow", path: "responses[0].headers.bad header", data: { responses: [{ tool: "add", headers: { "bad header": "x" }, result: 1 }] }, dsl: (m) => m.toolsCall("add").withHeader("bad header", "x") },
  { name: "an empty bodyContains", path: "responses[0].bodyContains", data: { responses: [{ tool: "add", bodyContains: "", result: 1 }] }, dsl: (m) => m.toolsCall("add").withBodyContaining("") },
  { name: "an empty scenario name", path: "responses[0].scenario.name", data: { responses: [{ tool: "add", scenario: { name: "" }, result: 1 }] }, dsl: (m) => m.toolsCall("add").inScenario("") },
  {
    name: "an empty scenario state",
    path: "responses[0].scenario.whenState",
    data: { responses: [{ tool: "add", scenario: { name: "s", whenState: "" }, result: 1 }] },
    dsl: (m) => m.toolsCall("add").inScenario("s").whenState(""),
  },
  {
    name: "an empty state to move to",
    path: "responses[0].scenario.setState",
    data: { responses: [{ tool: "add", scenario: { name: "s", setState: "" }, result: 1 }] },
    dsl: (m) => m.toolsCall("add").inScenario("s").willSetState(""),
  },
  {
    name: "a task of a tool declared without taskSupport",
    path: "responses[0].task",
    data: { responses: [{ tool: "add", task: { afterPolls: 1 }, result: 1 }] },
    dsl: (m) => m.toolsCall("add").asTask({ afterPolls: 1 }),
  },
  {
    name: "a uniform delay whose min is above its max",
    path: "responses[0].delay",
    data: { responses: [{ tool: "add", delay: { distribution: "uniform", min: 20, max: 10 }, result: 1 }] },
    dsl: (m) => m.toolsCall("add").withDelay({ distribution: "uniform", min: 20, max: 10 }),
  },
  {
    name: "a session id MCP does not allow",
    path: "responses[0]",
    data: { responses: [{ method: "initialize", result: {}, sessionId: "not valid" }] },
    dsl: (m) => m.initialize().respondsWith({}, { sessionId: "not valid" }),
  },
  { name: "an empty method name", path: "responses[0]", data: { responses: [{ method: "", result: 1 }] }, dsl: (m) => m.method("") },
  { name: "a notify step without a method", path: "responses[0]", data: { responses: [{ tool: "slow", stream: [{ notify: "" }] }] }, dsl: (m) => m.toolsCall("slow").streams((s) => s.notify("")) },
  { name: "a request step without a method", path: "responses[0]", data: { responses: [{ tool: "slow", stream: [{ request: "" }], result: 1 }] }, dsl: (m) => m.toolsCall("slow").streams((s) => s.request("").result(1)) },
  {
    name: "a then answer whose stream step has no method",
    path: "responses[0].then[0]",
    data: { responses: [{ tool: "slow", result: 1, then: [{ stream: [{ notify: "" }] }] }] },
    dsl: (m) => m.toolsCall("slow").streams((s) => s.notify("")),
  },
  { name: "an openStream step without a method", path: "openStream", data: { openStream: [{ notify: "" }] }, dsl: (m) => m.openStream().sends((s) => s.notify("")) },
  {
    name: "a completion for a prompt without a name",
    path: "completions[0].ref.name",
    data: { completions: [{ ref: { type: "ref/prompt", name: "" }, values: [] }] },
    dsl: (m) => m.completionComplete().forPrompt(""),
  },
  { name: "a completion for an empty argument", path: "completions[0].argument", data: { completions: [{ argument: "", values: [] }] }, dsl: (m) => m.completionComplete().withArgument("") },
];

describe("a definition entry and its DSL chain give the same stub", () => {
  test.each(accepted)("$name", async (c) => {
    await using fromCode = await codeMock(c.strict);
    c.dsl(fromCode);
    const expected = sentences(fromCode);
    expect(expected.length).toBeGreaterThan(0);
    assertMockDefinition(definitionOf(c), "front.json");
    await using fromFile = (await McpMock.fromDefinition(definitionOf(c), { transport: "none" })) as unknown as McpMock;
    expect(sentences(fromFile)).toEqual(expected);
  });
});

describe("a definition entry and its DSL chain are refused with the same message", () => {
  test.each(refused)("$name", async (c) => {
    await using fromCode = await codeMock(c.strict);
    const message = thrown(() => c.dsl(fromCode));
    expect(thrown(() => assertMockDefinition(definitionOf(c), "front.json"))).toBe(inFile("front.json", c.path, message));
    await expect(McpMock.fromDefinition(definitionOf(c), { transport: "none" })).rejects.toThrow(inFile("definition", c.path, message));
  });
});

describe("the admin API takes the same entries and refuses the same ones", () => {
  const mocks: Partial<Record<"plain" | "strict", McpMock>> = {};
  beforeAll(async () => {
    mocks.plain = (await McpMock.start({ tools, resources, prompts, admin: true, onUnmatched: "silent" })) as unknown as McpMock;
    mocks.strict = (await McpMock.start({ tools, resources, prompts, admin: true, onUnmatched: "silent", strict: true })) as unknown as McpMock;
  });
  afterAll(async () => {
    await mocks.plain?.close();
    await mocks.strict?.close();
  });

  async function post(c: Case): Promise<{ status: number; body: { ids?: string[]; error?: string } }> {
    const mock = (c.strict ? mocks.strict : mocks.plain) as McpMock;
    mock.reset();
    const response = await fetch(mock.url.replace(/\/mcp$/, "/__admin/stubs"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(fragmentOf(c)) });
    return { status: response.status, body: (await response.json()) as { ids?: string[]; error?: string } };
  }

  test.each(accepted)("$name", async (c) => {
    await using fromCode = await codeMock(c.strict);
    c.dsl(fromCode);
    const { status } = await post(c);
    expect(status).toBe(201);
    expect(sentences((c.strict ? mocks.strict : mocks.plain) as McpMock)).toEqual(sentences(fromCode));
  });

  test.each(refused)("$name is refused", async (c) => {
    await using fromCode = await codeMock(c.strict);
    const message = thrown(() => c.dsl(fromCode));
    const { status, body } = await post(c);
    expect(status).toBe(400);
    expect(body.error).toBe(inFile("the admin request", c.path, message));
    // Nothing of a refused fragment stays.
    expect(sentences((c.strict ? mocks.strict : mocks.plain) as McpMock)).toEqual([]);
  });
});

describe("where the schema refuses first, both front ends still refuse", () => {
  // The schema speaks JSON (types and ranges), so its message is its own; the DSL refuses the same value.
  const cases: Array<[string, Case["data"], (m: McpMock) => unknown]> = [
    ["times: 0", { responses: [{ tool: "add", times: 0, result: 1 }] }, (m) => m.toolsCall("add").times(0)],
    ["a negative delay", { responses: [{ tool: "add", delay: -1, result: 1 }] }, (m) => m.toolsCall("add").withDelay(-1)],
    ["a status below 200", { responses: [{ tool: "add", status: 99 }] }, (m) => m.toolsCall("add").respondsWithStatus(99)],
    ["a header value with a line break", { responses: [{ tool: "add", status: 401, responseHeaders: { "www-authenticate": "Bearer\r\nx: y" } }] }, (m) => m.toolsCall("add").respondsWithStatus(401, undefined, { headers: { "www-authenticate": "Bearer\r\nx: y" } })],
    ["an unknown fault", { responses: [{ tool: "add", fault: { kind: "slow-loris" as never } }] }, (m) => m.toolsCall("add").fails("slow-loris" as never)],
    ["a negative fault count", { responses: [{ tool: "add", fault: { kind: "drop-stream-after", after: -1 } }] }, (m) => m.toolsCall("add").fails("drop-stream-after", -1)],
    ["an error code that is not an integer", { responses: [{ tool: "add", error: { code: 1.5, message: "x" } }] }, (m) => m.toolsCall("add").respondsWithError(1.5, "x")],
    ["an unknown log level", { responses: [{ tool: "slow", stream: [{ log: "loud" as never, data: 1 }] }] }, (m) => m.toolsCall("slow").streams((s) => s.log("loud" as never, 1))],
    ["a negative dropAfter", { responses: [{ tool: "slow", stream: [], dropAfter: -1 }] }, (m) => m.toolsCall("slow").streams((s) => s, { dropAfter: -1 })],
    ["a task status that is final", { responses: [{ tool: "job", task: { statuses: ["completed" as never] }, result: 1 }] }, (m) => m.toolsCall("job").asTask({ statuses: ["completed" as never] })],
    ["a negative delay step", { responses: [{ tool: "slow", stream: [{ delay: -5 }] }] }, (m) => m.toolsCall("slow").streams((s) => s.delay(-5))],
  ];
  test.each(cases)("%s", async (_name, data, dsl) => {
    await using fromCode = await codeMock();
    thrown(() => dsl(fromCode));
    expect(thrown(() => assertMockDefinition(definitionOf({ name: "", data, dsl }), "front.json"))).toMatch(/^\[mcpmock\] Invalid mock definition — front\.json: responses\[0\]/);
  });
});

describe("placeholders: data in a file, a function of the call in code", () => {
  async function callAdd(mock: McpMock): Promise<unknown> {
    const response = await fetch(mock.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 3 } } }),
    });
    return ((await response.json()) as { result: unknown }).result;
  }

  test("the same answer to the same call, and the file's stub shows its template", async () => {
    const options = { sessions: "stateless", responseMode: "json" } as const;
    await using fromFile = (await McpMock.fromDefinition({ tools: [...tools], responses: [{ tool: "add", result: { sum: "{{args.a}}+{{args.b}}" } }] }, options)) as unknown as McpMock;
    await using fromCode = (await McpMock.start({ tools, ...options })) as unknown as McpMock;
    fromCode.toolsCall("add").respondsWith((call) => ({ sum: `${String(call.args["a"])}+${String(call.args["b"])}` }));
    expect(await callAdd(fromFile)).toEqual(await callAdd(fromCode));
    expect(sentences(fromFile)).toEqual(['tools/call "add" → the template {"sum":"{{args.a}}+{{args.b}}"} (seen 1)']);
  });
});
