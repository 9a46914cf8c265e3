/**
 * The Streamable HTTP transport on Hono: one endpoint, POST / GET / DELETE, with the
 * spec's header, session and version checks as straight-line early returns. It decides
 * nothing about answers: every message goes to the engine ({@link receive}), and every
 * answer is written by the one renderer ({@link renderReply}) through this transport's
 * {@link ReplyWriter}.
 * @module
 */
import { Hono, type Context } from "hono";
import type { IncomingMessage } from "node:http";
import type { MockCore, Outcome, RequestContext } from "../../engine/core.js";
import type { Session } from "../../engine/sessions.js";
import { classifyMessage } from "../../protocol/jsonrpc.js";
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, HeaderNames, negotiateVersion, revisionOf, supportedRevision } from "../../protocol/revisions.js";
import { receive, renderReply, type Classified, type ReplyWriter } from "../transport.js";
import { Gate } from "./gate.js";
import { allHeaders, header, readBody, sendJson } from "./node-io.js";
import { Rejections } from "./rejections.js";
import { SseStreams } from "./sse-streams.js";

/** Default largest POST body (the SDK's default too). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The SDK's batch limit. */
export const MAX_BATCH = 100;
/** Methods a client may send before it has a session (probes for newer revisions). */
const PRE_SESSION_METHODS = new Set(["server/discover"]);

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A rejection rather than a result (cheaper than `instanceof Response` on the hot path). */
function isResponse(value: object): value is Response {
  return "status" in value && "headers" in value;
}

/** The session a request belongs to (stateless: none, and the id it carried, if any). */
interface SessionOf {
  readonly session: Session | undefined;
  readonly sessionId: string | undefined;
}

/** A raw HTTP answer (`respondsWithStatus`). */
function statusResponse(status: number, body: string | object | undefined): Response {
  if (body === undefined) return new Response(null, { status });
  if (typeof body === "string") return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** The HTTP face of a mock. */
export class HttpTransport {
  readonly app = new Hono();
  readonly #core: MockCore;
  readonly #streams: SseStreams;
  readonly #maxBody: number;
  readonly #stream: boolean;
  #admin: Hono | undefined;

  constructor(core: MockCore) {
    this.#core = core;
    const o = core.options;
    const path = o.path ?? "/mcp";
    this.#maxBody = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#stream = (o.responseMode ?? "json") !== "json";
    this.#streams = new SseStreams(core);
    const allowed = core.stateful ? (o.getStream === false ? "POST, DELETE" : "GET, POST, DELETE") : "POST";
    const gate = new Gate(o);
    const always = (): boolean => true;
    this.app.post(path, gate.guard(always, (c) => this.#post(c)));
    this.app.get(path, gate.guard(always, (c) => (c.req.method === "HEAD" ? Rejections.methodNotAllowed(allowed) : this.#get(c))));
    this.app.delete(path, gate.guard(always, (c) => this.#delete(c)));
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

  /** Ends every open stream now. */
  closeStreams(): void {
    this.#streams.closeAll();
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

  /** The body as classified messages, or the rejection that says what is wrong with it. */
  async #read(c: Context): Promise<{ body: string; messages: Classified[]; isBatch: boolean } | Response> {
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
    return { body, messages, isBatch };
  }

  async #post(c: Context): Promise<Response> {
    const read = await this.#read(c);
    if (isResponse(read)) return read;
    const { body, messages, isBatch } = read;
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
      return this.#reply(c, [outcome instanceof Promise ? await outcome : outcome], false, resolved, version);
    }
    const pending: (Outcome | Promise<Outcome>)[] = [];
    let raw: Outcome | undefined;
    for (const m of messages) {
      const outcome = receive(this.#core, m, ctx);
      if (m.kind === "request") pending.push(outcome as Outcome | Promise<Outcome>);
      else raw ??= outcome as Outcome | undefined;
    }
    if (pending.length === 0) return raw?.kind === "status" ? statusResponse(raw.status, raw.body) : new Response(null, { status: 202 });
    return this.#reply(c, await Promise.all(pending), isBatch, resolved, version);
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
    return this.#reply(c, [outcome], false, to, version);
  }

  /** Writes the outcomes of one POST back. */
  #reply(c: Context, outcomes: Outcome[], batch: boolean, { session, sessionId }: SessionOf, version: string): Response {
    return renderReply(outcomes, { batch, stream: this.#stream }, this.#writer(c, session, sessionId, version));
  }

  /** How an answer is written on this request's connection. */
  #writer(c: Context, session: Session | undefined, sessionId: string | undefined, version: string): ReplyWriter<Response> {
    const headers = (): Record<string, string> => (sessionId === undefined ? {} : { [HeaderNames.sessionId]: sessionId });
    return {
      json: (text) => sendJson(c, 200, sessionId, text),
      events: (outcomes, dropAfter) => this.#streams.answer(c, headers(), session, version, outcomes, dropAfter),
      status: statusResponse,
      reset: () => {
        (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.destroy();
        return new Response(null, { status: 500 });
      },
      // application/json in either response mode: the client sees a body it cannot parse.
      raw: (text) => new Response(text, { status: 200, headers: { ...headers(), "content-type": "application/json" } }),
    };
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
    return this.#streams.open(c, resolved.session as Session, version);
  }

  #delete(c: Context): Response {
    if (!this.#core.stateful) return Rejections.methodNotAllowed("POST");
    const resolved = this.#resolveSession(c, false);
    if (isResponse(resolved)) return resolved;
    const version = this.#versionFor(c, resolved.session);
    if (typeof version !== "string") return version;
    const ctx: RequestContext = { session: resolved.session, sessionId: resolved.sessionId, headers: allHeaders(c), protocolVersion: version, body: "", transport: "http" };
    const { status, body } = this.#core.handleDelete(ctx);
    return statusResponse(status, body);
  }
}
