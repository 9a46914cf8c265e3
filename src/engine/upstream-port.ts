/**
 * What the engine asks of an upstream in proxy mode. The composition root hands one in (built
 * on the SDK client, `upstream/`), so the engine never imports a client: to the engine a
 * proxied answer is one more plan, "ask the upstream".
 * @module
 */

/** The upstream's answer to one request: its result or its error (trouble reaching it is an error naming it). */
export type UpstreamAnswer =
  | { readonly result: Record<string, unknown> }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };

/** What the upstream said it is when a session opened. */
export interface UpstreamInfo {
  readonly capabilities: Record<string, unknown>;
  readonly serverInfo: Record<string, unknown> | undefined;
  readonly instructions: string | undefined;
}

/** Where an upstream session's own traffic goes: its client's session. */
export interface SessionRelay {
  /** The client's capabilities, declared to the upstream when its session opens. */
  readonly clientCapabilities: Record<string, unknown>;
  /** An upstream notification (a list changed, a log message) to the client. */
  notify(method: string, params: Record<string, unknown> | undefined): void;
  /** An upstream request (elicitation, sampling, roots) to the client; resolves with its result. */
  request(method: string, params: Record<string, unknown> | undefined): Promise<unknown>;
}

/** One request sent upstream. */
export interface UpstreamCall {
  /** The client session it belongs to (`""`: the mock's shared upstream session, for calls without one). */
  readonly sessionKey: string;
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  /** Where the session's traffic goes, if this call opens it. */
  readonly relay: SessionRelay;
  /** Ends the request when it aborts (a streamed call's client gone, a check's whole-call bound). */
  readonly signal?: AbortSignal;
  /**
   * Given the function that ends the request (a no-op once it is answered), when it is sent:
   * the caller keeps it while the request is in flight, for a client's `notifications/cancelled`
   * or the mock closing, so nothing listens per call on a long-lived signal.
   */
  readonly cancelWith?: (cancel: (why: string) => void) => void;
  /** The upstream's progress for this request, without its token (the client's is put back). */
  readonly onProgress?: (progress: Record<string, unknown>) => void;
}

/** An upstream, as the engine sees it. */
export interface UpstreamPort {
  /** The upstream as messages name it (no credentials). */
  readonly name: string;
  /** What it said it is, once a session with it opened (`undefined` until then). */
  readonly info: UpstreamInfo | undefined;
  /** Sends a request on its session; never rejects. */
  request(call: UpstreamCall): Promise<UpstreamAnswer>;
  /** Opens the upstream session of a client session now (when its client says it is initialized), if it is not open. */
  open(sessionKey: string, relay: SessionRelay): void;
  /** Sends a notification on a session, if that session is open. */
  notify(sessionKey: string, method: string, params: Record<string, unknown> | undefined): void;
  /** Ends the upstream session of a client session that ended. */
  endSession(sessionKey: string): void;
  /** Ends every upstream session (and child process). */
  close(): Promise<void>;
  /** A value as the mock may show or write it (journal, snapshot, log): the upstream's credentials replaced by `[redacted]`. */
  redact?<T>(value: T): T;
}

/** JSON-RPC's internal error: what the mock answers when the upstream cannot. */
const INTERNAL_ERROR = -32603;

/** An answer for a call the upstream could not answer: an internal error naming it in `data.upstream`. */
export function failure(message: string, upstream: string): UpstreamAnswer {
  return { error: { code: INTERNAL_ERROR, message, data: { upstream } } };
}
