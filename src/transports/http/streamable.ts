/**
 * The Streamable HTTP transport on Hono: one endpoint, POST / GET / DELETE, with the
 * spec's header, session and version checks as straight-line early returns. It decides
 * nothing about answers: every message goes through the core's pipeline.
 * @module
 */
import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import type { MockCore, Outcome, RequestContext } from "../../engine/core.js";
import { rejection, Rejections } from "./rejections.js";
import { classifyMessage, encodeResult, type ClassifiedMessage, type JsonRpcResponse } from "../../protocol/jsonrpc.js";
import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  ErrorCodes,
  HeaderNames,
  negotiateVersion,
  revisionOf,
  supportedRevision,
} from "../../protocol/revisions.js";
import type { IncomingMessage } from "node:http";
import type { RequestId } from "../../stubs/call.js";
import type { Session } from "../../engine/sessions.js";
import { SseChannel } from "./sse-channel.js";
import { allHeaders, directResponse, header, readBody, sendJson } from "./node-io.js";
import { EventStream, parseEventId } from "../../engine/event-stream.js";

/** Default largest POST body (the SDK's default too). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The SDK's batch limit. */
export const MAX_BATCH = 100;
/** Default keep-alive period on idle streams. */
export const DEFAULT_KEEP_ALIVE_MS = 15_000;
/** Methods a client may send before it has a session (probes for newer revisions). */
const PRE_SESSION_METHODS = new Set(["server/discover"]);
/** Default `retry:` advised on SSE streams. */
export const DEFAULT_RETRY_MS = 1000;
/** How long a session's dropped stream waits to be resumed before its script is stopped. */
export const RESUME_GRACE_MS = 10_000;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** Loopback names and literals only: `127.0.0.1.evil.example` is not one. */
function isLoopback(name: string): boolean {
  return LOOPBACK_HOSTS.has(name) || LOOPBACK_V4.test(name);
}

type Classified = Exclude<ClassifiedMessage, { kind: "invalid" }>;

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A rejection rather than a result (cheaper than `instanceof Response` on the hot path). */
function isResponse(value: object): value is Response {
  return "status" in value && "headers" in value;
}

/** An id no request carries: for the `wrong-id` fault. */
function wrongId(id: unknown): RequestId {
  return typeof id === "number" ? id + 1_000_000 : `${String(id)}-wrong`;
}

/** The session a request belongs to (stateless: none, and the id it carried, if any). */
interface SessionOf {
  readonly session: Session | undefined;
  readonly sessionId: string | undefined;
}

/** The HTTP face of a mock. */
export class HttpTransport {
  readonly app = new Hono();
  readonly #core: MockCore;
  readonly #channels = new Set<SseChannel>();
  readonly #maxBody: number;
  readonly #keepAliveMs: number;
  readonly #endpoint: string;
  #admin: Hono | undefined;
  readonly #graceTimers = new Set<ReturnType<typeof setTimeout>>();
  #allowedHost: string | undefined;

  constructor(core: MockCore) {
    this.#core = core;
    const o = core.options;
    this.#endpoint = o.path ?? "/mcp";
    this.#maxBody = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#keepAliveMs = o.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
    const path = this.#endpoint;
    const allowed = core.stateful ? (o.getStream === false ? "POST, DELETE" : "GET, POST, DELETE") : "POST";
    const corsHeaders = cors({
      origin: (origin) => origin,
      allowMethods: ["GET", "POST", "DELETE"],
      allowHeaders: ["content-type", "accept", "authorization", "last-event-id", HeaderNames.sessionId, HeaderNames.protocolVersion],
      exposeHeaders: [HeaderNames.sessionId, HeaderNames.protocolVersion],
    });
    // One gate for every request: the Host check (DNS rebinding), then, for browsers (which
    // always send Origin), the Origin check and CORS on the MCP endpoint. Each route calls it
    // itself, and routes do not overlap, so Hono runs one handler per request (no compose).
    const gated =
      (onEndpoint: (c: Context) => boolean, handler: (c: Context) => Response | Promise<Response>) =>
      (c: Context): Response | Promise<Response> => {
        const denied = this.#checkHost(header(c, "host"));
        if (denied) return denied;
        const origin = header(c, "origin");
        if (origin === undefined || !onEndpoint(c)) return handler(c);
        return this.#checkOrigin(origin) ?? withCors(c, handler);
      };
    const withCors = async (c: Context, handler: (c: Context) => Response | Promise<Response>): Promise<Response> => {
      // What Hono does around a route with a middleware: CORS headers set on c.res before it
      // are merged into the route's response; a preflight is answered by the middleware alone.
      const preflight = await corsHeaders(c, async () => {
        c.res = await handler(c);
      });
      return preflight ?? c.res;
    };
    const always = (): boolean => true;
    this.app.post(path, gated(always, (c) => this.#post(c)));
    this.app.get(path, gated(always, (c) => (c.req.method === "HEAD" ? Rejections.methodNotAllowed(allowed) : this.#get(c))));
    this.app.delete(path, gated(always, (c) => this.#delete(c)));
    // Everything else: other methods on the endpoint (a CORS preflight too), the admin API, 404.
    this.app.notFound(
      gated(
        (c) => c.req.path === path,
        (c) =>
          c.req.path === path
            ? Rejections.methodNotAllowed(allowed)
            : this.#admin && c.req.path.startsWith("/__admin")
              ? (this.#checkOrigin(header(c, "origin")) ?? this.#admin.fetch(c.req.raw, c.env))
              : Rejections.notFound(c.req.path, path),
      ),
    );
    this.app.onError((error) =>
      core.closing.signal.aborted ? Rejections.shuttingDown() : Rejections.internal(String(error)),
    );
  }

  /** Serves the admin API beside the MCP endpoint. */
  mountAdmin(admin: Hono): void {
    this.#admin = admin;
  }

  /** Ends every open stream now. */
  closeStreams(): void {
    for (const timer of this.#graceTimers) clearTimeout(timer);
    this.#graceTimers.clear();
    for (const channel of this.#channels) channel.close();
    this.#channels.clear();
  }

  /** DNS-rebinding protection: a loopback-bound mock answers loopback Host names (and allowedHosts) only. */
  #checkHost(host: string | undefined): Response | undefined {
    if (host === undefined || host === this.#allowedHost) return undefined;
    const denied = this.#hostDenied(host);
    // Clients send the same Host on every request: remember the last one allowed.
    if (!denied) this.#allowedHost = host;
    return denied;
  }

  #hostDenied(host: string): Response | undefined {
    const allowedHosts = this.#core.options.allowedHosts?.map((h) => h.toLowerCase());
    if (allowedHosts?.includes(host.toLowerCase())) return undefined;
    const name = (host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d+$/, "")).toLowerCase();
    if (allowedHosts?.includes(name)) return undefined;
    const bound = this.#core.options.host ?? "127.0.0.1";
    if (!isLoopback(bound) && allowedHosts === undefined) return undefined;
    if (isLoopback(name)) return undefined;
    return Rejections.invalidHost(host);
  }

  #checkOrigin(origin: string | undefined): Response | undefined {
    if (origin === undefined) return undefined;
    if (this.#core.options.allowedOrigins?.includes(origin)) return undefined;
    try {
      if (isLoopback(new URL(origin).hostname)) return undefined;
    } catch {
      // an Origin that is not a URL is not allowed
    }
    return Rejections.invalidOrigin(origin);
  }

  /** Session and version checks shared by POST (non-initialize), GET and DELETE. */
  #resolveSession(c: Context, optional: boolean): SessionOf | Response {
    const sessionId = header(c, HeaderNames.sessionId);
    if (!this.#core.stateful) return { session: undefined, sessionId };
    if (sessionId === undefined) return optional ? { session: undefined, sessionId } : Rejections.sessionRequired();
    const session = this.#core.sessions.get(sessionId);
    if (!session) return Rejections.sessionNotFound();
    return { session, sessionId: session.id };
  }

  #versionFor(c: Context, session: Session | undefined): string | Response {
    const version = header(c, HeaderNames.protocolVersion);
    // The table's own string: the journal keeps one copy of each version, not one per request.
    if (version !== undefined) return revisionOf(version)?.version ?? Rejections.unsupportedVersion(version);
    return session?.protocolVersion ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  }

  async #post(c: Context): Promise<Response> {
    const accept = header(c, "accept") ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return Rejections.notAcceptablePost();
    const mediaType = (header(c, "content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (mediaType !== "application/json") return Rejections.unsupportedMediaType();
    const bytes = await readBody(c, this.#maxBody);
    if (bytes === "too-large") return Rejections.payloadTooLarge(this.#maxBody);
    if (bytes === "cut") {
      // The rest of the body is never read, so this connection cannot carry another request.
      const response = Rejections.payloadTooLarge(this.#maxBody);
      response.headers.set("connection", "close");
      return response;
    }
    let body: string;
    let parsed: unknown;
    try {
      body = UTF8.decode(bytes);
    } catch {
      return Rejections.invalidJson("The body is not valid UTF-8.");
    }
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      return Rejections.invalidJson(String((error as Error).message));
    }
    const isBatch = Array.isArray(parsed);
    const items: unknown[] = isBatch ? (parsed as unknown[]) : [parsed];
    if (isBatch && items.length === 0) return Rejections.emptyBatch();
    if (items.length > MAX_BATCH) return Rejections.batchTooLarge();
    const messages: Classified[] = [];
    for (let i = 0; i < items.length; i++) {
      const m = classifyMessage(items[i]);
      if (m.kind === "invalid") return Rejections.invalidMessage(isBatch ? `message [${i}]: ${m.reason}` : m.reason);
      messages.push(m);
    }
    const headers = allHeaders(c);
    let init: Classified | undefined;
    let preSession = true;
    for (const m of messages) {
      if (m.kind === "request" && m.method === "initialize") init ??= m;
      if (m.kind !== "request" || !PRE_SESSION_METHODS.has(m.method)) preSession = false;
    }
    if (init) return this.#initialize(c, messages, init, headers, body);

    const resolved = this.#resolveSession(c, preSession);
    if (isResponse(resolved)) return resolved;
    const version = preSession ? DEFAULT_NEGOTIATED_PROTOCOL_VERSION : this.#versionFor(c, resolved.session);
    if (typeof version !== "string") return version;
    if (isBatch && !supportedRevision(version).batching) return Rejections.batchNotAllowed(version);
    const ctx: RequestContext = { session: resolved.session, sessionId: resolved.sessionId, headers, protocolVersion: version, body, transport: "http", ...(isBatch ? { batch: new Set() } : {}) };

    const single = messages[0] as Classified;
    if (!isBatch && single.kind === "request") {
      // The usual case, without a hop when the answer is ready at once.
      const outcome = this.#core.handleRequest(single.id, single.method, single.params, ctx);
      return this.#answer(c, [outcome instanceof Promise ? await outcome : outcome], false, resolved, version);
    }
    const pending: (Outcome | Promise<Outcome>)[] = [];
    let raw: Outcome | undefined;
    for (const m of messages) {
      if (m.kind === "request") pending.push(this.#core.handleRequest(m.id, m.method, m.params, ctx));
      else if (m.kind === "notification") raw ??= this.#core.handleNotification(m.method, m.params, ctx);
      else this.#core.handleResponse(m.id, m.kind === "response" ? m.result : { error: m.error }, ctx);
    }
    if (pending.length === 0) return raw ? this.#status(raw) : new Response(null, { status: 202 });
    const outcomes = await Promise.all(pending);
    return this.#answer(c, outcomes, isBatch, resolved, version);
  }

  async #initialize(c: Context, messages: Classified[], init: Classified, headers: Record<string, string>, body: string): Promise<Response> {
    if (messages.length > 1) return Rejections.initializeInBatch();
    if (init.kind !== "request") return Rejections.invalidMessage("initialize must be a request");
    const existing = header(c, HeaderNames.sessionId);
    if (this.#core.stateful && existing !== undefined && this.#core.sessions.get(existing)) return Rejections.alreadyInitialized();
    const version = negotiateVersion(init.params?.["protocolVersion"]);
    const ctx: RequestContext = { session: undefined, sessionId: undefined, headers, protocolVersion: version, body, transport: "http" };
    const outcome = await this.#core.handleRequest(init.id, init.method, init.params, ctx);
    let to: SessionOf = { session: undefined, sessionId: undefined };
    if (outcome.kind === "message" && outcome.initialize) {
      const plan = outcome.initialize;
      if (this.#core.stateful) {
        const session = this.#core.sessions.open({
          ...(plan.sessionId === undefined ? {} : { id: plan.sessionId }),
          protocolVersion: plan.protocolVersion,
          clientCapabilities: plan.clientCapabilities,
          clientInfo: plan.clientInfo,
        });
        to = { session, sessionId: session.id };
      } else to = { session: undefined, sessionId: plan.sessionId };
    }
    return this.#answer(c, [outcome], false, to, version);
  }

  #answer(c: Context, outcomes: Outcome[], isBatch: boolean, { session, sessionId }: SessionOf, version: string): Response {
    const json = (this.#core.options.responseMode ?? "json") === "json";
    const first = outcomes[0] as Outcome;
    if (json && !isBatch && first.kind === "message") {
      const text = first.resultJson === undefined ? JSON.stringify(first.message) : encodeResult(first.message.id as RequestId, first.resultJson);
      return sendJson(c, 200, sessionId, text);
    }
    const status = outcomes.find((o) => o.kind === "status");
    if (status) return this.#status(status);
    const headers: Record<string, string> = sessionId === undefined ? {} : { [HeaderNames.sessionId]: sessionId };
    if (outcomes.some((o) => o.kind === "stream")) {
      const dropAfter = outcomes.find((o): o is Extract<Outcome, { kind: "stream" }> => o.kind === "stream")?.dropAfter;
      return this.#sse(c, headers, session, version, outcomes, dropAfter);
    }
    let messages = outcomes.map((o) => (o as { message: JsonRpcResponse }).message);
    let sse = !json;
    const fault = outcomes.find((o) => o.kind === "fault");
    if (fault?.kind === "fault") {
      switch (fault.fault) {
        case "connection-reset":
          (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.destroy();
          return new Response(null, { status: 500 });
        // Both answer application/json in either response mode: the client sees a body it cannot parse.
        case "empty-response":
          return new Response("", { status: 200, headers: { ...headers, "content-type": "application/json" } });
        case "malformed-json": {
          const text = JSON.stringify(isBatch ? messages : messages[0]);
          return new Response(text.slice(0, Math.ceil(text.length / 2)), { status: 200, headers: { ...headers, "content-type": "application/json" } });
        }
        case "wrong-id":
          messages = messages.map((m) => (m === fault.message ? { ...m, id: wrongId(m.id) } : m) as JsonRpcResponse);
          break;
        case "duplicate-response":
          messages = messages.flatMap((m) => (m === fault.message ? [m, m] : [m]));
          if (!isBatch) sse = true;
          break;
        case "drop-stream-after":
          // A plain answer has no events before its result: the connection drops before it.
          // The result stays in the stream for a client that resumes with Last-Event-ID.
          return this.#sse(c, headers, session, version, outcomes, 0);
      }
    }
    if (!sse) return sendJson(c, 200, sessionId, JSON.stringify(isBatch ? messages : messages[0]));
    return this.#sse(c, headers, session, version, messages.map((message) => ({ kind: "message", message })));
  }

  /**
   * An SSE answer: a numbered, resumable event stream for the session. It starts with a
   * priming event (an id, `retry:`, empty data) for clients at 2025-11-25 or later, carries
   * each message as an event with an id, and may drop the connection after `dropAfter`
   * events while the stream goes on (a client resumes it with GET and `Last-Event-ID`).
   */
  #sse(c: Context, headers: Record<string, string>, session: Session | undefined, version: string, outcomes: Outcome[], dropAfter?: number): Response {
    // Without a session nothing can be resumed: no ids, so clients do not try.
    const stream = session ? session.streams.open() : new EventStream(0, false);
    const channel = this.#track(new SseChannel(headers, this.#keepAliveMs, directResponse(c)));
    if (session && supportedRevision(version).primingEvents) channel.prime(`${stream.number}-0`, this.#core.options.sseRetryMs ?? DEFAULT_RETRY_MS);
    let emitted = 0;
    const send = (message: unknown): void => {
      stream.emit(JSON.stringify(message));
      if (dropAfter !== undefined && ++emitted === dropAfter) stream.drop();
    };
    // Only a streamed answer needs to hear that the stream ended: an AbortSignal costs more
    // than the rest of a plain answer.
    if (!outcomes.some((o) => o.kind === "stream")) {
      stream.attach(channel, 0);
      if (dropAfter === 0) stream.drop();
      for (const outcome of outcomes) if (outcome.kind === "message" || outcome.kind === "fault") send(outcome.message);
      stream.finish();
      return channel.response;
    }
    const abort = new AbortController();
    stream.attach(channel, 0, () => {
      if (stream.finished) return;
      // A disconnect is not a cancellation: a session's stream waits a while to be resumed.
      if (!session) return abort.abort();
      const timer = setTimeout(() => {
        this.#graceTimers.delete(timer);
        if (!stream.attached && !stream.finished) abort.abort();
      }, RESUME_GRACE_MS);
      timer.unref();
      this.#graceTimers.add(timer);
    });
    const sink = { signal: abort.signal, send };
    if (dropAfter === 0) stream.drop();
    void (async () => {
      for (const outcome of outcomes) {
        if (abort.signal.aborted) break;
        if (outcome.kind === "stream") await outcome.run(sink);
        else if (outcome.kind === "message" || outcome.kind === "fault") sink.send(outcome.message);
      }
      stream.finish();
    })().catch(() => stream.finish());
    return channel.response;
  }

  #status(outcome: Outcome): Response {
    if (outcome.kind !== "status") return new Response(null, { status: 500 });
    const body = outcome.body;
    if (body === undefined) return new Response(null, { status: outcome.status });
    if (typeof body === "string") return new Response(body, { status: outcome.status, headers: { "content-type": "text/plain; charset=utf-8" } });
    return new Response(JSON.stringify(body), { status: outcome.status, headers: { "content-type": "application/json" } });
  }

  #get(c: Context): Response {
    if (!(header(c, "accept") ?? "").includes("text/event-stream")) return Rejections.notAcceptableGet();
    if (!this.#core.stateful || this.#core.options.getStream === false) {
      return Rejections.methodNotAllowed(this.#core.stateful ? "POST, DELETE" : "POST");
    }
    const resolved = this.#resolveSession(c, false);
    if (isResponse(resolved)) return resolved;
    const version = this.#versionFor(c, resolved.session);
    if (typeof version !== "string") return version;
    const session = resolved.session as Session;
    const headers = { [HeaderNames.sessionId]: session.id };
    const lastEventId = header(c, HeaderNames.lastEventId);
    if (lastEventId !== undefined) return this.#resume(c, session, lastEventId, headers);
    if (session.stream?.attached) return Rejections.streamConflict();
    const stream = session.streams.open();
    const channel = this.#track(new SseChannel(headers, this.#keepAliveMs, directResponse(c)));
    if (supportedRevision(version).primingEvents) channel.prime(`${stream.number}-0`, this.#core.options.sseRetryMs ?? DEFAULT_RETRY_MS);
    session.stream = stream;
    const ended = new AbortController();
    stream.attach(channel, 0, () => ended.abort());
    this.#core.streamOpened();
    const ctx: RequestContext = { session, sessionId: session.id, headers: allHeaders(c), protocolVersion: version, body: "", transport: "http" };
    const script = this.#core.openStreamPlan(ctx);
    if (script) void this.#core.playOnStream(script, session, { signal: AbortSignal.any([ended.signal, this.#core.closing.signal]), send: (m) => stream.emit(JSON.stringify(m)) });
    return channel.response;
  }

  /** GET with Last-Event-ID: replays that stream's missed events, then carries it on. */
  #resume(c: Context, session: Session, lastEventId: string, headers: Record<string, string>): Response {
    const parsed = parseEventId(lastEventId);
    const stream = parsed && session.streams.get(parsed.stream);
    if (!parsed || !stream) {
      return rejection(400, ErrorCodes.TransportError, "Invalid event ID format", `[mcpmock] Last-Event-ID ${JSON.stringify(lastEventId)} names no stream of ${session.id} that can be resumed.`);
    }
    if (stream.attached) return Rejections.resumeConflict();
    const channel = this.#track(new SseChannel(headers, this.#keepAliveMs, directResponse(c)));
    stream.attach(channel, parsed.seq);
    if (session.streams.get(parsed.stream) === session.stream) this.#core.streamOpened();
    return channel.response;
  }

  #delete(c: Context): Response {
    if (!this.#core.stateful) return Rejections.methodNotAllowed("POST");
    const resolved = this.#resolveSession(c, false);
    if (isResponse(resolved)) return resolved;
    const version = this.#versionFor(c, resolved.session);
    if (typeof version !== "string") return version;
    const ctx: RequestContext = { session: resolved.session, sessionId: resolved.sessionId, headers: allHeaders(c), protocolVersion: version, body: "", transport: "http" };
    const { status, body } = this.#core.handleDelete(ctx);
    return this.#status({ kind: "status", status, ...(body === undefined ? {} : { body }) });
  }

  #track(channel: SseChannel): SseChannel {
    this.#channels.add(channel);
    void channel.done.then(() => this.#channels.delete(channel));
    return channel;
  }
}
