/**
 * Builders: immutable chains that assemble a {@link Stub}. Entry points pick the method,
 * `with*` add matchers, modifiers set priority, times and delay, and only a terminal
 * registers. A chain without a terminal is a pattern (for verification).
 * @module
 */
import { clientExtensionIs } from "../stubs/extension-matchers.js";
import { URL_ELICITATION_REQUIRED, urlElicitationRequiredData, urlElicitationRequiredMessage, type UrlElicitation } from "../protocol/url-elicitation.js";
import { EXTENSION_ID } from "../protocol/extensions.js";
import type { McpCall } from "../stubs/call.js";
import { isAny, type AnyValue } from "../values/any.js";
import { isValuePattern, type ValuePattern } from "../values/value-patterns.js";
import type { MockCore } from "../engine/core.js";
import { McpMockError, showValue } from "../values/errors.js";
import { StubHandle } from "./stub-handle.js";
import { assertJsonCarriable, isJsonObject } from "../values/json-value.js";
import { bodyContains, headerIs, scenarioStateIs, sessionIs, type Matcher } from "../stubs/matchers.js";
import { protocolVersionIs } from "../stubs/version-matchers.js";
import { isPromptResult, toMessages } from "../stubs/prompt-catalog.js";
import { wrapReadPayload } from "../stubs/resource-catalog.js";
import { assertClientAccepts, type AnsweredTool } from "../stubs/client-acceptance.js";
import { OPENING_METHODS } from "../protocol/methods/index.js";
import { wrapToolPayload } from "../stubs/tool-result.js";
import { StreamScriptBuilder, type StreamCall } from "../stubs/stream-script.js";
import type { StreamPlan } from "../stubs/stub.js";
import { FAULT_KINDS, type Delay, type FaultKind, type ResponsePlan, type Stub, type StubSource, type TaskPlan } from "../stubs/stub.js";
import { MAX_DELAY_MS } from "../values/max-delay.js";
import { type Answer } from "../stubs/answer.js";

/**
 * Options of `streams()`.
 *
 * @example
 * ```ts
 * import { McpMock, type StreamOptions } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "slow", inputSchema: { type: "object" } }] });
 * const options: StreamOptions = { delayBetween: 20, dropAfter: 2 }; // the client must resume with Last-Event-ID
 * mock.toolsCall("slow").streams((s) => s.progress(1, 3).progress(2, 3).progress(3, 3).result("done"), options);
 * ```
 * @category Streams
 */
export interface StreamOptions {
  /** Milliseconds to wait between steps. */
  readonly delayBetween?: number;
  /** Over HTTP: drop the connection after this many events; the stream goes on, to be resumed with `Last-Event-ID`. */
  readonly dropAfter?: number;
}

function checkMs(ms: number, what: string, fail: (m: string) => never): number {
  if (!Number.isFinite(ms) || ms < 0) fail(`${what} takes milliseconds (0 or more), received ${showValue(ms)}.`);
  if (ms > MAX_DELAY_MS) fail(`${what} takes at most ${MAX_DELAY_MS} ms (about 24.8 days, the longest a timer holds), received ${ms}.`);
  return ms;
}

function checkCount(n: number, fail: (m: string) => never): number {
  if (!Number.isInteger(n) || n < 0) fail(`dropAfter takes a count of events (0 or more), received ${showValue(n)}.`);
  return n;
}

/** The parts of a stub a chain has gathered so far. */
export interface StubDraft {
  readonly method: string;
  readonly key?: string;
  readonly matchers: readonly Matcher[];
  readonly priority: number;
  readonly times?: number;
  readonly delay?: Delay;
  readonly optional?: boolean;
  /** Set by `inScenario(name)`; `whenState` and `willSetState` refer to it. */
  readonly scenario?: string;
  readonly setsState?: { readonly scenario: string; readonly state: string };
  /** Set by `asTask(...)` (tool calls). */
  readonly task?: TaskPlan;
  /** Where the stub was written, when not in code (a definition file). */
  readonly source?: StubSource;
  /** The chain as written so far, for messages: `toolsCall("add").withArgs(...)`. */
  readonly written: string;
}

/**
 * @internal An object of values (not an array, not a value pattern such as ANY, a RegExp,
 * `contains(...)` or ABSENT, which stand for one field): what withArgs and withParams take.
 */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return isJsonObject(v) && !isValuePattern(v);
}

/**
 * The options of `respondsWithStatus`.
 *
 * @example
 * ```ts
 * import { McpMock, type StatusOptions } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "add", inputSchema: { type: "object" } }] });
 * const challenge: StatusOptions = { headers: { "www-authenticate": 'Bearer error="invalid_token"' } };
 * mock.toolsCall("add").respondsWithStatus(401, "token expired", challenge);
 * ```
 * @category Stubbing
 */
export interface StatusOptions {
  /** Response headers to send with the status, e.g. a hand-made `WWW-Authenticate` challenge. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Narrowings, modifiers and the terminals every stub has. A chain that ends in a terminal
 * (`respondsWith`, `fails`, `streams`, ...) registers a stub; one without is a pattern.
 *
 * @example
 * ```ts
 * import { McpMock, toolsCall } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "add", inputSchema: { type: "object" } }] });
 * mock.toolsCall("add").withSessionId("session-1").priority(5).times(2).respondsWith({ sum: 3 });
 * mock.verify(toolsCall("add").withHeader("authorization", /^Bearer /), 0); // a pattern, for verification
 * ```
 * @category Stubbing
 */
export abstract class StubBuilder {
  /** @internal */
  protected readonly draft: StubDraft;
  /** @internal */
  protected readonly core: MockCore | undefined;

  /** @internal */
  constructor(draft: StubDraft, core: MockCore | undefined) {
    this.draft = draft;
    this.core = core;
  }

  /** @internal A copy with more parts. */
  protected with(change: Partial<StubDraft>, step?: string): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this, { draft: { ...this.draft, ...change, written: this.draft.written + (step ?? "") } });
    return copy;
  }

  /** @internal */
  protected withMatcher(matcher: Matcher): this {
    return this.with({ matchers: [...this.draft.matchers, matcher] }, matcher.dsl);
  }

  /**
   * Only requests in this session; `ANY` for requests that carry any session id.
   *
   * @example
   * ```ts
   * mock.toolsCall("add").withSessionId("session-1").respondsWith({ sum: 3 });
   * ```
   */
  withSessionId(id: string | AnyValue): this {
    if (typeof id !== "string" && !isAny(id)) this.fail(`withSessionId takes a string or ANY, received ${showValue(id)}.`);
    return this.withMatcher(sessionIs(id));
  }

  /**
   * Only requests with this header (name case-insensitive), equal to a string, or matching a
   * RegExp or `contains(text)`; `ANY` asks only that it is sent, `ABSENT` that it is not.
   *
   * @example
   * ```ts
   * mock.toolsCall("add").withHeader("authorization", /^Bearer /).respondsWith({ sum: 3 });
   * mock.toolsCall("add").withHeader("authorization", ABSENT).respondsWith({ error: "log in" }, { isError: true });
   * ```
   */
  withHeader(name: string, value: string | ValuePattern): this {
    if (typeof name !== "string" || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      this.fail(`withHeader: ${showValue(name)} is not a valid HTTP header name.`);
    }
    if (typeof value !== "string" && !isValuePattern(value)) {
      this.fail(`withHeader(${JSON.stringify(name)}, ...) takes a string, a RegExp, contains(text), ANY or ABSENT, received ${showValue(value)}.`);
    }
    return this.withMatcher(headerIs(name, value));
  }

  /**
   * Only requests at this protocol version (the negotiated one, or the `MCP-Protocol-Version` header).
   *
   * @example
   * ```ts
   * mock.toolsList().withProtocolVersion("2025-03-26").respondsWith({ tools: [] });
   * ```
   */
  withProtocolVersion(version: string): this {
    if (typeof version !== "string") this.fail(`withProtocolVersion takes a version string like "2025-11-25".`);
    return this.withMatcher(protocolVersionIs(version));
  }

  /**
   * Only requests from a client that declared this extension (SEP-2133) in its capabilities
   * (at `initialize`, or in a 2026-07-28 request's own); with `settings`, its settings contain
   * those fields.
   *
   * @example
   * ```ts
   * mock.toolsCall("add").withClientExtension("io.modelcontextprotocol/ui").respondsWith({ sum: 3 });
   * ```
   */
  withClientExtension(id: string, settings?: Record<string, unknown>): this {
    if (typeof id !== "string" || !EXTENSION_ID.test(id)) this.fail(`withClientExtension takes an extension identifier like "com.example/feature" ({vendor-prefix}/{extension-name}), received ${showValue(id)}.`);
    if (settings !== undefined && !isPlainObject(settings)) this.fail(`withClientExtension(${JSON.stringify(id)}, settings): settings are an object of the fields the client's settings must contain, received ${showValue(settings)}.`);
    return this.withMatcher(clientExtensionIs(id, settings));
  }

  /**
   * Only requests whose raw JSON text contains this substring.
   *
   * @example
   * ```ts
   * mock.toolsCall("search").withBodyContaining("urgent").respondsWith("found it");
   * ```
   */
  withBodyContaining(text: string): this {
    if (typeof text !== "string" || text === "") this.fail(`withBodyContaining takes a non-empty string.`);
    return this.withMatcher(bodyContains(text));
  }

  /**
   * Ranks this stub: higher wins; among equals the newest wins. Default 0.
   *
   * @example
   * ```ts
   * mock.toolsCall("add").priority(10).respondsWith({ sum: 0 });
   * ```
   */
  priority(rank: number): this {
    if (!Number.isFinite(rank)) this.fail(`priority takes a finite number, received ${showValue(rank)}.`);
    return this.with({ priority: rank }, `.priority(${rank})`);
  }

  /**
   * Answers at most `n` calls, then lets later calls fall through to the next stub.
   *
   * @example
   * ```ts
   * mock.toolsCall("add").times(2).respondsWith({ sum: 3 });
   * ```
   */
  times(n: number): this {
    if (!Number.isInteger(n) || n < 1) this.fail(`times takes a whole number of calls (1 or more), received ${showValue(n)}.`);
    return this.with({ times: n }, `.times(${n})`);
  }

  /**
   * Answers one call only: `times(1)`.
   *
   * @example
   * ```ts
   * mock.toolsCall("add").once().respondsWith({ sum: 3 });
   * ```
   */
  once(): this {
    return this.with({ times: 1 }, ".once()");
  }

  /**
   * Waits before answering: a fixed number of milliseconds, or a random delay drawn from a
   * seeded distribution (the mock's `seed` option), so runs repeat.
   *
   * @example
   * ```ts
   * mock.toolsCall("slow").withDelay(250).respondsWith("done");
   * mock.toolsCall("jittery").withDelay({ distribution: "uniform", min: 10, max: 50 }).respondsWith("ok");
   * mock.toolsCall("realistic").withDelay({ distribution: "lognormal", median: 80, sigma: 0.5 }).respondsWith("ok");
   * ```
   */
  withDelay(delay: Delay | { readonly min: number; readonly max: number }): this {
    if (typeof delay === "number") {
      checkMs(delay, "withDelay", (m) => this.fail(m));
      return this.with({ delay }, `.withDelay(${delay})`);
    }
    const d = delay as Partial<{ distribution: string; min: number; max: number; median: number; sigma: number }> | null;
    // A draw longer than a timer holds (a lognormal's tail) waits MAX_DELAY_MS; the bounds given must fit.
    const ok = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n >= 0 && n <= MAX_DELAY_MS;
    // { min, max } without a distribution is uniform.
    if ((d?.distribution === "uniform" || (d?.distribution === undefined && d !== null && "min" in d)) && ok(d.min) && ok(d.max) && d.min <= d.max) return this.with({ delay: { distribution: "uniform", min: d.min, max: d.max } }, `.withDelay(${showValue(delay)})`);
    if (d?.distribution === "lognormal" && ok(d.median) && ok(d.sigma)) return this.with({ delay: delay as Delay }, `.withDelay(${showValue(delay)})`);
    this.fail(
      `withDelay takes milliseconds, { min, max } or { distribution: "uniform", min, max } (0 <= min <= max <= ${MAX_DELAY_MS}) or { distribution: "lognormal", median, sigma }, received ${showValue(delay)}.`,
    );
  }

  /**
   * Marks the stub as optional: `assertAllStubsUsed()` does not require it to be called.
   *
   * @example
   * ```ts
   * mock.toolsCall("add").optional().respondsWith({ sum: 0 });
   * mock.assertAllStubsUsed(); // passes although nothing called "add"
   * ```
   */
  optional(): this {
    return this.with({ optional: true }, ".optional()");
  }

  /**
   * Puts the stub in a scenario (WireMock's state machine). Every scenario starts in state
   * `"Started"`; `whenState` makes the stub answer only in a state, `willSetState` moves the
   * scenario on after it answers.
   *
   * @example
   * ```ts
   * mock.toolsCall("cart").inScenario("checkout").whenState("Started").willSetState("Paid").respondsWith("paying");
   * mock.toolsCall("cart").inScenario("checkout").whenState("Paid").respondsWith("already paid");
   * ```
   */
  inScenario(name: string): this {
    if (typeof name !== "string" || name === "") this.fail(`inScenario takes a scenario name, like "checkout".`);
    return this.with({ scenario: name }, `.inScenario(${JSON.stringify(name)})`);
  }

  /** Answers only while the scenario (from `inScenario`) is in this state. */
  whenState(state: string): this {
    const scenario = this.scenarioName("whenState");
    if (!this.core) this.fail(`whenState needs a mock to read the scenario's state; start the chain from the mock.`);
    if (typeof state !== "string" || state === "") this.fail(`whenState takes a state name, like "Started".`);
    const core = this.core;
    return this.withMatcher(scenarioStateIs(scenario, state, (name) => core.scenarioState(name)));
  }

  /** After answering, moves the scenario (from `inScenario`) to this state. */
  willSetState(state: string): this {
    const scenario = this.scenarioName("willSetState");
    if (typeof state !== "string" || state === "") this.fail(`willSetState takes a state name, like "Paid".`);
    return this.with({ setsState: { scenario, state } }, `.willSetState(${JSON.stringify(state)})`);
  }

  /** @internal The scenario named by `inScenario`, or a clear error. */
  protected scenarioName(step: string): string {
    if (this.draft.scenario === undefined) this.fail(`${step} needs a scenario first: .inScenario("name").${step}(...)`);
    return this.draft.scenario;
  }

  /**
   * Answers wrong on purpose, to test how a client copes: `"connection-reset"`,
   * `"empty-response"`, `"malformed-json"`, `"wrong-id"`, `"duplicate-response"`, or
   * `"drop-stream-after"`: an SSE answer whose connection drops before the result (the
   * result is kept for a client that resumes with `Last-Event-ID`; for a stream script,
   * `streams(script, { dropAfter: n })` drops after `n` events).
   *
   * @example
   * ```ts
   * mock.toolsCall("flaky").respondsWith("recovered");
   * mock.toolsCall("flaky").once().fails("connection-reset"); // newest first: fails once, then "recovered"
   * mock.toolsCall("fetch").fails("connection-reset", { rate: 0.2 }); // a fifth of the calls, drawn from `seed`; the rest go on to the next stub (or the upstream)
   * ```
   */
  fails(fault: FaultKind, n?: number | { readonly rate: number }): StubHandle<unknown, object | undefined> {
    return typeof n === "object" && n !== null ? this.register(this.faultPlan(fault, undefined, n.rate)) : this.register(this.faultPlan(fault, n as number | undefined));
  }

  /** @internal `fails(fault, n)` as an answer, with its checks, not registered (definition files use it too). */
  faultPlan(fault: FaultKind, n?: number, rate?: number): ResponsePlan {
    if (!FAULT_KINDS.includes(fault)) this.fail(`fails takes one of ${FAULT_KINDS.map((k) => `"${k}"`).join(", ")}, received ${showValue(fault)}.`);
    if (n !== undefined && (!Number.isInteger(n) || n < 0)) this.fail(`fails(${JSON.stringify(fault)}, n): n is a count of events (0 or more), received ${showValue(n)}.`);
    if (n !== undefined && fault !== "drop-stream-after") this.fail(`fails(${JSON.stringify(fault)}) takes no count; only "drop-stream-after" does.`);
    if (rate !== undefined && !(typeof rate === "number" && rate >= 0 && rate <= 1)) this.fail(`fails(${JSON.stringify(fault)}, { rate }): rate is the share of calls that fail, from 0 to 1, received ${showValue(rate)}.`);
    const plan: ResponsePlan = n === undefined ? { kind: "fault", fault } : { kind: "fault", fault, after: n };
    return rate === undefined ? plan : { ...plan, rate };
  }

  /**
   * Proxy mode: the upstream (the real server) answers, so that `withDelay`, `times`,
   * scenarios and the rest apply to real answers; a transform alters the upstream's result.
   * Calls no stub answers go upstream anyway; this makes it explicit for a pattern.
   *
   * @example
   * ```ts
   * mock.toolsCall("fetch").proxies();
   * mock.toolsCall("fetch").proxies((answer, call) => ({ ...answer, isError: true }));
   * mock.toolsCall(ANY).withDelay({ min: 50, max: 500 }).proxies();
   * ```
   */
  proxies(transform?: (answer: Record<string, unknown>, call: McpCall) => unknown): StubHandle<unknown, object | undefined> {
    if (transform !== undefined && typeof transform !== "function") this.fail(`proxies takes a function (answer, call) => answer, or nothing; received ${showValue(transform)}.`);
    return this.register(transform === undefined ? { kind: "proxy" } : { kind: "proxy", transform });
  }

  /**
   * Answers with an SSE stream: progress, logs, notifications, delays, server-to-client
   * requests and raw messages, then the result (wrapped as `respondsWith` would) or an
   * error. Takes a script (`s => s.progress(1, 2).result(...)`) or a generator of raw
   * messages (`async function* (call) { yield ... }`). `dropAfter` drops the connection
   * after that many events while the stream goes on, so a client can resume it.
   *
   * @example
   * ```ts
   * mock.toolsCall("slow").streams((s) =>
   *   s.progress(1, 3).log("info", "working").delay(20)
   *     .request("elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } })
   *     .result((call) => `Hello, ${(call.answer as { content?: { name?: string } }).content?.name}`),
   * );
   * ```
   */
  streams(script: (s: StreamScriptBuilder) => StreamScriptBuilder<never> | void, options?: StreamOptions): StubHandle<unknown, undefined>;
  streams(source: ((call: StreamCall) => AsyncIterable<unknown> | Iterable<unknown>) | AsyncIterable<unknown>, options?: StreamOptions): StubHandle<unknown, undefined>;
  streams(
    script: ((s: StreamScriptBuilder) => StreamScriptBuilder<never> | void) | ((call: StreamCall) => AsyncIterable<unknown> | Iterable<unknown>) | AsyncIterable<unknown>,
    options: StreamOptions = {},
  ): StubHandle<unknown, undefined> {
    return this.register(this.streamPlan(script, options, true));
  }

  /** @internal `streams(script, options)` (or, without an end, `sends`) as an answer, with its checks, not registered. */
  streamPlan(
    script: ((s: StreamScriptBuilder) => StreamScriptBuilder<never> | void) | ((call: StreamCall) => AsyncIterable<unknown> | Iterable<unknown>) | AsyncIterable<unknown>,
    options: StreamOptions,
    withEnd: boolean,
  ): StreamPlan {
    const common = {
      ...(options.delayBetween === undefined ? {} : { delayBetween: checkMs(options.delayBetween, "delayBetween", (m) => this.fail(m)) }),
      ...(options.dropAfter === undefined ? {} : { dropAfter: checkCount(options.dropAfter, (m) => this.fail(m)) }),
    };
    if (typeof script !== "function") {
      if (script && typeof (script as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
        return { kind: "stream", steps: [], source: () => script as AsyncIterable<unknown>, ...common };
      }
      this.fail(`streams takes a script (s => s.progress(1).result(...)) or a generator of messages, received ${showValue(script)}.`);
    }
    const name = (script as { constructor?: { name?: string } }).constructor?.name;
    if (name === "AsyncGeneratorFunction" || name === "GeneratorFunction") {
      return { kind: "stream", steps: [], source: script as (call: StreamCall) => AsyncIterable<unknown>, ...common };
    }
    const builder = new StreamScriptBuilder(`${this.draft.written}.streams(...)`);
    (script as (s: StreamScriptBuilder) => unknown)(builder);
    if (builder.end && !withEnd) this.fail(`a GET stream carries no response; remove result()/error() from the script.`);
    const end: ResponsePlan | undefined =
      builder.end === undefined
        ? undefined
        : builder.end.kind === "error"
          ? { kind: "error", code: builder.end.code, message: builder.end.message, ...(builder.end.data === undefined ? {} : { data: builder.end.data }) }
          : this.planFor(builder.end.payload);
    return { kind: "stream", steps: builder.steps, ...(end ? { end } : {}), ...common };
  }

  /**
   * Answers with a JSON-RPC error.
   *
   * @example
   * ```ts
   * mock.toolsCall("boom").respondsWithError(-32603, "internal", { why: "test" });
   * ```
   */
  respondsWithError(code: number, message: string, data?: unknown): StubHandle<unknown, object | undefined> {
    return this.register(this.errorPlan(code, message, data));
  }

  /**
   * Answers with the `-32042` URL-elicitation-required error (SEP-1036): the client must send
   * its user to each URL, then retry. `data.elicitations` lists them in URL mode, each with an
   * `elicitationId` (a fresh UUID when not given).
   *
   * @example
   * ```ts
   * mock.toolsCall("pay").respondsWithUrlElicitationRequired({ message: "Authorize payment", url: "https://example.com/pay", elicitationId: "pay-1" });
   * ```
   */
  respondsWithUrlElicitationRequired(elicitations: UrlElicitation | readonly UrlElicitation[]): StubHandle<unknown, object | undefined> {
    const data = urlElicitationRequiredData(elicitations, `${this.draft.written}.respondsWithUrlElicitationRequired(...)`);
    return this.register(this.errorPlan(URL_ELICITATION_REQUIRED, urlElicitationRequiredMessage(data.elicitations.length), data));
  }

  /** @internal `respondsWithError(code, message, data)` as an answer, with its checks, not registered. */
  errorPlan(code: number, message: string, data?: unknown): ResponsePlan {
    if (!Number.isInteger(code)) this.fail(`respondsWithError: the code must be an integer (e.g. -32603), received ${showValue(code)}.`);
    if (typeof message !== "string") this.fail(`respondsWithError: the message must be a string, received ${showValue(message)}.`);
    if (data !== undefined) assertJsonCarriable(data, `${this.draft.written}.respondsWithError(...)`, "data");
    return data === undefined ? { kind: "error", code, message } : { kind: "error", code, message, data };
  }

  /**
   * Answers with a raw HTTP status (and body) instead of JSON-RPC: for testing how a client
   * handles a broken server.
   *
   * @example
   * ```ts
   * mock.toolsCall("add").respondsWithStatus(503, "overloaded");
   * mock.deleteSession().respondsWithStatus(405);
   * // a hand-made challenge:
   * mock.toolsCall("add").respondsWithStatus(401, undefined, { headers: { "www-authenticate": 'Bearer error="invalid_token"' } });
   * ```
   */
  respondsWithStatus(status: number, body?: string | object, options?: StatusOptions): StubHandle<unknown, object | undefined> {
    return this.register(this.statusPlan(status, body, options?.headers));
  }

  /** @internal `respondsWithStatus(status, body, { headers })` as an answer, with its checks, not registered. */
  statusPlan(status: number, body?: string | object, headers?: Readonly<Record<string, string>>): ResponsePlan {
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      this.fail(`respondsWithStatus takes an HTTP status from 200 to 599, received ${showValue(status)}.`);
    }
    if (headers !== undefined) {
      const bad = typeof headers !== "object" || headers === null || Array.isArray(headers) ? [] : Object.entries(headers).filter(([k, v]) => !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k) || typeof v !== "string" || /[\r\n]/.test(v));
      if (typeof headers !== "object" || headers === null || Array.isArray(headers) || bad.length > 0) {
        this.fail(`respondsWithStatus: headers must be an object of header names and string values (no line breaks), like { "www-authenticate": "Bearer" }; received ${showValue(bad.length > 0 ? Object.fromEntries(bad) : headers)}.`);
      }
    }
    const plan = body === undefined ? { kind: "status" as const, status } : { kind: "status" as const, status, body };
    return headers === undefined ? plan : { ...plan, headers: { ...headers } };
  }

  /**
   * @internal `respondsWith(payload, options)` as an answer, with its checks, not registered:
   * the entry point's own form (a JSON-RPC result here; tools, prompts and resources wrap
   * theirs). `andThen(payload, options)` and definition files use it too.
   */
  planFor(payload: unknown, _options?: unknown): ResponsePlan {
    return { kind: "result", result: this.keptAnswer(payload, "respondsWith") };
  }

  /**
   * @internal Registers a stub whose first answer is ready-made (by the plan-makers above),
   * noting where it was written (a definition file); later answers go through the returned
   * handle's `andThenPlan`, with the same checks as `andThen`.
   */
  registerPlan(first: ResponsePlan, source: StubSource): StubHandle<unknown, unknown> {
    return this.with({ source }).register<unknown, unknown>(first);
  }

  /** @internal Registers the stub with its first answer; later answers come from `planFor`. */
  protected register<P, O>(first: ResponsePlan, plan: (payload: P, options?: O) => ResponsePlan = (p, o) => this.planFor(p, o)): StubHandle<P, O> {
    const core = this.core;
    if (!core) {
      throw new McpMockError(
        `${this.draft.written} is a pattern, not attached to a mock, so it cannot answer. Start the chain from a mock: mock.${this.draft.written}.respondsWith(...)`,
      );
    }
    const d = this.draft;
    const stub: Stub = {
      id: core.nextStubId(),
      method: d.method,
      ...(d.key === undefined ? {} : { key: d.key }),
      matchers: d.matchers,
      responses: [first],
      priority: d.priority,
      ...(d.times === undefined ? {} : { times: d.times }),
      ...(d.delay === undefined ? {} : { delay: d.delay }),
      ...(d.optional ? { optional: true } : {}),
      ...(d.setsState ? { setsState: d.setsState } : {}),
      ...(d.task ? { task: d.task } : {}),
      source: d.source ?? "dsl",
    };
    // The tool's outputSchema as declared now; a tool declared later is checked at call time.
    const tool = (): AnsweredTool | undefined => (d.key === undefined || stub.method !== "tools/call" ? undefined : { name: d.key, outputCheck: core.tools.outputCheck(d.key) });
    if (core.options.strict) strictCheck(stub.method, first, this.draft.written, tool());
    core.registry.add(stub);
    // Every later answer, from andThen or a definition's "then", passes the same check.
    const accept = (next: ResponsePlan): ResponsePlan => {
      if (core.options.strict) strictCheck(stub.method, next, `${this.draft.written}...andThen(...)`, tool());
      return next;
    };
    return new StubHandle<P, O>(core.registry, stub.id, plan, accept);
  }

  /** @internal */
  /**
   * @internal What a stub keeps of an answer: a function as is; a constant checked to be JSON
   * (`checked`, when only part of it must be) and copied, so the stub is data that later
   * changes to the caller's object cannot reach (and a constant answer can be serialized once).
   */
  protected keptAnswer(answer: unknown, what: string, checked: unknown = answer): Answer<unknown> {
    if (typeof answer === "function") return answer as Answer<unknown>;
    // JSON has no undefined: the client got a response without "result", or a tool's text "null".
    if (answer === undefined) this.fail(`${what} takes the answer, received undefined. Give a value ({} for an empty result, "" for an empty text) or a function of the call.`);
    assertJsonCarriable(checked, `${this.draft.written}.${what}(...)`, "answer");
    return structuredClone(answer);
  }

  /** @internal Throws a message that names the chain written so far. */
  protected fail(message: string): never {
    throw new McpMockError(`${this.draft.written}: ${message}`);
  }

  /** @internal The draft, for verification and definitions. */
  get pattern(): StubDraft {
    return this.draft;
  }
}

/**
 * With `strict: true`, a constant answer must be what a client accepts for the method (and, for
 * a tool call, for the tool's `outputSchema`); answers made by a call are checked when made.
 */
function strictCheck(method: string, plan: ResponsePlan, written: string, tool: AnsweredTool | undefined): void {
  const where = `${written}.respondsWith(...)`;
  // An opening request's answer is merged onto the built-in one: only the whole can be checked.
  if (plan.kind === "result" && typeof plan.result !== "function" && !OPENING_METHODS.has(method)) assertClientAccepts(method, plan.result, where);
  if (plan.kind === "tool-result" && typeof plan.payload !== "function") {
    const wrap = { isError: plan.isError, hasOutputSchema: tool?.outputCheck !== undefined, structuredContent: true };
    assertClientAccepts(method, wrapToolPayload(plan.payload, wrap), where, tool);
  }
  if (plan.kind === "resource-result" && typeof plan.payload !== "function") assertClientAccepts(method, wrapReadPayload(plan.payload, "test://strict", plan.mimeType), where);
  if (plan.kind === "prompt-result" && typeof plan.payload !== "function") {
    const result = isPromptResult(plan.payload) ? plan.payload : { messages: toMessages(plan.payload, where) };
    assertClientAccepts(method, result, where);
  }
}

/** @internal Starts a draft. */
export function draft(method: string, written: string, key?: string): StubDraft {
  return key === undefined ? { method, matchers: [], priority: 0, written } : { method, key, matchers: [], priority: 0, written };
}

