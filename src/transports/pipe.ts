/**
 * What stdio and the in-memory transport share: a connection that is one pipe each way. It is
 * one implicit session, opened at `initialize`; server-initiated messages (`notify()`,
 * `openStream()` scripts, `list_changed`) go down the same pipe as the answers. A transport on
 * it reads messages its own way (lines of stdin, or objects handed over in memory) and gives
 * each parsed one to {@link PipeConnection.handle}; the connection writes back through its
 * {@link PipeEnds}.
 *
 * How each reply becomes text on a pipe ({@link PipeConnection.writer}):
 * - an answer is one message; a stream is its messages in order, cut after `dropAfter`
 *   (`drop-stream-after`: the rest is not sent, the pipe stays open);
 * - a raw HTTP status (`respondsWithStatus`) has no meaning on a pipe: an error that names it;
 * - `connection-reset`: {@link PipeEnds.reset} (stdio ends stdout; memory closes the transport);
 * - `empty-response`: nothing at all; `malformed-json`: the cut text as a message, which the
 *   client's parser refuses (the SDK's `onerror` with a `SyntaxError`, and no answer);
 * - `wrong-id` and `duplicate-response`: ordinary messages, altered.
 * @module
 */
import type { InitializeOutcome, MockCore, Outcome, RequestContext } from "../engine/core.js";
import type { TransportKind } from "../stubs/call.js";
import type { RequestId } from "../protocol/jsonrpc.js";
import type { Session } from "../engine/session-store.js";
import { classifyMessage, errorResponse } from "../protocol/jsonrpc.js";
import { OPENING_METHODS } from "../protocol/methods/index.js";
import { HTTP_GET_STREAM } from "../protocol/entry-points.js";
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, ErrorCodes, supportedRevision } from "../protocol/revisions.js";
import { playOutcomes, receive, renderReply, type Classified, type ReplyWriter } from "./transport.js";
import { isEnvelopeRefusal, isStatelessRequest } from "../engine/eras/stateless.js";
import { openSubscription, withSubscriptionId } from "../engine/subscriptions.js";
import { PREFIX } from "../values/errors.js";
import { DUPLICATE_ID_MESSAGE } from "../engine/outcome.js";

/** The listen request's method (2026-07-28). */
const LISTEN = "subscriptions/listen";

/** Where a pipe-like connection writes. */
export interface PipeEnds {
  /** One message's text down the pipe (a line on stdout; a message handed to the client in memory). */
  send(text: string): void;
  /** The connection ends without an answer (the `connection-reset` fault). */
  reset(): void;
  /** A line for the log (stderr), never for the pipe. */
  log(text: string): void;
  /**
   * `undefined` when the pipe takes more now, else a promise that resolves once it does (stdout's
   * buffer drained): streams wait on it, so a client that stops reading slows them down.
   */
  ready?(): Promise<void> | undefined;
}

/** One connection that is a pipe each way: its implicit session, and how its replies are written. */
export class PipeConnection {
  readonly #core: MockCore;
  readonly #kind: TransportKind;
  readonly #ends: PipeEnds;
  readonly #implicitId: () => string;
  readonly #abort = new AbortController();
  #session: Session | undefined;
  /** The open `subscriptions/listen` streams, by their request id; all end when the connection stops. */
  readonly #listening = new Map<RequestId, () => void>();

  /** `implicitId`: the id a session opened here gets unless the initialize stub names one. */
  constructor(core: MockCore, kind: TransportKind, ends: PipeEnds, implicitId: () => string) {
    this.#core = core;
    this.#kind = kind;
    this.#ends = ends;
    this.#implicitId = implicitId;
  }

  /** The session opened at initialize, if any. */
  get session(): Session | undefined {
    return this.#session;
  }

  /** Aborted when the connection stops: streams still running end there. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** One parsed message, or a batch (an array): checked, answered, written back. */
  async handle(parsed: unknown, body: string): Promise<void> {
    if (this.#abort.signal.aborted) return;
    const version = this.#session?.protocolVersion;
    if (Array.isArray(parsed)) {
      if (version === undefined || !supportedRevision(version).batching) {
        this.#ends.log(
          version === undefined
            ? "ignored a batch before initialize: initialize comes alone, and only protocol 2025-03-26 has batches."
            : `ignored a batch: protocol version ${version} has no batches (only 2025-03-26 does).`,
        );
        return;
      }
      if (parsed.length === 0) return this.#ends.log("ignored an empty batch: a batch must hold at least one message.");
      if (parsed.some(isOpening)) return this.#ends.log("ignored a batch holding an initialize: initialize comes alone, never in a batch; nothing of the batch was played.");
      const batch = new Set<RequestId>();
      const share = Math.ceil(body.length / parsed.length);
      await Promise.all(parsed.map((item: unknown) => this.#onMessage(item, body, batch, share)));
      return;
    }
    await this.#onMessage(parsed, body, undefined);
  }

  /** One message; in a batch, `share` is the part of the batch's text it counts for in the journal. */
  async #onMessage(item: unknown, body: string, batch: Set<RequestId> | undefined, share?: number): Promise<void> {
    const m = classifyMessage(item, body.length);
    if (m.kind === "invalid") {
      this.#ends.log(`ignored an invalid JSON-RPC message: ${m.reason}`);
      return;
    }
    const core = this.#core;
    if (!this.#session && (m.kind === "request" || m.kind === "notification") && isStatelessRequest(undefined, undefined, m.params)) return this.#onStateless(m, body);
    const isInit = m.kind === "request" && OPENING_METHODS.has(m.method);
    // The session is the connection's: its version, or the default before initialize.
    const version = isInit ? core.era.negotiate(m.params?.["protocolVersion"]) : (this.#session?.protocolVersion ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION);
    const session = isInit ? undefined : this.#session;
    const ctx: RequestContext = { session, sessionId: session?.id, headers: {}, protocolVersion: version, body, transport: this.#kind, ...(batch ? { batch, bytes: share ?? body.length } : {}) };
    const received = receive(core, m, ctx);
    // A notification's raw status has no meaning on a pipe; a response has no answer.
    if (m.kind !== "request" || received === undefined) return;
    const outcome = received instanceof Promise ? await received : received;
    const opened = isInit && outcome.kind === "message" && outcome.initialize ? this.#openSession(outcome.initialize) : undefined;
    const written = renderReply([outcome], { batch: false, stream: false }, this.writer(m.id));
    if (written instanceof Promise) await written;
    if (opened) this.#playOpenStream(opened);
  }

  /**
   * A 2026-07-28 message (no session, the version in its envelope): refused as the revision
   * says, or answered statelessly; `subscriptions/listen` makes this pipe its stream.
   */
  async #onStateless(m: Extract<Classified, { kind: "request" | "notification" }>, body: string): Promise<void> {
    const core = this.#core;
    const envelope = core.stateless.read(m.params, undefined);
    const id = m.kind === "request" ? m.id : undefined;
    if (isEnvelopeRefusal(envelope)) {
      if (id !== undefined) this.#ends.send(JSON.stringify({ jsonrpc: "2.0", id, error: { code: envelope.code, message: envelope.message, data: envelope.data } }));
      else this.#ends.log(`ignored a notification: ${envelope.message}`);
      return;
    }
    const ctx: RequestContext = { session: undefined, sessionId: undefined, headers: {}, protocolVersion: envelope.protocolVersion, body, transport: this.#kind };
    if (m.kind === "notification") return void core.handleNotification(m.method, m.params, ctx);
    if (m.method === LISTEN) return this.#listen(m.id, m.params, ctx);
    const pending = core.handleRequest(m.id, m.method, m.params, ctx);
    const outcome = pending instanceof Promise ? await pending : pending;
    const written = renderReply([outcome], { batch: false, stream: false }, this.writer(m.id));
    if (written instanceof Promise) await written;
  }

  /**
   * `subscriptions/listen` on a pipe, as over HTTP: a stub's refusal (an error, or a raw status
   * named in an error) if one answers; else the acknowledgement, then what the filter lets
   * through, an `openStream()` script and a `streams()` answer of the listen stub, each frame
   * with the subscription id, until the connection stops. The listen request stays pending
   * while its stream is open, so its id cannot open a second one.
   */
  #listen(id: RequestId, params: Record<string, unknown> | undefined, ctx: RequestContext): void {
    const core = this.#core;
    if (this.#listening.has(id)) {
      const report = `${PREFIX} request id ${JSON.stringify(id)} is already in flight on this ${this.#kind} connection: a subscriptions/listen stream with that id is open. JSON-RPC ids must be unique among pending requests.`;
      core.journalEvent(LISTEN, ctx, undefined, { error: { code: ErrorCodes.InvalidRequest, message: DUPLICATE_ID_MESSAGE } }, params, id);
      return this.#ends.send(JSON.stringify(errorResponse(id, ErrorCodes.InvalidRequest, DUPLICATE_ID_MESSAGE, report)));
    }
    const taken = core.takeEventStub(LISTEN, ctx, params, id);
    if (taken && (taken.plan.kind === "status" || taken.plan.kind === "error")) {
      const plan = taken.plan;
      core.journalEvent(LISTEN, ctx, taken.stubId, plan.kind === "status" ? { status: plan.status } : { error: { code: plan.code, message: plan.message } }, params, id);
      if (plan.kind === "status") return void this.writer(id).status(plan.status, plan.body);
      return this.#ends.send(JSON.stringify(errorResponse(id, plan.code, plan.message, plan.data)));
    }
    const emit = (json: string): void => {
      if (!this.#abort.signal.aborted) this.#ends.send(json);
    };
    const { filter, close } = openSubscription(core.push.subscriptions, id, params?.["notifications"], core.capabilities(), emit);
    this.#listening.set(id, close);
    core.journalEvent(LISTEN, ctx, taken?.stubId, { subscribed: filter }, params, id);
    const script = core.takeEventStub(HTTP_GET_STREAM, ctx);
    const plays = [script, taken].filter((t) => t?.plan.kind === "stream");
    if (plays.length === 0) return;
    const sink = { signal: AbortSignal.any([this.#abort.signal, core.closing.signal]), send: (m: unknown) => emit(JSON.stringify(withSubscriptionId(m as Record<string, unknown>, id))), ready: () => this.#ends.ready?.() };
    for (const play of plays) if (play?.plan.kind === "stream") void core.playOnStream({ ...play, plan: play.plan }, undefined, sink);
  }

  #openSession(init: InitializeOutcome): Session {
    const session = this.#core.era.open(init, this.#implicitId()).session as Session;
    const signal = this.#abort.signal;
    const ends = this.#ends;
    session.stream = {
      emit: (json: string) => {
        if (!signal.aborted) ends.send(json);
      },
      get attached() {
        return !signal.aborted;
      },
    };
    this.#session = session;
    this.#core.push.streamOpened();
    return session;
  }

  /** The pipe is the session's push stream: an `openStream()` script plays on it once it opens. */
  #playOpenStream(session: Session): void {
    const core = this.#core;
    const ctx: RequestContext = { session, sessionId: session.id, headers: {}, protocolVersion: session.protocolVersion, body: "", transport: this.#kind };
    const script = core.takeEventStub(HTTP_GET_STREAM, ctx);
    if (script?.plan.kind !== "stream") return;
    const signal = AbortSignal.any([this.#abort.signal, core.closing.signal]);
    void core.playOnStream({ ...script, plan: script.plan }, session, { signal, send: (m) => session.stream?.emit(JSON.stringify(m)), ready: () => this.#ends.ready?.() });
  }

  /** How one answer (to request `id`) is written on the pipe; see the module's comment. */
  writer(id: RequestId): ReplyWriter<Promise<void> | void> {
    return new PipeReply(this.#ends, this.#abort.signal, id, this.#kind);
  }

  /** Stops the connection: streams still running end, the push stream detaches. */
  stop(): void {
    this.#abort.abort();
    for (const close of this.#listening.values()) close();
    this.#listening.clear();
  }
}

/** Whether a batch item asks for `initialize` (read before any item is classified or played). */
function isOpening(item: unknown): boolean {
  const method = (item as { method?: unknown } | null)?.method;
  return typeof method === "string" && OPENING_METHODS.has(method);
}

/** One answer written on a pipe (one object per answer: this runs for every request). */
class PipeReply implements ReplyWriter<Promise<void> | void> {
  readonly #ends: PipeEnds;
  readonly #signal: AbortSignal;
  readonly #id: RequestId;
  readonly #kind: TransportKind;

  constructor(ends: PipeEnds, signal: AbortSignal, id: RequestId, kind: TransportKind) {
    this.#ends = ends;
    this.#signal = signal;
    this.#id = id;
    this.#kind = kind;
  }

  #send(text: string): void {
    if (!this.#signal.aborted) this.#ends.send(text);
  }

  json(text: string): void {
    this.#send(text);
  }

  events(outcomes: readonly Outcome[], dropAfter?: number): Promise<void> {
    let sent = 0;
    return playOutcomes(outcomes, {
      signal: this.#signal,
      ready: () => this.#ends.ready?.(),
      send: (message) => {
        if (dropAfter !== undefined && sent >= dropAfter) return;
        sent++;
        this.#send(JSON.stringify(message));
      },
    });
  }

  status(status: number, body: string | object | undefined): void {
    this.#send(JSON.stringify({ jsonrpc: "2.0", id: this.#id, error: { code: ErrorCodes.InternalError, message: `HTTP ${status} (respondsWithStatus has no meaning over ${this.#kind})`, data: body } }));
  }

  reset(): void {
    this.#ends.reset();
  }

  raw(text: string): void {
    if (text !== "") this.#send(text);
  }
}
