/**
 * The transport contract. A transport turns bytes into classified messages and their
 * context, hands each to the engine with {@link receive}, and writes the outcomes back with
 * {@link renderReply} through a {@link ReplyWriter}: the few things only it knows how to do
 * (a JSON body or a line, a stream of events, a raw status, a reset). What to answer, and what
 * every fault does to an answer, is decided here once for every transport.
 * @module
 */
import type { MockCore, Outcome, RequestContext } from "../engine/core.js";
import { encodeResult, type ClassifiedMessage, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import type { RequestId } from "../protocol/jsonrpc.js";
import type { StreamSink } from "../engine/stream-player.js";
import { FAULTS, type FaultInjector } from "./faults.js";

/** A message a transport could read: a request, a notification, or a response of the client. */
export type Classified = Exclude<ClassifiedMessage, { kind: "invalid" }>;

/**
 * Hands one message to the engine. A request gets its outcome (synchronous when it is ready at
 * once); a notification gets a raw status only when a stub asks for one; a response nothing.
 */
export function receive(core: MockCore, message: Classified, ctx: RequestContext): Outcome | Promise<Outcome> | undefined {
  switch (message.kind) {
    case "request":
      return core.handleRequest(message.id, message.method, message.params, ctx);
    case "notification":
      return core.handleNotification(message.method, message.params, ctx);
    case "response":
      core.handleResponse(message.id, message.result, ctx);
      return undefined;
    case "error-response":
      core.handleResponse(message.id, { error: message.error }, ctx);
      return undefined;
  }
}

/** How a transport writes one reply. */
export interface ReplyWriter<R> extends FaultInjector<R> {
  /** One JSON text: an answer's body, or a line; `message` is the answer it is, when it is one. */
  json(text: string, message?: JsonRpcResponse): R;
  /** The outcomes as a stream of messages (SSE events, or lines), in order, cut after `dropAfter` events. */
  events(outcomes: readonly Outcome[], dropAfter?: number): R;
  /** A raw HTTP status (`respondsWithStatus`), with the stub's headers. */
  status(status: number, body: string | object | undefined, headers?: Readonly<Record<string, string>>): R;
}

/** The form a reply takes. */
export interface ReplyShape {
  /** It answers a batch: one JSON array. */
  readonly batch: boolean;
  /** Answers go out as a stream of events even when one would be a plain answer (`responseMode: "sse"`). */
  readonly stream: boolean;
}

/** The outcomes of one request (or of a batch's requests) written back: the one renderer. */
export function renderReply<R>(outcomes: readonly Outcome[], shape: ReplyShape, out: ReplyWriter<R>): R {
  const first = outcomes[0] as Outcome;
  if (!shape.batch && !shape.stream && first.kind === "message") {
    // The usual case: the result's JSON was made once, the answer is assembled around the id.
    return out.json(messageText(first), first.message);
  }
  let stream = shape.stream;
  // A raw status wins over everything else in a batch, then a stream carries all of it.
  const status = outcomes.find((o) => o.kind === "status");
  if (status) return out.status(status.status, status.body, status.headers);
  const streamed = outcomes.find((o) => o.kind === "stream");
  if (streamed) return out.events(outcomes, streamed.dropAfter);
  const faulted = outcomes.find((o) => o.kind === "fault");
  let messages = outcomes.map((o) => (o as { message: JsonRpcResponse }).message);
  if (faulted) {
    const effect = FAULTS[faulted.fault]({ messages, faulted: faulted.message, batch: shape.batch });
    switch (effect.kind) {
      case "reset":
        return out.reset();
      case "raw":
        return out.raw(effect.text);
      case "dropped":
        return out.events(outcomes, 0);
      case "messages":
        messages = [...effect.messages];
        stream ||= effect.stream;
        break;
      default:
        return effect satisfies never;
    }
  }
  if (!stream) return out.json(JSON.stringify(shape.batch ? messages : messages[0]), shape.batch ? undefined : messages[0]);
  return out.events(messages.map((message) => ({ kind: "message", message })));
}

/** An answer's JSON text: assembled around the result's JSON when the engine made it (a constant's at stub time, a computed one's when made). */
export function messageText(outcome: Extract<Outcome, { kind: "message" }>): string {
  return outcome.resultJson === undefined ? JSON.stringify(outcome.message) : encodeResult(outcome.message.id as RequestId, outcome.resultJson);
}

/** Plays outcomes onto a sink in order: a stream's steps as they come, any other answer as one message. */
export async function playOutcomes(outcomes: readonly Outcome[], sink: StreamSink): Promise<void> {
  for (const outcome of outcomes) {
    if (sink.signal.aborted) return;
    if (outcome.kind === "stream") await outcome.run(sink);
    else if (outcome.kind === "message" || outcome.kind === "fault") sink.send(outcome.message);
  }
}
