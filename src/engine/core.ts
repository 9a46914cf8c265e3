/**
 * The mock's state and its one pipeline: a classified message and its context go in, an
 * outcome comes out. HTTP and stdio both call it; neither decides what to answer.
 * @module
 */
import { setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { McpCall, type RequestId, type TransportKind } from "../stubs/call.js";
import { advertisedCapabilities, defaultInitializeResult, defaultStubs, type DefaultsSource } from "./built-in-answers.js";
import { ToolCatalog } from "../stubs/tool-catalog.js";
import { McpMockError, PREFIX, showValue } from "../values/errors.js";
import { Journal, type JournalEntry } from "../journal/journal.js";
import { assertJsonCarriable, isJsonObject } from "../values/json-value.js";
import { JsonRpcFailure, resultResponse, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import type { McpMockOptions } from "../options.js";
import { isPromptResult, PromptCatalog, toMessages } from "../stubs/prompt-catalog.js";
import { ErrorCodes, supportedRevision } from "../protocol/revisions.js";
import { drawDelay, seededRandom } from "../stubs/random-delay.js";
import { matchesAll } from "../stubs/matchers.js";
import { isAvailable, StubRegistry, type StubEntry } from "../stubs/registry.js";
import { ResourceCatalog, wrapReadPayload } from "../stubs/resource-catalog.js";
import { errorMessage, select, type SelectionContext } from "./selection.js";
import { SessionStore, type Session } from "./sessions.js";
import { HTTP_DELETE, HTTP_GET_STREAM } from "../protocol/entry-points.js";
import { type FaultKind, type ResponsePlan, type Stub } from "../stubs/stub.js";
import { assertClientCapability, playStream, type StreamHost, type StreamPlan, type StreamSink } from "./stream-player.js";
import { wrapToolPayload, type WrapContext } from "../stubs/tool-result.js";
import { DEFAULT_PAGE_SIZE } from "../protocol/pagination.js";
import { VERSION } from "../values/version.js";

/** Where a message came from and under which session and version. */
export interface RequestContext {
  readonly session: Session | undefined;
  readonly sessionId: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly protocolVersion: string;
  readonly body: string;
  readonly transport: TransportKind;
  /** For a batch: the ids of its requests so far (all of a batch's requests are pending at once). */
  readonly batch?: Set<RequestId>;
}

/** What a successful initialize asks the transport to open. */
export interface InitializeOutcome {
  readonly sessionId: string | undefined;
  readonly protocolVersion: string;
  readonly clientCapabilities: Record<string, unknown>;
  readonly clientInfo: Record<string, unknown> | undefined;
}

/** What the transport sends back for one request. */
export type Outcome =
  | {
      readonly kind: "message";
      readonly message: JsonRpcResponse;
      readonly initialize?: InitializeOutcome;
      /** The result already in JSON (a constant answer is serialized once, not on every call). */
      readonly resultJson?: string;
    }
  | { readonly kind: "status"; readonly status: number; readonly body?: string | object }
  /** Answer wrong on purpose; `message` is what a correct answer would have been. */
  | { readonly kind: "fault"; readonly fault: FaultKind; readonly after?: number; readonly message: JsonRpcResponse }
  /** An SSE answer: `run` plays it onto a sink and resolves when it has ended. */
  | { readonly kind: "stream"; run(sink: StreamSink): Promise<void>; readonly dropAfter?: number };

/** A constant answer's result and its JSON. */
interface ConstantResult {
  readonly result: unknown;
  readonly json: string;
}

interface PendingRequest {
  readonly method: string;
  readonly sessionId: string | undefined;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/** Default time the mock waits for a client's answer to a server-to-client request. */
export const DEFAULT_CLIENT_TIMEOUT_MS = 10_000;

/** The state every scenario starts in (WireMock's name). */
export const STARTED = "Started";

/** Names declarations must not repeat, with the list they come from. */
function declareAll<T>(items: readonly T[] | undefined, list: string, nameOf: (item: T) => unknown, declare: (item: T, where: string) => void): void {
  const seen = new Set<unknown>();
  (items ?? []).forEach((item, i) => {
    const name = nameOf(item);
    if (seen.has(name)) throw new McpMockError(`${list}[${i}]: ${JSON.stringify(name)} is declared twice. Give each one declaration.`);
    seen.add(name);
    declare(item, `${list}[${i}]`);
  });
}

export class MockCore implements DefaultsSource, SelectionContext, StreamHost {
  readonly registry = new StubRegistry();
  readonly tools = new ToolCatalog();
  readonly prompts = new PromptCatalog();
  readonly resources = new ResourceCatalog();
  readonly journal: Journal;
  readonly sessions: SessionStore;
  readonly closing = new AbortController();
  readonly options: McpMockOptions;
  #stubSeq = 0;
  #scenarios = new Map<string, string>();
  #random: () => number;
  #serverRequestId = 0;
  readonly #pending = new Map<RequestId, PendingRequest>();
  /** Streamed requests still running, by session and request id, for notifications/cancelled. */
  readonly #inflight = new Map<string, AbortController>();
  readonly #streamWaiters = new Set<() => void>();
  /** Constant answers' results and their JSON, by plan (see #constant). */
  readonly #constantResults = new WeakMap<ResponsePlan, ConstantResult[]>();
  /** Request ids being answered, by session, to refuse a duplicate id in flight. */
  readonly #active = new Set<string>();

  constructor(options: McpMockOptions) {
    this.options = options;
    this.journal = new Journal(options.journalSize);
    this.sessions = new SessionStore(options.sessionIds, options);
    this.#random = seededRandom(options.seed ?? 1);
    // Every delayed answer and stream listens to this signal; there may be thousands at once.
    setMaxListeners(0, this.closing.signal);
    declareAll(options.tools, "tools", (t) => t?.name, (t, where) => this.tools.declare(t, where));
    declareAll(options.resources, "resources", (r) => (r as { uri?: string })?.uri ?? (r as { uriTemplate?: string })?.uriTemplate, (r, where) => this.resources.declare(r, where));
    declareAll(options.prompts, "prompts", (p) => p?.name, (p, where) => this.prompts.declare(p, where));
    this.#addDefaults();
  }

  get stateful(): boolean {
    return this.options.sessions !== "stateless";
  }

  nextStubId(): string {
    return `stub-${++this.#stubSeq}`;
  }

  /** The state a scenario is in (`"Started"` until a stub moves it). */
  scenarioState(name: string): string {
    return this.#scenarios.get(name) ?? STARTED;
  }

  /** Moves a scenario to a state. */
  setScenarioState(name: string, state: string): void {
    this.#scenarios.set(name, state);
  }

  /** Every scenario back to `"Started"`, or one when named. */
  resetScenarios(name?: string): void {
    if (name === undefined) this.#scenarios.clear();
    else this.#scenarios.delete(name);
  }

  /** Restarts the random delays from the seed, so a reset test waits as a fresh one. */
  reseed(): void {
    this.#random = seededRandom(this.options.seed ?? 1);
  }

  /** Removes every user stub and restores the built-in ones. */
  resetStubs(): void {
    this.registry.removeWhere(() => true);
    this.#addDefaults();
  }

  #addDefaults(): void {
    for (const stub of defaultStubs(this)) this.registry.add(stub);
  }

  // The built-in answers read these (DefaultsSource).
  serverInfo(): Record<string, unknown> {
    return { ...(this.options.serverInfo ?? { name: "mcpmock", version: VERSION }) };
  }
  instructions(): string | undefined {
    return this.options.instructions;
  }
  capabilities(): Record<string, unknown> {
    return advertisedCapabilities(this);
  }
  pageSize(): number {
    return this.options.pageSize ?? DEFAULT_PAGE_SIZE;
  }
  resourceNotFoundCode(call: McpCall): number {
    return this.options.resourceNotFoundCode ?? supportedRevision(call.protocolVersion).resourceNotFoundCode;
  }

  /**
   * Tells every session with an open GET stream that a list changed
   * (`notifications/tools/list_changed` and the like), as the advertised `listChanged` promises.
   */
  listChanged(list: "tools" | "resources" | "prompts"): void {
    const message = JSON.stringify({ jsonrpc: "2.0", method: `notifications/${list}/list_changed` });
    for (const session of this.sessions.all()) session.stream?.emit(message);
  }

  /**
   * Answers one request. Never throws: a failure becomes a JSON-RPC error naming its cause.
   * Synchronous when nothing in the answer waits (no delay, no async answer function), so the
   * transport answers without a hop; a promise otherwise.
   */
  handleRequest(id: RequestId, method: string, params: Record<string, unknown> | undefined, ctx: RequestContext): Outcome | Promise<Outcome> {
    const call = callOf(method, params, id, ctx);
    const entry = this.#record("request", call, ctx);
    // Only answers still pending are in #active (and a batch's ids in ctx.batch): a duplicate can only clash with those.
    const active = ctx.sessionId === undefined || this.#active.size === 0 ? undefined : `${ctx.sessionId}\u0000${String(id)}`;
    const repeated = (active !== undefined && this.#active.has(active)) || ctx.batch?.has(id) === true;
    ctx.batch?.add(id);
    if (repeated) {
      const report = `${PREFIX} request id ${JSON.stringify(id)} is already in flight in ${ctx.sessionId}; JSON-RPC ids must be unique among pending requests.`;
      const outcome: Outcome = { kind: "message", message: errorMessage(call, ErrorCodes.InvalidRequest, "Invalid Request: duplicate request id in flight", report) };
      this.journal.complete(entry, undefined, answerOf(outcome), report);
      this.#reportUnmatched(entry, report);
      return outcome;
    }
    const outcome = this.#handle(call, entry, method);
    if (!(outcome instanceof Promise) || ctx.sessionId === undefined) return outcome;
    const key = active ?? `${ctx.sessionId}\u0000${String(id)}`;
    this.#active.add(key);
    return outcome.finally(() => this.#active.delete(key));
  }

  #handle(call: McpCall, entry: JournalEntry, method: string): Outcome | Promise<Outcome> {
    let stubId: string | undefined;
    let miss: string | undefined;
    let played: Outcome | Promise<Outcome>;
    try {
      const selection = select(this, call);
      if ("entry" in selection) {
        stubId = selection.entry.stub.id;
        played = this.#play(selection.entry, call);
      } else {
        played = { kind: "message", message: selection.message };
        miss = selection.miss;
      }
    } catch (error) {
      played = this.#failure(error, call, stubId, method);
    }
    if (!(played instanceof Promise)) return this.#finish(played, call, entry, stubId, miss);
    const id = stubId;
    return played.then(
      (outcome) => this.#finish(outcome, call, entry, id, undefined),
      (error: unknown) => this.#finish(this.#failure(error, call, id, method), call, entry, id, undefined),
    );
  }

  /** An answer that failed, as the JSON-RPC error the client gets (rethrown while closing). */
  #failure(error: unknown, call: McpCall, stubId: string | undefined, method: string): Outcome {
    if (this.closing.signal.aborted) throw error;
    if (error instanceof JsonRpcFailure) return { kind: "message", message: errorMessage(call, error.code, error.message, error.data) };
    const where = stubId ? `the answer of ${stubId}` : `answering ${method}`;
    return { kind: "message", message: errorMessage(call, ErrorCodes.InternalError, `${PREFIX} ${where} failed: ${String(error)}`) };
  }

  /** Journals an answer (a stream journals its own end) and reports a miss. */
  #finish(outcome: Outcome, call: McpCall, entry: JournalEntry, stubId: string | undefined, miss: string | undefined): Outcome {
    if (outcome.kind === "stream") return this.#tracked(outcome, call, entry, stubId);
    this.journal.complete(entry, stubId, answerOf(outcome), miss);
    if (this.options.verbose) this.#log(entry, outcome);
    if (miss !== undefined) this.#reportUnmatched(entry, miss);
    return outcome;
  }

  /** A streamed answer that journals its end and can be cancelled by the client. */
  #tracked(outcome: Extract<Outcome, { kind: "stream" }>, call: McpCall, entry: JournalEntry, stubId: string | undefined): Outcome {
    const key = `${call.sessionId ?? ""}\u0000${String(call.id)}`;
    return {
      ...outcome,
      run: async (sink) => {
        const cancel = new AbortController();
        this.#inflight.set(key, cancel);
        const signal = AbortSignal.any([sink.signal, cancel.signal, this.closing.signal]);
        let last: unknown;
        try {
          await outcome.run({ send: (m) => ((last = m), sink.send(m)), signal });
        } catch (error) {
          if (!signal.aborted) {
            const failure = error instanceof JsonRpcFailure ? error : new JsonRpcFailure(ErrorCodes.InternalError, `${PREFIX} the stream of ${stubId} failed: ${String(error)}`);
            last = errorMessage(call, failure.code, failure.message, failure.data);
            sink.send(last);
          }
        } finally {
          this.#inflight.delete(key);
          const cut = signal.aborted && !(last && typeof last === "object" && ("result" in last || "error" in last));
          this.journal.complete(entry, stubId, cut ? { cancelled: true, reason: cancel.signal.aborted ? "notifications/cancelled" : "the stream ended first" } : last, undefined);
          this.#log(entry, { kind: "message", message: last as JsonRpcResponse });
        }
      },
    };
  }

  /** Sends a server-to-client request and resolves with the client's result (StreamHost). */
  requestFromClient(method: string, params: unknown, session: Session | undefined, deliver: (message: unknown) => void, timeoutMs: number | undefined, signal: AbortSignal): Promise<unknown> {
    const id = ++this.#serverRequestId;
    const timeout = timeoutMs ?? this.options.clientTimeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.#pending.delete(id);
      };
      const onAbort = (): void => {
        done();
        reject(new JsonRpcFailure(ErrorCodes.InternalError, `${PREFIX} ${method} (id ${id}) was abandoned: the stream ended first.`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new JsonRpcFailure(ErrorCodes.InternalError, `${PREFIX} the client did not answer ${method} (id ${id}) within ${timeout} ms.`));
      }, timeout);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(id, {
        method,
        sessionId: session?.id,
        resolve: (r) => (done(), resolve(r)),
        reject: (e) => (done(), reject(e)),
      });
      deliver(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    });
  }

  /** Plays the answer that ends a stream (StreamHost). */
  async finalMessage(plan: ResponsePlan, call: McpCall, stub?: Stub): Promise<JsonRpcResponse> {
    const outcome = await this.#answer(plan, call, "the stream", stub);
    if (outcome.kind === "message" || outcome.kind === "fault") return outcome.message;
    return errorMessage(call, ErrorCodes.InternalError, `${PREFIX} a stream cannot end with ${outcome.kind === "status" ? `HTTP ${outcome.status}` : "another stream"}.`);
  }

  /** The transport tells the core a session's GET stream opened (wakes `notify`/`request` waiting for one). */
  streamOpened(): void {
    for (const wake of [...this.#streamWaiters]) wake();
  }

  /** The sessions a push goes to: one by id, or every one; waits up to `timeout` ms for GET streams to open. */
  async pushTargets(sessionId: string | undefined, timeout: number, what: string): Promise<Session[]> {
    const ready = (): Session[] | undefined => {
      if (sessionId !== undefined) {
        const session = this.sessions.get(sessionId);
        if (!session) throw new McpMockError(`${what}: there is no session ${JSON.stringify(sessionId)}. Open sessions: ${this.sessions.all().map((s) => s.id).join(", ") || "none"}.`);
        return session.stream?.attached ? [session] : undefined;
      }
      const open = this.sessions.all().filter((s) => s.stream?.attached);
      return open.length ? open : undefined;
    };
    const now = ready();
    if (now) return now;
    if (!this.stateful) throw new McpMockError(`${what}: a stateless mock has no sessions and no GET streams to push to. Use sessions: "stateful", or put the message in a streams() answer.`);
    return new Promise((resolve, reject) => {
      const wake = (): void => {
        try {
          const targets = ready();
          if (!targets) return;
          finish();
          resolve(targets);
        } catch (error) {
          finish();
          reject(error);
        }
      };
      const finish = (): void => {
        clearTimeout(timer);
        this.#streamWaiters.delete(wake);
      };
      const timer = setTimeout(() => {
        finish();
        const target = sessionId === undefined ? "any session" : `session ${JSON.stringify(sessionId)}`;
        reject(new McpMockError(`${what}: no GET stream opened for ${target} within ${timeout} ms. SDK clients open it after initialize; a client that never does cannot receive server-initiated messages.`));
      }, timeout);
      this.#streamWaiters.add(wake);
    });
  }

  /** Sends a request to one session's client on its GET stream (capabilities checked) and resolves with the answer. */
  async requestSession(session: Session, method: string, params: unknown, timeoutMs: number | undefined): Promise<unknown> {
    assertClientCapability(method, session, "mock.request()");
    const stream = session.stream;
    if (!stream) throw new McpMockError(`mock.request(): session ${session.id} has no open GET stream (its client closed it). To ask during a tool call instead, put .request(...) in a streams() answer.`);
    return this.requestFromClient(method, params, session, (m) => stream.emit(JSON.stringify(m)), timeoutMs, this.closing.signal);
  }

  /**
   * The openStream() stub for a session's new GET stream, if one matches. GET streams are
   * not journaled: clients open them on their own schedule, and they carry no request.
   */
  openStreamPlan(ctx: RequestContext): { plan: StreamPlan; call: McpCall; stubId: string } | undefined {
    const call = callOf(HTTP_GET_STREAM, undefined, undefined, ctx);
    const taken = this.#take(call);
    return taken?.plan.kind === "stream" ? { plan: taken.plan, call, stubId: taken.entry.stub.id } : undefined;
  }

  /** Plays an openStream() script on a GET stream. */
  async playOnStream(found: { plan: StreamPlan; call: McpCall; stubId: string }, session: Session, sink: StreamSink): Promise<void> {
    try {
      await playStream(this, found.plan, found.call, session, sink, found.stubId);
    } catch (error) {
      if (!sink.signal.aborted && this.options.onUnmatched !== "silent") process.stderr.write(`${PREFIX} the GET stream script of ${found.stubId} failed: ${String(error)}\n`);
    }
  }

  /**
   * Takes a notification: journals it, marks `notifications/initialized`, and returns a raw
   * HTTP outcome only when a stub asks for one (otherwise the transport accepts it).
   */
  handleNotification(method: string, params: Record<string, unknown> | undefined, ctx: RequestContext): Outcome | undefined {
    const call = callOf(method, params, undefined, ctx);
    const entry = this.#record("notification", call, ctx);
    if (method === "notifications/initialized" && ctx.session) ctx.session.initialized = true;
    if (method === "notifications/cancelled") this.#inflight.get(`${ctx.sessionId ?? ""}\u0000${String(params?.["requestId"])}`)?.abort();
    const taken = this.#take(call);
    const plan = taken?.plan;
    const outcome: Outcome | undefined = plan?.kind === "status" ? { kind: "status", status: plan.status, ...(plan.body === undefined ? {} : { body: plan.body }) } : undefined;
    this.journal.complete(entry, taken?.entry.stub.id, outcome ? { status: outcome.status } : undefined, undefined);
    return outcome;
  }

  /**
   * Answers the HTTP DELETE that ends a session: a stub's raw status if one matches (the
   * session ends only on a 2xx), otherwise 204 and the session ends.
   */
  handleDelete(ctx: RequestContext): { status: number; body?: string | object; ended: boolean } {
    const call = callOf(HTTP_DELETE, undefined, undefined, ctx);
    const entry = this.#record("request", call, ctx);
    let status = 204;
    let body: string | object | undefined;
    const taken = this.#take(call);
    if (taken?.plan.kind === "status") ({ status, body } = taken.plan);
    const ended = status >= 200 && status < 300 && ctx.sessionId !== undefined && this.sessions.end(ctx.sessionId);
    this.journal.complete(entry, taken?.entry.stub.id, { status }, undefined);
    return body === undefined ? { status, ended } : { status, body, ended };
  }

  /** Takes a client's response to a server request (journaled; correlation comes with server requests). */
  handleResponse(id: RequestId | undefined, body: Record<string, unknown>, ctx: RequestContext): void {
    const found = id === undefined ? undefined : this.#pending.get(id);
    // A response only counts from the session the request went to.
    const pending = found && (found.sessionId === undefined || found.sessionId === ctx.sessionId) ? found : undefined;
    // Journaled under the method it answers, so `verify(method("elicitation/create"))` sees it.
    const method = pending?.method;
    const call = method === undefined ? undefined : callOf(method, body, id, ctx);
    const entry = this.journal.record({
      kind: "response",
      method,
      id,
      params: body,
      sessionId: ctx.sessionId,
      headers: ctx.headers,
      protocolVersion: ctx.protocolVersion,
      transport: ctx.transport,
      call,
    });
    const unexpected =
      pending !== undefined
        ? undefined
        : found !== undefined
          ? `${PREFIX} a response to id ${JSON.stringify(id)} from ${ctx.sessionId ?? "no session"}, but that request went to ${found.sessionId}; it does not count.`
          : `${PREFIX} a response to id ${JSON.stringify(id)}, which the mock never sent (or already had answered).`;
    this.journal.complete(entry, undefined, undefined, unexpected);
    if (!pending) return;
    const error = body["error"] as { code?: number; message?: string; data?: unknown } | undefined;
    if (error) pending.reject(new JsonRpcFailure(error.code ?? ErrorCodes.InternalError, error.message ?? "error", error.data));
    else pending.resolve(body);
  }

  #record(kind: "request" | "notification", call: McpCall, ctx: RequestContext): JournalEntry {
    const entry = this.journal.record({
      kind,
      method: call.method,
      id: call.id,
      params: call.params,
      sessionId: call.sessionId,
      headers: call.headers,
      protocolVersion: call.protocolVersion,
      transport: call.transport,
      call,
    });
    if (ctx.session) ctx.session.lastSeenAt = entry.receivedAt;
    return entry;
  }

  /**
   * A stub answers one call: counts it, moves its scenario on, and gives the answer for this
   * call (each in turn, the last repeating). The one place that does this for every kind of call.
   */
  #next(entry: StubEntry): ResponsePlan {
    const stub = entry.stub;
    const plan = stub.responses[Math.min(entry.hits, stub.responses.length - 1)] as ResponsePlan;
    entry.hits++;
    if (stub.setsState) this.#scenarios.set(stub.setsState.scenario, stub.setsState.state);
    return plan;
  }

  /** The first available stub matching a call (no tiers: notifications, DELETE, GET streams), taken. */
  #take(call: McpCall): { entry: StubEntry; plan: ResponsePlan } | undefined {
    for (const entry of this.registry.candidates(call, undefined)) {
      if (isAvailable(entry) && matchesAll(entry.stub.matchers, call)) return { entry, plan: this.#next(entry) };
    }
    return undefined;
  }

  #play(entry: StubEntry, call: McpCall): Outcome | Promise<Outcome> {
    const stub = entry.stub;
    const plan = this.#next(entry);
    if (stub.delay === undefined) return this.#answer(plan, call, stub.id, stub);
    return sleep(drawDelay(stub.delay, this.#random), undefined, { signal: this.closing.signal }).then(() => this.#answer(plan, call, stub.id, stub));
  }

  /** Plays one answer for a call. `stub` gives URI-template captures for reads. */
  #answer(plan: ResponsePlan, call: McpCall, where: string, stub?: Stub): Outcome | Promise<Outcome> {
    switch (plan.kind) {
      case "result":
        if (typeof plan.result !== "function" && call.method !== "initialize") return this.#constantMessage(call, this.#constant(plan, 0, () => plan.result));
        return after(evaluate(plan.result, call, where), (result) => this.#result(plan, call, result));
      case "resource-result": {
        const uri = call.uri as string;
        const variables = Object.assign({}, ...(stub?.matchers ?? []).map((m) => m.captures?.(call) ?? {})) as Record<string, unknown>;
        // A copy that keeps what the call carries (a stream's answers too), plus the variables.
        const readCall = Object.defineProperties(new McpCall(call), Object.getOwnPropertyDescriptors(call));
        return after(evaluate(plan.payload, Object.assign(readCall, { variables }), where), (payload): Outcome => ({
          kind: "message",
          message: resultResponse(call.id as RequestId, wrapReadPayload(payload, uri, plan.mimeType)),
        }));
      }
      case "prompt-result": {
        const promptResult = (payload: unknown): unknown => {
          const result = isPromptResult(payload) ? payload : { messages: toMessages(payload, `the answer of ${where}`) };
          return plan.description === undefined ? result : { description: plan.description, ...result };
        };
        if (typeof plan.payload !== "function") return this.#constantMessage(call, this.#constant(plan, 0, () => promptResult(plan.payload)));
        return after(evaluate(plan.payload, call, where), (payload): Outcome => ({ kind: "message", message: resultResponse(call.id as RequestId, promptResult(payload)) }));
      }
      case "tool-result": {
        const tool = call.name === undefined ? undefined : this.tools.get(call.name);
        const wrap: WrapContext = {
          isError: plan.isError,
          hasOutputSchema: tool?.outputSchema !== undefined,
          structuredContent: supportedRevision(call.protocolVersion).structuredContent,
        };
        if (typeof plan.payload !== "function") {
          // Wrapping depends on the tool's declaration and the revision: one result for each way.
          const variant = (wrap.hasOutputSchema ? 2 : 0) + (wrap.structuredContent ? 1 : 0);
          return this.#constantMessage(call, this.#constant(plan, variant, () => wrapToolPayload(plan.payload, wrap)));
        }
        return after(evaluate(plan.payload, call, where), (payload): Outcome => ({ kind: "message", message: resultResponse(call.id as RequestId, wrapToolPayload(payload, wrap)) }));
      }
      case "error":
        return { kind: "message", message: errorMessage(call, plan.code, plan.message, plan.data) };
      case "status":
        return { kind: "status", status: plan.status, ...(plan.body === undefined ? {} : { body: plan.body }) };
      case "fault": {
        const result = call.method === "tools/call" ? { content: [] } : {};
        const message = resultResponse(call.id as RequestId, result);
        return { kind: "fault", fault: plan.fault, ...(plan.after === undefined ? {} : { after: plan.after }), message };
      }
      case "stream": {
        const session = call.sessionId === undefined ? undefined : this.sessions.get(call.sessionId);
        // The ending answer is played with this stub, so it sees its URI-template captures.
        const host: StreamHost = {
          requestFromClient: (...args) => this.requestFromClient(...args),
          finalMessage: (end, streamCall) => this.finalMessage(end, streamCall, stub),
        };
        const run = (sink: StreamSink): Promise<void> => playStream(host, plan, call, session, sink, where);
        return plan.dropAfter === undefined ? { kind: "stream", run } : { kind: "stream", run, dropAfter: plan.dropAfter };
      }
    }
  }

  /**
   * A constant answer's result, made and serialized once for each variant of it (answers are
   * copied at stub time, so a constant cannot change).
   */
  #constant(plan: ResponsePlan, variant: number, make: () => unknown): ConstantResult {
    let variants = this.#constantResults.get(plan);
    if (!variants) this.#constantResults.set(plan, (variants = []));
    let found = variants[variant];
    if (!found) {
      const result = make();
      found = variants[variant] = { result, json: JSON.stringify(result) };
    }
    return found;
  }

  #constantMessage(call: McpCall, { result, json }: ConstantResult): Outcome {
    return { kind: "message", message: resultResponse(call.id as RequestId, result), resultJson: json };
  }

  /** A plain result; for initialize, merged onto the default one and carrying what the session needs. */
  #result(plan: Extract<ResponsePlan, { kind: "result" }>, call: McpCall, value: unknown): Outcome {
    let result = value;
    let initialize: InitializeOutcome | undefined;
    if (call.method === "initialize" && isJsonObject(result)) {
      result = { ...defaultInitializeResult(this, call), ...result };
      initialize = {
        sessionId: plan.sessionId,
        protocolVersion: String((result as Record<string, unknown>)["protocolVersion"]),
        clientCapabilities: isJsonObject(call.params?.["capabilities"]) ? call.params["capabilities"] : {},
        clientInfo: isJsonObject(call.params?.["clientInfo"]) ? call.params["clientInfo"] : undefined,
      };
    }
    const message = resultResponse(call.id as RequestId, result);
    return initialize ? { kind: "message", message, initialize } : { kind: "message", message };
  }

  #reportUnmatched(entry: JournalEntry, report: string): void {
    const policy = this.options.onUnmatched ?? "warn";
    if (policy === "silent") return;
    if (typeof policy === "function") policy(entry, report);
    else process.stderr.write(`${report}\n`);
  }

  #log(entry: JournalEntry, outcome: Outcome): void {
    if (!this.options.verbose) return;
    const what = entry.call?.name ?? entry.call?.uri;
    const answer = outcome.kind === "status" ? `HTTP ${outcome.status}` : outcome.kind === "stream" ? "a stream" : showValue(outcome.message, 160);
    process.stderr.write(
      `${PREFIX} ${entry.sessionId ?? "-"} ← ${entry.method}${what ? ` ${JSON.stringify(what)}` : ""} ${showValue(entry.params ?? {}, 120)}` +
        ` → ${entry.stubId ?? (entry.unmatched ? "no stub" : "built-in")}: ${answer} (${entry.durationMs} ms)\n`,
    );
  }
}

/** What the journal records as the answer. */
function answerOf(outcome: Outcome): unknown {
  if (outcome.kind === "message") return outcome.message;
  if (outcome.kind === "status") return { status: outcome.status };
  if (outcome.kind === "fault") return { fault: outcome.fault };
  return { stream: true };
}

/** Evaluates an answer that may be a function of the call; checks a computed value is JSON. A promise only when the function returns one. */
function evaluate(answer: unknown, call: McpCall, stubId: string): unknown {
  if (typeof answer !== "function") return answer;
  const value: unknown = (answer as (c: McpCall) => unknown)(call);
  const check = (v: unknown): unknown => (assertJsonCarriable(v, `the answer function of ${stubId}`, "returned value"), v);
  return isThenable(value) ? Promise.resolve(value).then(check) : check(value);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function";
}

/** Applies `then` to a value now, or to a promise's value once it settles. */
function after<R>(value: unknown, then: (value: unknown) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(then) : then(value);
}

/** The call a stub sees, built field by field (this runs for every message). */
function callOf(method: string, params: Record<string, unknown> | undefined, id: RequestId | undefined, ctx: RequestContext): McpCall {
  return new McpCall({ method, params, id, sessionId: ctx.sessionId, headers: ctx.headers, protocolVersion: ctx.protocolVersion, body: ctx.body, transport: ctx.transport });
}
