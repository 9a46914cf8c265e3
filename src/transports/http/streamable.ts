/**
 * The Streamable HTTP transport on Hono: one endpoint, POST / GET / DELETE, with the
 * spec's header, session and version checks as straight-line early returns. It decides
 * nothing about answers: every message goes to the engine ({@link receive}), and every
 * answer is written by the one renderer ({@link renderReply}) through this transport's
 * {@link ReplyWriter}.
 * @module
 */
import { appEventsRoute } from "./app-events.js";
import { PROBE_EVENTS_PATH } from "../../probe/page.js";
import { Hono, type Context } from "hono";
import type { IncomingMessage } from "node:http";
import type { MockCore, Outcome, RequestContext } from "../../engine/core.js";
import type { Session } from "../../engine/session-store.js";
import { HTTP_DELETE } from "../../protocol/entry-points.js";
import { BEFORE_SESSION_METHODS, OPENING_METHODS } from "../../protocol/methods/index.js";
import { HeaderNames, supportedRevision } from "../../protocol/revisions.js";
import { isRefusal, type Placement } from "../../engine/eras/era.js";
import { receive, renderReply, type Classified, type ReplyWriter } from "../transport.js";
import { Gate, type Handler } from "./gate.js";
import { allHeaders, header, sendJson } from "./node-io.js";
import { isResponse, readMessages, statusResponse, type ReadMessages } from "./body.js";
import { Rejections } from "./rejections.js";
import { DEFAULT_KEEP_ALIVE_MS, SseStreams } from "./sse-streams.js";
import { LEGACY_MESSAGES_PATH, LEGACY_SSE_PATH, LegacySse } from "./legacy-sse.js";
import { McpMockError } from "../../values/errors.js";
import { isStatelessRequest } from "../../engine/eras/stateless.js";
import { StatelessHttp } from "./stateless.js";
import { MockAuth } from "../../auth/mock-auth.js";
import { mountServerCard } from "./server-card-routes.js";
import { requestPrincipal } from "../../auth/principal.js";

/** Default largest POST body (the SDK's default too). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The SDK's batch limit. */
export { MAX_BATCH } from "./body.js";


/** How an answer is written on one request's connection (a class: no closures made per request). */
class HttpReply implements ReplyWriter<Response> {
  constructor(
    readonly c: Context,
    readonly streams: SseStreams,
    readonly session: Session | undefined,
    readonly sessionId: string | undefined,
    readonly version: string,
  ) {}

  #headers(): Record<string, string> {
    return this.sessionId === undefined ? {} : { [HeaderNames.sessionId]: this.sessionId };
  }

  json(text: string): Response {
    return sendJson(this.c, 200, this.sessionId, text);
  }

  events(outcomes: readonly Outcome[], dropAfter?: number): Response {
    return this.streams.answer(this.c, this.#headers(), this.session, this.version, outcomes, dropAfter);
  }

  status(status: number, body: string | object | undefined, headers?: Readonly<Record<string, string>>): Response {
    return statusResponse(status, body, headers);
  }

  reset(): Response {
    (this.c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.destroy();
    return new Response(null, { status: 500 });
  }

  /** application/json in either response mode: the client sees a body it cannot parse. */
  raw(text: string): Response {
    return new Response(text, { status: 200, headers: { ...this.#headers(), "content-type": "application/json" } });
  }
}

/** The HTTP face of a mock. */
export class HttpTransport {
  readonly app = new Hono();
  readonly #core: MockCore;
  readonly #streams: SseStreams;
  readonly #maxBody: number;
  readonly #stream: boolean;
  #admin: Hono | undefined;
  /** The 2024-11-05 HTTP+SSE endpoints (`GET /sse`, `POST /messages`), unless `legacySse: false`. */
  readonly #legacy: LegacySse | undefined;
  /** The 2026-07-28 requests: no session, the version in each request's envelope. */
  readonly #stateless: StatelessHttp;
  /** Authorization mocking (`auth`): the bearer check in front of the endpoints and the authorization server routes. */
  readonly auth: MockAuth | undefined;

  constructor(core: MockCore) {
    this.#core = core;
    const o = core.options;
    const path = o.path ?? "/mcp";
    this.#maxBody = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#stream = (o.responseMode ?? "json") !== "json";
    this.#streams = new SseStreams(core);
    this.#stateless = new StatelessHttp(core, this.#streams, this.#stream);
    const allowed = core.stateful ? (o.getStream === false ? "POST, DELETE" : "GET, POST, DELETE") : "POST";
    const gate = new Gate(o);
    const always = (): boolean => true;
    this.auth = o.auth ? new MockAuth(o.auth === true ? {} : o.auth, path, o.legacySse === false ? undefined : { sse: LEGACY_SSE_PATH, messages: LEGACY_MESSAGES_PATH }) : undefined;
    const auth = this.auth;
    // With `auth`, tasks and sessions are bound to the client and user of the token that made them.
    if (auth) core.sessions.principalOf = (headers) => auth.principalOf(headers["authorization"]);
    // With `auth`, the bearer check runs after the Host/Origin gate, before the endpoint.
    const protect = (handler: Handler): Handler => (auth ? auth.protect(handler) : handler);
    this.app.post(path, gate.guard(always, protect((c) => this.#post(c))));
    this.app.get(path, gate.guard(always, protect((c) => (c.req.method === "HEAD" ? Rejections.methodNotAllowed(allowed) : this.#get(c)))));
    this.app.delete(path, gate.guard(always, protect((c) => this.#delete(c))));
    if (o.legacySse !== false) {
      this.#legacy = new LegacySse(core, this.#maxBody, o.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS);
      this.#legacy.mount(this.app, (handler) => gate.guard(always, protect(handler)));
    }
    auth?.mount(this.app, (handler) => gate.guard(always, handler));
    // The probe view's direct reports (MCP Apps): from a sandboxed frame, so no Origin check.
    this.app.post(PROBE_EVENTS_PATH, (c) => appEventsRoute(c, core.apps, this.#maxBody));
    // Public metadata for any origin: the Host check only, no auth, the routes' own CORS.
    mountServerCard(this.app, core, path, (handler) => gate.guard(() => false, handler));
    // Everything else: other methods on the endpoint (a CORS preflight too), the admin API, 404.
    this.app.notFound(
      gate.guard(
        (c) => c.req.path === path,
        (c) =>
          c.req.path === path
            ? Rejections.methodNotAllowed(allowed)
            : this.#admin && c.req.path.startsWith("/__admin")
              ? (gate.checkOrigin(header(c, "origin")) ?? this.#admin.fetch(c.req.raw, c.env))
              : Rejections.notFound(c.req.path, path),
      ),
    );
    this.app.onError((error) => (core.closing.signal.aborted ? Rejections.shuttingDown() : Rejections.internal(String(error))));
  }

  /** Serves the admin API beside the MCP endpoint. */
  mountAdmin(admin: Hono): void {
    this.#admin = admin;
  }

  /** The legacy transport's SSE URL beside `mcpUrl`; throws when `legacySse: false` turned it off. */
  sseUrl(mcpUrl: string): string {
    if (!this.#legacy) throw new McpMockError("sseUrl: the legacy HTTP+SSE transport is off (legacySse: false). Start the mock without that option to serve GET /sse.");
    return new URL(LEGACY_SSE_PATH, mcpUrl).href;
  }

  /** Ends every open stream now. */
  closeStreams(): void {
    this.#streams.closeAll();
    this.#legacy?.closeAll();
  }

  /** Where a POST (not initialize), GET or DELETE belongs, as the era decides, or the SDK's rejection. */
  #place(c: Context, sessionOptional: boolean): Placement | Response {
    const placed = this.#core.era.place({ sessionId: header(c, HeaderNames.sessionId), protocolVersion: header(c, HeaderNames.protocolVersion), sessionOptional });
    if (!isRefusal(placed)) {
      // Another token's session is not found: a session is bound to who opened it.
      if (this.auth && placed.session && placed.session.principal !== requestPrincipal(c)) return Rejections.sessionNotFound();
      return placed;
    }
    switch (placed.refused) {
      case "session-required":
        return Rejections.sessionRequired();
      case "session-not-found":
        return Rejections.sessionNotFound();
      case "unsupported-version":
        return Rejections.unsupportedVersion(placed.version, placed.supported);
      case "sessions-full":
        return Rejections.sessionsFull(placed.maxSessions);
      case "session-era-off":
        return Rejections.sessionEraOff(placed.requested, placed.supported);
    }
  }

  /** The body as classified messages, or the rejection that says what is wrong with it. */
  async #read(c: Context): Promise<ReadMessages | Response> {
    const accept = header(c, "accept") ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return Rejections.notAcceptablePost();
    return readMessages(c, this.#maxBody);
  }

  async #post(c: Context): Promise<Response> {
    const read = await this.#read(c);
    if (isResponse(read)) return read;
    const { body, messages, isBatch } = read;
    const headers = allHeaders(c);
    const first = messages[0] as Classified;
    const params = first.kind === "request" || first.kind === "notification" ? first.params : undefined;
    if (isStatelessRequest(headers[HeaderNames.sessionId], headers[HeaderNames.protocolVersion], params)) return this.#stateless.post(c, read, headers);
    let init: Classified | undefined;
    let preSession = true;
    for (const m of messages) {
      if (m.kind === "request" && OPENING_METHODS.has(m.method)) init ??= m;
      if (m.kind !== "request" || !BEFORE_SESSION_METHODS.has(m.method)) preSession = false;
    }
    if (init) return this.#initialize(c, messages, init, headers, body);

    const placed = this.#place(c, preSession);
    if (isResponse(placed)) return placed;
    const version = placed.protocolVersion;
    if (isBatch && !supportedRevision(version).batching) return Rejections.batchNotAllowed(version);
    const ctx: RequestContext = { session: placed.session, sessionId: placed.sessionId, headers, protocolVersion: version, body, transport: "http", clientGone: () => c.req.raw.signal, ...(isBatch ? { batch: new Set(), bytes: Math.ceil(body.length / messages.length) } : {}) };

    const single = messages[0] as Classified;
    if (!isBatch && single.kind === "request") {
      // The usual case, without a hop when the answer is ready at once.
      const outcome = this.#core.handleRequest(single.id, single.method, single.params, ctx);
      return this.#reply(c, [outcome instanceof Promise ? await outcome : outcome], false, placed);
    }
    const pending: (Outcome | Promise<Outcome>)[] = [];
    let raw: Outcome | undefined;
    for (const m of messages) {
      const outcome = receive(this.#core, m, ctx);
      if (m.kind === "request") pending.push(outcome as Outcome | Promise<Outcome>);
      else raw ??= outcome as Outcome | undefined;
    }
    if (pending.length === 0) return raw?.kind === "status" ? statusResponse(raw.status, raw.body, raw.headers) : new Response(null, { status: 202 });
    return this.#reply(c, await Promise.all(pending), isBatch, placed);
  }

  async #initialize(c: Context, messages: Classified[], init: Classified, headers: Record<string, string>, body: string): Promise<Response> {
    if (messages.length > 1) return Rejections.initializeInBatch();
    if (init.kind !== "request") return Rejections.invalidMessage("initialize must be a request");
    const existing = header(c, HeaderNames.sessionId);
    if (this.#core.stateful && existing !== undefined && this.#core.sessions.get(existing)) return Rejections.alreadyInitialized();
    const era = this.#core.era;
    const full = era.admit(init.params?.["protocolVersion"]);
    if (full?.refused === "sessions-full") return Rejections.sessionsFull(full.maxSessions);
    if (full?.refused === "session-era-off") return Rejections.sessionEraOff(full.requested, full.supported);
    const version = era.negotiate(init.params?.["protocolVersion"]);
    const ctx: RequestContext = { session: undefined, sessionId: undefined, headers, protocolVersion: version, body, transport: "http" };
    const outcome = await this.#core.handleRequest(init.id, init.method, init.params, ctx);
    // The answer is written in the version the request was answered in, whatever the session took.
    const opened = outcome.kind === "message" && outcome.initialize ? era.open(outcome.initialize) : undefined;
    if (opened?.session && this.auth) opened.session.principal = requestPrincipal(c);
    return this.#reply(c, [outcome], false, { session: opened?.session, sessionId: opened?.sessionId, protocolVersion: version });
  }

  /** Writes the outcomes of one POST back. */
  #reply(c: Context, outcomes: Outcome[], batch: boolean, { session, sessionId, protocolVersion }: Placement): Response {
    return renderReply(outcomes, { batch, stream: this.#stream }, new HttpReply(c, this.#streams, session, sessionId, protocolVersion));
  }

  /** A GET or DELETE of the 2026-07-28 revision (no session, its version in the header): there are none. */
  #statelessHttpMethod(c: Context): boolean {
    return isStatelessRequest(header(c, HeaderNames.sessionId), header(c, HeaderNames.protocolVersion), undefined);
  }

  #get(c: Context): Response {
    if (this.#statelessHttpMethod(c)) return Rejections.methodNotAllowed("POST");
    if (!(header(c, "accept") ?? "").includes("text/event-stream")) return Rejections.notAcceptableGet();
    if (!this.#core.stateful || this.#core.options.getStream === false) {
      return Rejections.methodNotAllowed(this.#core.stateful ? "POST, DELETE" : "POST");
    }
    const placed = this.#place(c, false);
    if (isResponse(placed)) return placed;
    return this.#streams.open(c, placed.session as Session, placed.protocolVersion);
  }

  #delete(c: Context): Response {
    if (!this.#core.stateful || this.#statelessHttpMethod(c)) return Rejections.methodNotAllowed("POST");
    const placed = this.#place(c, false);
    if (isResponse(placed)) return placed;
    const ctx: RequestContext = { session: placed.session, sessionId: placed.sessionId, headers: allHeaders(c), protocolVersion: placed.protocolVersion, body: "", transport: "http" };
    // A deleteSession() stub's raw status if one matches (the session ends only on a 2xx), otherwise 204.
    const taken = this.#core.takeEventStub(HTTP_DELETE, ctx);
    const { status, body, headers } = taken?.plan.kind === "status" ? taken.plan : { status: 204, body: undefined, headers: undefined };
    if (status >= 200 && status < 300 && ctx.sessionId !== undefined) this.#core.sessions.end(ctx.sessionId);
    this.#core.journalEvent(HTTP_DELETE, ctx, taken?.stubId, { status });
    return statusResponse(status, body, headers);
  }
}
