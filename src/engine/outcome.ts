/**
 * The engine's side of the transport contract: what a message arrives with (its context) and
 * what comes back for it (an outcome the transport renders).
 * @module
 */
import { McpCall, type TransportKind } from "../stubs/call.js";
import type { ResponsePlan } from "../stubs/stub.js";
import type { RequestId } from "../protocol/jsonrpc.js";
import type { JsonRpcResponse } from "../protocol/jsonrpc.js";
import type { FaultKind } from "../stubs/stub.js";
import type { StreamSink } from "./stream-player.js";
import type { Session } from "./session-store.js";

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
  /** The bytes the message counts for in the journal: a batch message's share of the body (default: the body's length). */
  readonly bytes?: number;
  /**
   * A signal aborted when the client that sent the request is gone before its answer (its HTTP
   * connection closed), for an answer that waits on the client's behalf (`tasks/result`). Made
   * only when asked for: most answers never wait.
   */
  readonly clientGone?: () => AbortSignal;
}

/** What a successful initialize asks the era to open. */
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
      /** The result already in JSON (a constant answer is serialized once, not on every call; a computed one once, when made). */
      readonly resultJson?: string;
      /** The result is a constant answer's, the same for every call (the journal counts it for nothing). */
      readonly shared?: boolean;
    }
  /** A raw status (`respondsWithStatus`): HTTP writes it; stdio names it in an error. */
  | { readonly kind: "status"; readonly status: number; readonly body?: string | object; readonly headers?: Readonly<Record<string, string>> }
  /** Answer wrong on purpose; `message` is what a correct answer would have been. */
  | { readonly kind: "fault"; readonly fault: FaultKind; readonly after?: number; readonly message: JsonRpcResponse }
  /** A streamed answer: `run` plays it onto a sink and resolves when it has ended. */
  | { readonly kind: "stream"; run(sink: StreamSink): Promise<void>; readonly dropAfter?: number };

/** What the journal records as the answer. */
export function answerOf(outcome: Outcome): unknown {
  if (outcome.kind === "message") return outcome.message;
  if (outcome.kind === "status") return { status: outcome.status };
  if (outcome.kind === "fault") return { fault: outcome.fault };
  return { stream: true };
}

/** What the JSON-RPC envelope adds to a result's JSON, near enough (`{"jsonrpc":"2.0","id":…,"result":…}`). */
const ENVELOPE_BYTES = 40;

/**
 * The bytes an answer costs the journal when the outcome knows them: none for a constant
 * answer's result (every entry that got it shares it), its JSON's length for a result computed
 * for this call; `undefined` (the journal estimates) otherwise.
 */
export function answerBytes(outcome: Outcome): number | undefined {
  if (outcome.kind !== "message" || outcome.resultJson === undefined) return undefined;
  return outcome.shared === true ? 0 : outcome.resultJson.length + ENVELOPE_BYTES;
}

/** A stub taken for a transport event that is not a JSON-RPC message (ending a session, opening the GET stream). */
export interface TakenStub {
  readonly plan: ResponsePlan;
  readonly call: McpCall;
  readonly stubId: string;
}

/** The call a stub sees, built field by field (this runs for every message). */
export function callOf(method: string, params: Record<string, unknown> | undefined, id: RequestId | undefined, ctx: RequestContext): McpCall {
  const call = new McpCall({ method, params, id, sessionId: ctx.sessionId, headers: ctx.headers, protocolVersion: ctx.protocolVersion, body: ctx.body, transport: ctx.transport });
  // A session's requests declare nothing themselves: the client declared its extensions at initialize.
  if (ctx.session !== undefined) call.declaredExtensions(ctx.session.clientCapabilities);
  // Only the answer that waits on a client's behalf asks: an entry per call would be per-call
  // state on a long-lived table (a WeakMap's entries go only at a full GC).
  if (ctx.clientGone !== undefined && method === WAITS_FOR_CLIENT) GONE.set(call, ctx.clientGone);
  return call;
}

/** The error message of a request whose id is already in flight (JSON-RPC ids are unique among pending requests). */
export const DUPLICATE_ID_MESSAGE = "Invalid Request: duplicate request id in flight";

/** The key of a client's request among those in flight (its session, if any, and its id): what `notifications/cancelled` names. */
export function requestKey(sessionId: string | undefined, id: unknown): string {
  return `${sessionId ?? ""}\u0000${String(id)}`;
}

/** The method whose answer waits on the client's behalf, so needs to hear it went away. */
const WAITS_FOR_CLIENT = "tasks/result";

/** The `clientGone` of each `tasks/result` call whose transport can tell (kept off the public `McpCall`). */
const GONE = new WeakMap<McpCall, () => AbortSignal>();

/** The signal aborted when the client of `call` is gone before its answer; `undefined` when its transport cannot tell. */
export function clientGone(call: McpCall): AbortSignal | undefined {
  return GONE.get(call)?.();
}
