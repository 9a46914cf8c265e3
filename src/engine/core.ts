/**
 * The mock's state and its one pipeline: a classified message and its context go in, an
 * outcome comes out. Every transport calls it; none decides what to answer. Answers are
 * played by {@link Answers}, server-to-client requests kept by {@link ClientRequests}, pushes
 * sent by {@link Push}, and where a request belongs is its era's decision ({@link ProtocolEra}).
 * @module
 */
import { setMaxListeners } from "node:events";
import { McpCall } from "../stubs/call.js";
import { defaultStubs } from "./built-in-answers.js";
import type { DefaultsSource } from "./built-ins/source.js";
import { advertisedCapabilities } from "../protocol/methods/capabilities.js";
import { ToolCatalog } from "../stubs/tool-catalog.js";
import { PREFIX } from "../values/errors.js";
import { Journal } from "../journal/journal.js";
import type { JournalEntry } from "../journal/entry.js";
import { JsonRpcFailure, type JsonRpcResponse, type RequestId } from "../protocol/jsonrpc.js";
import type { McpMockOptions } from "../options.js";
import { PromptCatalog } from "../stubs/prompt-catalog.js";
import { ErrorCodes, SUPPORTED_PROTOCOL_VERSIONS, supportedRevision } from "../protocol/revisions.js";
import { seededRandom } from "../stubs/random-delay.js";
import { matchesAll } from "../stubs/matchers.js";
import { isAvailable, nextResponse, StubRegistry, type StubEntry } from "../stubs/registry.js";
import { ResourceCatalog } from "../stubs/resource-catalog.js";
import { errorMessage, type SelectionContext } from "./selection.js";
import { SessionStore, type Session } from "./session-store.js";
import type { ResponsePlan, StreamPlan } from "../stubs/stub.js";
import { playStream, type StreamSink } from "./stream-player.js";
import { playStub, type StubPlayer } from "./stub-play.js";
import { DEFAULT_PAGE_SIZE } from "../protocol/pagination.js";
import { VERSION } from "../values/version.js";
import { Answers } from "./answers.js";
import { ClientRequests } from "./client-requests.js";
import { SessionEra } from "./eras/sessions.js";
import type { ProtocolEra } from "./eras/era.js";
import { StatelessEra } from "./eras/stateless.js";
import type { CacheHints } from "./eras/stateless-results.js";
import { InputRounds, type Retry } from "./input-rounds.js";
import { answerBytes, answerOf, callOf, DUPLICATE_ID_MESSAGE, requestKey, type Outcome, type RequestContext, type TakenStub } from "./outcome.js";
import { Push } from "./push.js";
import { Tasks } from "./tasks/tasks.js";
import { Apps, declareOptions, Skills } from "./declarations.js";
import { logAnswer, reportUnmatched } from "./reporting.js";
import { PROXY_PLAN, proxiedAnswers, type ProxiedAnswers, type UpstreamPort } from "./proxy-mode.js";
import { selectWithRates } from "./fault-rate.js";
import { InFlight } from "../values/in-flight.js";

export type { InitializeOutcome, Outcome, RequestContext, TakenStub } from "./outcome.js";

/** The state every scenario starts in (WireMock's name). */
const STARTED = "Started";

export class MockCore implements DefaultsSource, SelectionContext {
  readonly registry = new StubRegistry();
  readonly tools = new ToolCatalog();
  readonly prompts = new PromptCatalog();
  readonly resources = new ResourceCatalog();
  readonly apps = new Apps(this);
  readonly skills = new Skills(this);
  readonly journal: Journal;
  readonly sessions: SessionStore;
  readonly closing = new AbortController();
  readonly options: McpMockOptions;
  /** Sessions are kept (`sessions: "stateful"`, the default). */
  readonly stateful: boolean;
  /** Where session-era requests belong (`initialize`, `Mcp-Session-Id`). */
  readonly era: ProtocolEra;
  /** The 2026-07-28 requests' era: each request's envelope, read and checked. */
  readonly stateless: StatelessEra;
  /** The state of 2026-07-28 input rounds, sealed and opened. */
  readonly inputRounds = new InputRounds();
  /** Requests the mock sent to clients, waiting for their answers. */
  readonly requests: ClientRequests;
  /** notify(), mock.request() and list_changed. */
  readonly push: Push;
  /** Task-augmented calls and the task methods' answers. */
  readonly tasks: Tasks;
  /** Proxy mode: the upstream's answers (undefined without an upstream: nothing on the way costs more). */
  readonly proxied: ProxiedAnswers | undefined;
  /** The extensions declared while the mock runs (SEP-2133), advertised after the `extensions` option's. */
  readonly extensions = new Map<string, Readonly<Record<string, unknown>>>();
  readonly #answers: Answers;
  /** What playing a stub's answer reads (made once: every call plays one). */
  readonly #player: StubPlayer;
  #stubSeq = 0;
  #scenarios = new Map<string, string>();
  #random: () => number;
  /** Streamed requests still running, by session and request id, for notifications/cancelled. */
  readonly #inflight = new InFlight<AbortController>();
  /** Request ids being answered, by session, to refuse a duplicate id in flight. */
  readonly #active = new InFlight<true>();

  constructor(options: McpMockOptions, upstream?: UpstreamPort) {
    this.options = options;
    this.stateful = options.sessions !== "stateless";
    // Proxy mode: what the mock keeps and shows holds none of the upstream's credentials.
    this.journal = new Journal(options.journalSize, options.journalBytes, options.redactHeaders === false ? [] : options.redactHeaders, upstream?.redact && ((value) => upstream.redact!(value)));
    // With auth, session ids cannot be guessed (a token must not reach another's session by its id).
    this.sessions = new SessionStore(options.sessionIds ?? (options.auth ? "uuid" : "sequential"), options);
    const accepted = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => (options.protocolVersions as readonly string[] | undefined)?.includes(v) ?? true);
    this.era = new SessionEra(this.sessions, this.stateful, accepted);
    this.stateless = new StatelessEra(accepted, options.cacheHints);
    this.requests = new ClientRequests(options.clientTimeoutMs);
    this.push = new Push(this.sessions, this.requests, this.stateful, this.closing.signal);
    this.tasks = new Tasks({ tools: this.tools, sessions: this.sessions, closing: this.closing.signal, inflight: this.#inflight, options, broadcast: (method, params, principal) => void this.push.subscriptions.deliver(method, params, principal), deliver: (sessionId, message) => this.push.deliverWhenOpen(sessionId, JSON.stringify(message)) });
    this.proxied = proxiedAnswers(upstream, this, (o, c) => this.#answers.complete(o, c));
    this.#answers = new Answers(this);
    this.#player = { answers: this.#answers, tasks: this.tasks, random: () => this.#random(), closing: this.closing.signal };
    this.#random = seededRandom(options.seed ?? 1);
    // Every delayed answer and stream listens to this signal; there may be thousands at once.
    setMaxListeners(0, this.closing.signal);
    declareOptions(this, options, upstream !== undefined);
    this.#addDefaults();
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

  /** Removes every user stub and restores the built-in ones; forgets the tasks. */
  resetStubs(): void {
    this.registry.removeWhere(() => true);
    this.tasks.clear();
    this.#addDefaults();
  }

  #addDefaults(): void {
    for (const stub of [...defaultStubs(this, this.proxied !== undefined), ...this.apps.defaultStubs()]) this.registry.add(stub);
  }

  // The built-in answers read these (DefaultsSource).
  serverInfo(): Record<string, unknown> {
    return { ...(this.options.serverInfo ?? this.proxied?.upstreamInfo()?.serverInfo ?? { name: "mcpmock", version: VERSION }) };
  }
  instructions(): string | undefined {
    return this.options.instructions ?? this.proxied?.upstreamInfo()?.instructions;
  }
  capabilities(): Record<string, unknown> {
    return this.skills.advertised(this.apps.advertised(this.proxied ? { ...this.proxied.upstreamCapabilities(), ...advertisedCapabilities(this) } : advertisedCapabilities(this)));
  }
  pageSize(): number {
    return this.options.pageSize ?? DEFAULT_PAGE_SIZE;
  }
  statelessVersions(): readonly string[] {
    return this.stateless.versions;
  }
  cacheHints(): CacheHints {
    return this.stateless.cacheHints;
  }
  toListeners(method: string, params: Record<string, unknown> | undefined): void {
    this.push.subscriptions.deliver(method, params);
  }
  resourceNotFoundCode(call: McpCall): number {
    return this.options.resourceNotFoundCode ?? supportedRevision(call.protocolVersion).resourceNotFoundCode;
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
    const active = ctx.sessionId === undefined || this.#active.size === 0 ? undefined : requestKey(ctx.sessionId, id);
    const repeated = (active !== undefined && this.#active.has(active)) || ctx.batch?.has(id) === true;
    ctx.batch?.add(id);
    if (repeated) {
      const report = `${PREFIX} request id ${JSON.stringify(id)} is already in flight in ${ctx.sessionId}; JSON-RPC ids must be unique among pending requests.`;
      const outcome: Outcome = { kind: "message", message: errorMessage(call, ErrorCodes.InvalidRequest, DUPLICATE_ID_MESSAGE, report) };
      this.journal.complete(entry, undefined, answerOf(outcome), report);
      reportUnmatched(this, entry, report);
      return outcome;
    }
    return this.#handle(call, entry, method);
  }

  #handle(call: McpCall, entry: JournalEntry, method: string): Outcome | Promise<Outcome> {
    let stubId: string | undefined;
    let miss: string | undefined;
    let played: Outcome | Promise<Outcome>;
    try {
      const { retry, resumed } = this.inputRounds.roundsOf(call, this.registry);
      // A fault with a rate fails its share of the calls; the others go on as if it were not there.
      const selection = this.tasks.select(call, () => (resumed ? { entry: resumed } : selectWithRates(this, call, this.#random)));
      if ("entry" in selection) {
        stubId = selection.entry.stub.id;
        played = this.#play(selection.entry, call, retry);
      } else if (this.proxied && selection.miss !== undefined) played = this.#answers.play(PROXY_PLAN, call, "the upstream");
      else {
        played = this.#answers.complete({ kind: "message", message: selection.message }, call);
        miss = selection.miss;
      }
    } catch (error) {
      played = this.#failure(error, call, stubId, method);
    }
    if (!(played instanceof Promise)) return this.#finish(played, call, entry, stubId, miss);
    const id = stubId;
    // Pending until it settles (in #active, taken out by #finish: no promise of its own). While
    // closing a failure rethrows and its id stays, in a table that goes with the mock.
    const active = call.sessionId === undefined ? undefined : requestKey(call.sessionId, call.id);
    if (active !== undefined) this.#active.set(active, true);
    return played.then(
      (outcome) => this.#finish(outcome, call, entry, id, undefined, active),
      (error: unknown) => this.#finish(this.#failure(error, call, id, method), call, entry, id, undefined, active),
    );
  }

  /** An answer that failed, as the JSON-RPC error the client gets (rethrown while closing). */
  #failure(error: unknown, call: McpCall, stubId: string | undefined, method: string): Outcome {
    if (this.closing.signal.aborted) throw error;
    if (error instanceof JsonRpcFailure) return { kind: "message", message: errorMessage(call, error.code, error.message, error.data) };
    const where = stubId ? `the answer of ${stubId}` : `answering ${method}`;
    return { kind: "message", message: errorMessage(call, ErrorCodes.InternalError, `${PREFIX} ${where} failed: ${String(error)}`) };
  }

  /** Journals an answer (a stream journals its own end) and reports a miss; a pending one leaves #active (`active`, its key). */
  #finish(outcome: Outcome, call: McpCall, entry: JournalEntry, stubId: string | undefined, miss: string | undefined, active?: string): Outcome {
    if (active !== undefined) this.#active.delete(active);
    if (outcome.kind === "stream") return this.#tracked(outcome, call, entry, stubId);
    if (this.proxied) this.proxied.mark(call, entry);
    this.journal.complete(entry, stubId, answerOf(outcome), miss, answerBytes(outcome), outcome.kind === "message" ? outcome.resultJson : undefined);
    if (this.options.verbose) logAnswer(entry, outcome, (v) => this.journal.shown(v));
    if (miss !== undefined) reportUnmatched(this, entry, this.journal.shown(miss));
    return outcome;
  }

  /** A streamed answer that journals its end and can be cancelled by the client. */
  #tracked(outcome: Extract<Outcome, { kind: "stream" }>, call: McpCall, entry: JournalEntry, stubId: string | undefined): Outcome {
    const key = requestKey(call.sessionId, call.id);
    return {
      ...outcome,
      run: async (sink) => {
        const cancel = new AbortController();
        this.#inflight.set(key, cancel);
        const signal = AbortSignal.any([sink.signal, cancel.signal, this.closing.signal]);
        let last: unknown;
        try {
          await outcome.run({ send: (m) => ((last = m), sink.send(m)), signal, ...(sink.ready ? { ready: () => sink.ready?.() } : {}) });
        } catch (error) {
          if (!signal.aborted) {
            const failure = error instanceof JsonRpcFailure ? error : new JsonRpcFailure(ErrorCodes.InternalError, `${PREFIX} the stream of ${stubId} failed: ${String(error)}`);
            last = errorMessage(call, failure.code, failure.message, failure.data);
            sink.send(last);
          }
        } finally {
          this.#inflight.delete(key);
          if (this.proxied) this.proxied.mark(call, entry);
          const cut = signal.aborted && !(last && typeof last === "object" && ("result" in last || "error" in last));
          this.journal.complete(entry, stubId, cut ? { cancelled: true, reason: cancel.signal.aborted ? "notifications/cancelled" : typeof signal.reason === "string" ? signal.reason : "the stream ended first" } : last, undefined);
          if (this.options.verbose) logAnswer(entry, { kind: "message", message: last as JsonRpcResponse }, (v) => this.journal.shown(v));
        }
      },
    };
  }

  /**
   * Takes a notification: journals it, marks `notifications/initialized`, and returns a raw
   * HTTP outcome only when a stub asks for one (otherwise the transport accepts it).
   */
  handleNotification(method: string, params: Record<string, unknown> | undefined, ctx: RequestContext): Outcome | undefined {
    const call = callOf(method, params, undefined, ctx);
    const entry = this.#record("notification", call, ctx);
    if (method === "notifications/initialized" && ctx.session) ctx.session.initialized = true;
    if (method === "notifications/cancelled") this.#inflight.get(requestKey(ctx.sessionId, params?.["requestId"]))?.abort();
    const taken = this.#take(call);
    const plan = taken?.plan;
    if (!taken && this.proxied) this.proxied.notify(call);
    const outcome: Outcome | undefined = plan?.kind === "status" ? { kind: "status", status: plan.status, ...(plan.body === undefined ? {} : { body: plan.body }), ...(plan.headers ? { headers: plan.headers } : {}) } : undefined;
    this.journal.complete(entry, taken?.entry.stub.id, outcome ? { status: outcome.status } : undefined, undefined);
    return outcome;
  }

  /**
   * The stub that answers a transport event that is not a JSON-RPC message, taken (counted, its
   * scenario moved on): `openStream()` for a new GET stream, `deleteSession()` for the end of a
   * session. What the event means, and what it does without a stub, is the transport's.
   */
  takeEventStub(method: string, ctx: RequestContext, params?: Record<string, unknown>, id?: RequestId): TakenStub | undefined {
    const call = callOf(method, params, id, ctx);
    const taken = this.#take(call);
    return taken && { plan: taken.plan, call, stubId: taken.entry.stub.id };
  }

  /** Journals a transport event as a request, with what the transport answered. */
  journalEvent(method: string, ctx: RequestContext, stubId: string | undefined, answer: unknown, params?: Record<string, unknown>, id?: RequestId): void {
    // Not the body's message (that was the request that opened the event): the journal keeps its params.
    const entry = this.#record("request", callOf(method, params, id, { ...ctx, body: "" }), ctx);
    this.journal.complete(entry, stubId, answer, undefined);
  }

  /** Plays an openStream() script on a GET stream (or a 2026-07-28 listen stream, which has no session). */
  async playOnStream(found: TakenStub & { plan: StreamPlan }, session: Session | undefined, sink: StreamSink): Promise<void> {
    try {
      await playStream(this.#answers.streamHost(), found.plan, found.call, session, sink, found.stubId);
    } catch (error) {
      if (!sink.signal.aborted && this.options.onUnmatched !== "silent") process.stderr.write(`${PREFIX} the GET stream script of ${found.stubId} failed: ${String(error)}\n`);
    }
  }

  /** Takes a client's response to a server request (journaled under the method it answers). */
  handleResponse(id: RequestId | undefined, body: Record<string, unknown>, ctx: RequestContext): void {
    const { method, unexpected, taskId } = this.requests.match(id, ctx.sessionId);
    // Journaled under the method it answers, so `verify(method("elicitation/create"))` sees it.
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
    }, ctx.bytes ?? ctx.body.length);
    entry.taskId = taskId;
    this.journal.complete(entry, undefined, undefined, unexpected);
    if (method !== undefined) this.requests.settle(id as RequestId, body);
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
    }, ctx.bytes ?? ctx.body.length);
    if (ctx.session) ctx.session.lastSeenAt = entry.receivedAt;
    return entry;
  }

  /**
   * A stub answers one call: counts it, moves its scenario on, and gives the answer for this
   * call (each in turn, the last repeating). The one place that does this for every kind of call.
   */
  #next(entry: StubEntry): ResponsePlan {
    const plan = nextResponse(entry);
    entry.hits++;
    const sets = entry.stub.setsState;
    if (sets) this.#scenarios.set(sets.scenario, sets.state);
    return plan;
  }

  /** The first available stub matching a call (no tiers: notifications, DELETE, GET streams), taken. */
  #take(call: McpCall): { entry: StubEntry; plan: ResponsePlan } | undefined {
    for (const entry of this.registry.candidates(call, undefined)) {
      if (isAvailable(entry) && matchesAll(entry.stub.matchers, call)) return { entry, plan: this.#next(entry) };
    }
    return undefined;
  }

  /**
   * Plays a stub's next answer for a call. A 2026-07-28 call brings its `retry`: a retry that
   * resumes a state plays the same answer again, without counting a hit or moving a scenario.
   */
  #play(entry: StubEntry, call: McpCall, retry?: Retry): Outcome | Promise<Outcome> {
    const stub = entry.stub;
    const response = Math.min(retry?.state ? retry.state.response : entry.hits, stub.responses.length - 1);
    const plan = retry?.state ? (stub.responses[response] as ResponsePlan) : this.#next(entry);
    return playStub(this.#player, stub, plan, response, call, retry);
  }

}
