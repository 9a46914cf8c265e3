/**
 * Faults, once for every transport: what each kind does to an answer, as data. A transport
 * only knows how to do the few things a fault can ask of it (its {@link FaultInjector}:
 * end the connection, write bytes as they are); everything else a fault does is an ordinary
 * answer, altered. `FAULTS` is a mapped type over {@link FaultKind}, so a new kind that is not
 * in the table does not compile, and neither does an effect a renderer forgets.
 * @module
 */
import type { RequestId } from "../protocol/jsonrpc.js";
import type { JsonRpcResponse } from "../protocol/jsonrpc.js";
import type { FaultKind } from "../stubs/stub.js";

/** The answer a fault breaks: every message of the reply, and the one the faulted stub gave. */
export interface FaultedReply {
  readonly messages: readonly JsonRpcResponse[];
  readonly faulted: JsonRpcResponse;
  /** The reply answers a batch (one JSON array). */
  readonly batch: boolean;
}

/** What a fault makes of a reply. */
export type FaultEffect =
  /** No answer at all: the connection ends (a TCP reset, or a stdio server that dies). */
  | { readonly kind: "reset" }
  /** These bytes where the answer belongs (empty, or JSON cut off). */
  | { readonly kind: "raw"; readonly text: string }
  /** Ordinary messages, altered; `stream`: sent as a stream of events even when one would be a plain answer. */
  | { readonly kind: "messages"; readonly messages: readonly JsonRpcResponse[]; readonly stream: boolean }
  /** The reply as a stream whose connection drops before its first event. */
  | { readonly kind: "dropped" };

/** What a transport does for the two effects that are not an answer. */
export interface FaultInjector<R> {
  /** Ends the connection without an answer. */
  reset(): R;
  /** Writes `text` as the answer's body, byte for byte. */
  raw(text: string): R;
}

/** An id no request carries: for the `wrong-id` fault. */
export function wrongId(id: RequestId | null | undefined): RequestId {
  return typeof id === "number" ? id + 1_000_000 : `${String(id)}-wrong`;
}

/** Every fault and what it does. */
export const FAULTS: { readonly [K in FaultKind]: (reply: FaultedReply) => FaultEffect } = {
  "connection-reset": () => ({ kind: "reset" }),
  "empty-response": () => ({ kind: "raw", text: "" }),
  "malformed-json": ({ messages, batch }) => {
    const text = JSON.stringify(batch ? messages : messages[0]);
    return { kind: "raw", text: text.slice(0, Math.ceil(text.length / 2)) };
  },
  "wrong-id": ({ messages, faulted }) => ({
    kind: "messages",
    messages: messages.map((m) => (m === faulted ? ({ ...m, id: wrongId(m.id) } as JsonRpcResponse) : m)),
    stream: false,
  }),
  // Twice in one answer: a single answer becomes a stream of two events, a batch holds it twice.
  "duplicate-response": ({ messages, faulted, batch }) => ({
    kind: "messages",
    messages: messages.flatMap((m) => (m === faulted ? [m, m] : [m])),
    stream: !batch,
  }),
  // A plain answer has no events before its result: the connection drops before it. The result
  // stays in the stream for a client that resumes with Last-Event-ID.
  "drop-stream-after": () => ({ kind: "dropped" }),
};
