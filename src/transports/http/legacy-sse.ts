/**
 * The 2024-11-05 HTTP+SSE transport, served beside Streamable HTTP (the specification's
 * backwards-compatibility section). `GET /sse` opens a connection and a session with it (the
 * SDK's `SSEServerTransport`: one session per connection) and sends `event: endpoint` with the
 * POST URI, relative as the SDK sends it (`/messages?sessionId=session-1`). `POST /messages`
 * answers 202 `Accepted`, and every answer arrives on the connection as `event: message`:
 * the connection is a pipe, as stdout is over stdio.
 *
 * What each fault means on this wire (written by {@link LegacyReply}):
 * - `connection-reset`: the SSE connection is destroyed (the session ends with it);
 * - `malformed-json`: an `event: message` whose `data:` line is the answer cut in half;
 * - `empty-response`: an `event: message` with an empty `data:` line (the SDK's `eventsource`
 *   parser dispatches it, and the client's JSON.parse fails on it);
 * - `drop-stream-after`: the SSE connection ends after that many events of the answer (this
 *   wire has no resuming, so the session ends with it);
 * - `respondsWithStatus` on a request: no status belongs to one answer here, so an error naming
 *   the status (as over stdio); on a notification, the POST gets that status.
 * @module
 */
import { requestPrincipal } from "../../auth/principal.js";
import type { Context, Hono } from "hono";
import { setTimeout as sleep } from "node:timers/promises";
import type { MockCore, Outcome, RequestContext } from "../../engine/core.js";
import type { Session } from "../../engine/session-store.js";
import type { Handler } from "./gate.js";
import { HTTP_GET_STREAM } from "../../protocol/entry-points.js";
import { OPENING_METHODS } from "../../protocol/methods/index.js";
import { ErrorCodes, supportedRevision } from "../../protocol/revisions.js";
import { playOutcomes, receive, renderReply, type Classified, type ReplyWriter } from "../transport.js";
import { isResponse, readMessages, statusResponse } from "./body.js";
import { allHeaders, directResponse, nodeResponse } from "./node-io.js";
import { Rejections } from "./rejections.js";
import { channelLimits, SseChannel, type ChannelLimits } from "./sse-channel.js";

/** The SSE endpoint of the legacy transport. */
export const LEGACY_SSE_PATH = "/sse";
/** Where the legacy transport's clients POST (the endpoint event's URI, with `?sessionId=`). */
export const LEGACY_MESSAGES_PATH = "/messages";
/** The version a connection's messages are read in before `initialize` negotiates one. */
export const LEGACY_PROTOCOL_VERSION = "2024-11-05";
/** How long a response waits behind the notifications before it (see {@link LegacyReply.events}). */
export const RESPONSE_GAP_MS = 20;
/** Ids of closed connections remembered, so a late POST hears why it gets 404. */
const REMEMBERED_CLOSED = 1000;

/** One GET /sse connection and the session that lives on it. */
class Connection {
  readonly abort = new AbortController();
  /** `initialize` was answered: the session has the version and capabilities it negotiated. */
  initialized = false;
  /** The openStream() script started (at `notifications/initialized`). */
  scripted = false;
  constructor(
    readonly id: string,
    readonly channel: SseChannel,
  ) {}
}

/** How an answer is written onto a connection's SSE stream (the faults' meanings: the module's comment). */
class LegacyReply implements ReplyWriter<void | Promise<void>> {
  constructor(
    readonly conn: Connection,
    readonly id: unknown,
  ) {}

  json(text: string): void {
    this.conn.channel.send(text);
  }

  /**
   * The SDK's client runs a notification's handler a microtask later but takes a response at
   * once, so a progress notification that reaches it in the same chunk as its result is lost
   * (typescript-sdk#2580): a response that follows notifications leaves {@link RESPONSE_GAP_MS}
   * after them, so a client that keeps up reads them first (a gap makes the loss unlikely; only
   * the client can make it impossible).
   */
  async events(outcomes: readonly Outcome[], dropAfter?: number): Promise<void> {
    const channel = this.conn.channel;
    if (dropAfter === 0) return channel.close();
    let sent = 0;
    let notified = false;
    let queue: Promise<void> | undefined;
    const write = (json: string): void => {
      channel.send(json);
      if (dropAfter !== undefined && ++sent === dropAfter) channel.close();
    };
    await playOutcomes(outcomes, {
      signal: this.conn.abort.signal,
      ready: () => channel.ready(),
      send: (message) => {
        const json = JSON.stringify(message);
        const response = !("method" in (message as object));
        if (response && notified) queue = (queue ?? Promise.resolve()).then(() => sleep(RESPONSE_GAP_MS)).then(() => write(json));
        else if (queue) queue = queue.then(() => write(json));
        else write(json);
        notified ||= !response;
      },
    });
    await queue;
  }

  status(status: number, body: string | object | undefined): void {
    const error = { code: ErrorCodes.InternalError, message: `HTTP ${status} (respondsWithStatus has no meaning for a request over the legacy SSE transport)`, data: body };
    this.conn.channel.send(JSON.stringify({ jsonrpc: "2.0", id: this.id, error }));
  }

  reset(): void {
    this.conn.channel.destroy();
  }

  raw(text: string): void {
    this.conn.channel.send(text);
  }
}

/** The legacy HTTP+SSE endpoints of one HTTP transport. */
export class LegacySse {
  readonly #core: MockCore;
  readonly #maxBody: number;
  readonly #keepAliveMs: number;
  readonly #limits: ChannelLimits;
  readonly #connections = new Map<string, Connection>();
  readonly #closed = new Set<string>();

  constructor(core: MockCore, maxBody: number, keepAliveMs: number) {
    this.#core = core;
    this.#maxBody = maxBody;
    this.#keepAliveMs = keepAliveMs;
    this.#limits = channelLimits(core.options);
    // A session ended by the mock (evicted past maxSessions, endSession) ends its connection at
    // once, not at the client's next POST: the stream would otherwise stay open for nothing.
    core.sessions.onEnd((id) => this.#connections.get(id)?.channel.close());
  }

  /** @internal Mounts `GET /sse` and `POST /messages` on the app, each behind `guard` (the Host and Origin gate). */
  mount(app: Hono, guard: (handler: Handler) => Handler): void {
    app.get(LEGACY_SSE_PATH, guard((c) => this.#open(c)));
    app.post(LEGACY_MESSAGES_PATH, guard((c) => this.#post(c)));
  }

  /** Ends every connection now (the mock is closing). */
  closeAll(): void {
    for (const conn of [...this.#connections.values()]) conn.channel.close();
  }

  #open(c: Context): Response {
    const core = this.#core;
    // A session per connection, as the SDK's SSEServerTransport has, in the one store.
    const session = core.sessions.open({ protocolVersion: LEGACY_PROTOCOL_VERSION, clientCapabilities: {}, clientInfo: undefined });
    const id = session.id;
    // With `auth`, the session is bound to who opened the stream (its token's client and user): only they may POST to it.
    session.principal = requestPrincipal(c);
    const channel = new SseChannel({}, this.#keepAliveMs, this.#limits, directResponse(c), nodeResponse(c));
    const conn = new Connection(id, channel);
    this.#connections.set(id, conn);
    channel.event("endpoint", `${LEGACY_MESSAGES_PATH}?sessionId=${encodeURIComponent(id)}`);
    void channel.done.then(() => this.#ended(conn));
    return channel.response;
  }

  /** The connection ended (the client left, a fault, or close()): its session ends with it. */
  #ended(conn: Connection): void {
    // A client dropped for not reading: its answers in flight end with the reason (the journal says it).
    conn.abort.abort(conn.channel.stalled);
    this.#connections.delete(conn.id);
    this.#core.sessions.end(conn.id);
    this.#closed.add(conn.id);
    if (this.#closed.size > REMEMBERED_CLOSED) this.#closed.delete(this.#closed.values().next().value as string);
  }

  /** The connection a POST names, or the rejection that says why there is none. */
  #connection(id: string | undefined): Connection | Response {
    if (id === undefined || id === "") return Rejections.legacySessionRequired();
    const conn = this.#connections.get(id);
    const session = this.#core.sessions.get(id);
    if (conn && session) return conn;
    if (conn) {
      conn.channel.close();
      return Rejections.legacySessionNotFound(`session ${id} ended (it expired, or was ended by the mock); its SSE stream is closed now. Open a new one with GET /sse.`);
    }
    if (this.#closed.has(id)) {
      return Rejections.legacySessionNotFound(`the SSE stream of session ${id} is gone, and the session ended with it: on the 2024-11-05 transport a session lives as long as its GET /sse connection. Open a new one.`);
    }
    if (session) return Rejections.legacySessionNotFound(`session ${id} is a Streamable HTTP session: POST its messages to the MCP endpoint with an Mcp-Session-Id header.`);
    return Rejections.legacySessionNotFound(`no GET /sse connection issued session ${id}. Open one, and POST to the URI of its endpoint event.`);
  }

  async #post(c: Context): Promise<Response> {
    const conn = this.#connection(c.req.query("sessionId"));
    if (isResponse(conn)) return conn;
    const session = this.#core.sessions.get(conn.id) as Session;
    if (session.principal !== requestPrincipal(c)) {
      return Rejections.legacySessionNotFound(`no GET /sse connection with this token opened session ${conn.id}; a session belongs to the token (client and user) that opened it.`);
    }
    const read = await readMessages(c, this.#maxBody);
    if (isResponse(read)) return read;
    const { body, messages, isBatch } = read;
    const version = conn.initialized ? session.protocolVersion : LEGACY_PROTOCOL_VERSION;
    if (isBatch && !supportedRevision(version).batching) return Rejections.batchNotAllowed(version);
    // Refused before anything in the batch is played, as on /mcp: a rejected POST has no effect.
    if (isBatch && messages.some((m) => m.kind === "request" && OPENING_METHODS.has(m.method))) return Rejections.initializeInBatch();
    if (conn.channel.closed) return Rejections.legacySessionNotFound(`the SSE stream of session ${conn.id} is gone.`);
    const headers = allHeaders(c);
    const ctx: RequestContext = { session: conn.initialized ? session : undefined, sessionId: conn.id, headers, protocolVersion: version, body, transport: "sse" };
    let status: Response | undefined;
    for (const m of messages) {
      if (m.kind === "request" && OPENING_METHODS.has(m.method)) {
        const initCtx = { ...ctx, session: undefined, protocolVersion: this.#core.era.negotiate(m.params?.["protocolVersion"]) };
        void this.#initialize(conn, m, initCtx).catch((error: unknown) => process.stderr.write(`[mcpmock] error while initializing session ${conn.id}: ${String(error)}\n`));
        continue;
      }
      const received = receive(this.#core, m, ctx);
      if (m.kind === "request") void this.#answer(conn, m.id, received as Outcome | Promise<Outcome>);
      else if (received !== undefined && !(received instanceof Promise) && received.kind === "status") status ??= statusResponse(received.status, received.body);
      if (m.kind === "notification" && m.method === "notifications/initialized") this.#startScript(conn, ctx);
    }
    return status ?? new Response("Accepted", { status: 202 });
  }

  async #answer(conn: Connection, id: unknown, outcome: Outcome | Promise<Outcome>): Promise<void> {
    try {
      const done = outcome instanceof Promise ? await outcome : outcome;
      if (conn.channel.closed) return;
      await renderReply([done], { batch: false, stream: false }, new LegacyReply(conn, id));
    } catch (error) {
      if (!conn.abort.signal.aborted) process.stderr.write(`[mcpmock] error while answering on the SSE stream of ${conn.id}: ${String(error)}\n`);
    }
  }

  async #initialize(conn: Connection, m: Extract<Classified, { kind: "request" }>, ctx: RequestContext): Promise<void> {
    const outcome = await this.#core.handleRequest(m.id, m.method, m.params, ctx);
    if (outcome.kind === "message" && outcome.initialize && !conn.channel.closed) {
      // The session keeps the connection's id (the endpoint URI carries it) and who opened it, with what initialize negotiated.
      const principal = this.#core.sessions.get(conn.id)?.principal;
      const session = this.#core.era.open({ ...outcome.initialize, sessionId: conn.id }, conn.id).session as Session;
      session.principal = principal;
      const channel = conn.channel;
      session.stream = { emit: (json: string) => channel.send(json), get attached() { return !channel.closed; } };
      conn.initialized = true;
      this.#core.push.streamOpened();
    }
    await this.#answer(conn, m.id, outcome);
  }

  /** An openStream() script plays on the connection once the client says it is initialized. */
  #startScript(conn: Connection, ctx: RequestContext): void {
    const session = ctx.session;
    if (conn.scripted || !session) return;
    conn.scripted = true;
    const script = this.#core.takeEventStub(HTTP_GET_STREAM, ctx);
    if (script?.plan.kind !== "stream") return;
    const signal = AbortSignal.any([conn.abort.signal, this.#core.closing.signal]);
    void this.#core.playOnStream({ ...script, plan: script.plan }, session, { signal, send: (m) => conn.channel.send(JSON.stringify(m)), ready: () => conn.channel.ready() });
  }
}
