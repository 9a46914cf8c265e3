/**
 * The 2026-07-28 face of the HTTP endpoint: a POST without a session whose header or envelope
 * names the stateless revision (`isStatelessRequest`). Straight-line checks in the order the
 * reference server makes them (batch, envelope, headers), each refusal a 400 that echoes the
 * request id; then the engine answers, as it answers a session's request, and the reply is
 * written with the revision's statuses (-32601 travels with 404, -32021 with 400). A
 * `subscriptions/listen` request holds its response open as the stream of its subscription.
 * @module
 */
import { requestPrincipal } from "../../auth/principal.js";
import type { Context } from "hono";
import type { MockCore, RequestContext } from "../../engine/core.js";
import { isEnvelopeRefusal } from "../../engine/eras/stateless.js";
import { openSubscription, withSubscriptionId } from "../../engine/subscriptions.js";
import type { JsonRpcResponse } from "../../protocol/jsonrpc.js";
import { HTTP_GET_STREAM } from "../../protocol/entry-points.js";
import { METHOD_BY_NAME } from "../../protocol/methods/index.js";
import { ErrorCodes, HeaderNames, STATELESS_PROTOCOL_VERSIONS } from "../../protocol/revisions.js";
import type { RequestId } from "../../protocol/jsonrpc.js";
import { renderReply, type Classified, type ReplyWriter } from "../transport.js";
import { type ReadMessages, statusResponse } from "./body.js";
import { sendJson } from "./node-io.js";
import { headerMismatch } from "./stateless-headers.js";
import type { SseStreams } from "./sse-streams.js";

/** The listen request's method. */
const LISTEN = "subscriptions/listen";

/** The HTTP status a 2026-07-28 error answer travels with (the rest: 200). */
const STATUS_BY_CODE: ReadonlyMap<number, number> = new Map([
  [ErrorCodes.MethodNotFound, 404],
  [ErrorCodes.MissingRequiredClientCapability, 400],
  [ErrorCodes.HeaderMismatch, 400],
  [ErrorCodes.UnsupportedProtocolVersion, 400],
]);

/** A JSON-RPC error body that echoes the request's id, with the revision's status. */
function refusal(status: number, id: RequestId | null, code: number, message: string, data?: unknown): Response {
  const error = data === undefined ? { code, message } : { code, message, data };
  return new Response(JSON.stringify({ jsonrpc: "2.0", id, error }), { status, headers: { "content-type": "application/json" } });
}

/** How the stateless era writes one answer. */
class StatelessReply implements ReplyWriter<Response> {
  constructor(
    readonly c: Context,
    readonly streams: SseStreams,
    readonly version: string,
  ) {}

  json(text: string, message?: JsonRpcResponse): Response {
    const code = message && "error" in message ? message.error.code : undefined;
    const status = (code !== undefined && STATUS_BY_CODE.get(code)) || 200;
    return sendJson(this.c, status, undefined, text);
  }

  events(outcomes: Parameters<SseStreams["answer"]>[4], dropAfter?: number): Response {
    return this.streams.answer(this.c, {}, undefined, this.version, outcomes, dropAfter);
  }

  status(status: number, body: string | object | undefined, headers?: Readonly<Record<string, string>>): Response {
    return statusResponse(status, body, headers);
  }

  reset(): Response {
    (this.c.env as { incoming?: { socket: { destroy(): void } } } | undefined)?.incoming?.socket.destroy();
    return new Response(null, { status: 500 });
  }

  raw(text: string): Response {
    return new Response(text, { status: 200, headers: { "content-type": "application/json" } });
  }
}

/** The stateless POSTs of one HTTP transport. */
export class StatelessHttp {
  readonly #core: MockCore;
  readonly #streams: SseStreams;
  readonly #stream: boolean;

  constructor(core: MockCore, streams: SseStreams, stream: boolean) {
    this.#core = core;
    this.#streams = streams;
    this.#stream = stream;
  }

  /** Answers one stateless POST. */
  async post(c: Context, { body, messages, isBatch }: ReadMessages, headers: Record<string, string>): Promise<Response> {
    const m = messages[0] as Classified;
    const id = m.kind === "request" ? m.id : null;
    if (isBatch) return refusal(400, null, ErrorCodes.InvalidRequest, "Bad Request: JSON-RPC batches may not contain requests for protocol revision 2026-07-28 or later", "Send one message per POST.");
    if (m.kind !== "request" && m.kind !== "notification") {
      return refusal(400, null, ErrorCodes.InvalidRequest, "Bad Request: 2026-07-28 has no server-to-client requests to answer", "[mcpmock] A response belongs to a session-era request; in 2026-07-28 answers to input requests travel as inputResponses in the retried request.");
    }
    const envelope = this.#core.stateless.read(m.params, headers[HeaderNames.protocolVersion]);
    // The transport's checks come before the method is looked up, as in the reference SDK's
    // server (typescript-sdk packages/server/src/server/handleStatelessHttp.ts: the version and
    // `_meta` checks, then dispatch; shttpHandler.ts handlePost: the protocol version, then
    // validateMcpHeaders, then dispatch): the envelope (400), then the headers against the body
    // (400, -32020), and only then a method the revision removed or never had (404, -32601; a
    // stub of a custom method still answers it).
    if (isEnvelopeRefusal(envelope)) return refusal(400, id, envelope.code, envelope.message, envelope.data);
    const version = envelope.protocolVersion;
    const known = STATELESS_PROTOCOL_VERSIONS.includes(version);
    const exists = m.kind === "notification" || !known || METHOD_BY_NAME.get(m.method)?.revisions.includes(version) === true;
    // A method the revision does not have has no name or argument headers to check: its Mcp-Method only.
    const mismatch = exists ? headerMismatch(m.method, m.params, headers, this.#core.tools) : headerMismatch(m.method, undefined, headers, this.#core.tools);
    if (mismatch) {
      return refusal(400, id, ErrorCodes.HeaderMismatch, `Bad Request: the request headers and body disagree: ${mismatch.body}`, { mismatch });
    }
    const ctx: RequestContext = { session: undefined, sessionId: undefined, headers, protocolVersion: envelope.protocolVersion, body, transport: "http" };
    if (m.kind === "notification") {
      const raw = this.#core.handleNotification(m.method, m.params, ctx);
      return raw?.kind === "status" ? statusResponse(raw.status, raw.body, raw.headers) : new Response(null, { status: 202 });
    }
    if (m.method === LISTEN) return this.#listen(c, m.id, m.params, ctx);
    const pending = this.#core.handleRequest(m.id, m.method, m.params, ctx);
    const outcome = pending instanceof Promise ? await pending : pending;
    return renderReply([outcome], { batch: false, stream: this.#stream }, new StatelessReply(c, this.#streams, envelope.protocolVersion));
  }

  /**
   * `subscriptions/listen`: a stub's refusal (an error or a raw status) if one answers; else the
   * stream opens with the acknowledgement of what the mock honours, then carries the
   * notifications the filter lets through, an `openStream()` script and a `streams()` answer
   * of the listen stub, each frame with the subscription id, until the client goes.
   */
  #listen(c: Context, id: RequestId, params: Record<string, unknown> | undefined, ctx: RequestContext): Response {
    const core = this.#core;
    const taken = core.takeEventStub(LISTEN, ctx, params, id);
    if (taken && taken.plan.kind !== "stream") {
      const journaled = taken.plan.kind === "status" ? { status: taken.plan.status } : taken.plan.kind === "error" ? { error: { code: taken.plan.code, message: taken.plan.message } } : { answered: taken.plan.kind };
      core.journalEvent(LISTEN, ctx, taken.stubId, journaled, params, id);
      if (taken.plan.kind === "status") return statusResponse(taken.plan.status, taken.plan.body, taken.plan.headers);
      if (taken.plan.kind === "error") {
        const data = taken.plan.data;
        return new StatelessReply(c, this.#streams, ctx.protocolVersion).json(JSON.stringify({ jsonrpc: "2.0", id, error: data === undefined ? { code: taken.plan.code, message: taken.plan.message } : { code: taken.plan.code, message: taken.plan.message, data } }));
      }
    }
    const held = this.#streams.hold(c);
    const { filter, close } = openSubscription(core.push.subscriptions, id, params?.["notifications"], core.capabilities(), (json) => void held.stream.emit(json), requestPrincipal(c));
    core.journalEvent(LISTEN, ctx, taken?.stubId, { subscribed: filter }, params, id);
    void held.ended.then(close);
    const emit = (message: Record<string, unknown>): void => void held.stream.emit(JSON.stringify(withSubscriptionId(message, id)));
    const signal = AbortSignal.any([held.signal, core.closing.signal]);
    const sink = { signal, send: (m: unknown) => emit(m as Record<string, unknown>), ready: () => held.stream.ready() };
    const script = core.takeEventStub(HTTP_GET_STREAM, ctx);
    if (script?.plan.kind === "stream") void core.playOnStream({ ...script, plan: script.plan }, undefined, sink);
    if (taken?.plan.kind === "stream") void core.playOnStream({ ...taken, plan: taken.plan }, undefined, sink);
    return held.response;
  }
}
