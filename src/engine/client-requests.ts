/**
 * Server-to-client requests (`sampling/createMessage`, `elicitation/create`, `roots/list`,
 * anything a stream or `mock.request()` sends): ids, timeouts, and the client's answers
 * matched back to them, from the session they went to only.
 * @module
 */
import type { RequestId } from "../protocol/jsonrpc.js";
import { PREFIX } from "../values/errors.js";
import { JsonRpcFailure } from "../protocol/jsonrpc.js";
import { ErrorCodes } from "../protocol/revisions.js";
import type { Session } from "./session-store.js";
import { RELATED_TASK_META_KEY } from "./tasks/wire-2025.js";
import { InFlight } from "../values/in-flight.js";

/** Default time the mock waits for a client's answer to a server-to-client request. */
export const DEFAULT_CLIENT_TIMEOUT_MS = 10_000;

interface PendingRequest {
  readonly method: string;
  /** The task the request belongs to (its related-task `_meta`), if any. */
  readonly taskId: string | undefined;
  readonly sessionId: string | undefined;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/** A client's response, matched (or not) to what the mock asked. */
interface Settled {
  /** The method the response answers, when it answers a request the mock sent to that session. */
  readonly method: string | undefined;
  /** Why the response counts for nothing, when it does not. */
  readonly unexpected: string | undefined;
  /** The task the answered request belongs to, if any. */
  readonly taskId?: string;
}

/** The requests the mock sent to clients and is waiting on. */
/** URL elicitation ids remembered at most (memory stays bounded on a long run). */
const MAX_ELICITATIONS = 1000;

export class ClientRequests {
  #lastId = 0;
  readonly #pending = new InFlight<PendingRequest>();
  readonly #timeoutMs: number;

  constructor(timeoutMs = DEFAULT_CLIENT_TIMEOUT_MS) {
    this.#timeoutMs = timeoutMs;
  }

  /** The ids of the URL elicitations sent, the newest kept (for `completeElicitation`). */
  readonly #elicitations = new Set<string>();

  /** Whether a URL elicitation with this id was sent (among the last 1000). */
  sentElicitation(elicitationId: string): boolean {
    return this.#elicitations.has(elicitationId);
  }

  /** The URL elicitation ids sent, oldest first. */
  elicitationIds(): string[] {
    return [...this.#elicitations];
  }

  #remember(elicitationId: string): void {
    this.#elicitations.add(elicitationId);
    if (this.#elicitations.size > MAX_ELICITATIONS) this.#elicitations.delete(this.#elicitations.values().next().value as string);
  }

  /** Sends a request with `deliver` and resolves with the client's result (rejects on its error, a timeout or `signal`). */
  send(method: string, params: unknown, session: Session | undefined, deliver: (message: unknown) => void, timeoutMs: number | undefined, signal: AbortSignal): Promise<unknown> {
    const id = ++this.#lastId;
    const elicitationId = method === "elicitation/create" ? (params as { elicitationId?: unknown } | undefined)?.elicitationId : undefined;
    if (typeof elicitationId === "string") this.#remember(elicitationId);
    const timeout = timeoutMs ?? this.#timeoutMs;
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.#pending.delete(id);
      };
      const onAbort = (): void => {
        done();
        reject(new JsonRpcFailure(ErrorCodes.InternalError, `${PREFIX} ${method} (id ${id}) was abandoned: the stream ended first.`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new JsonRpcFailure(ErrorCodes.InternalError, `${PREFIX} the client did not answer ${method} (id ${id}) within ${timeout} ms.`));
      }, timeout);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(id, {
        method,
        taskId: relatedTaskOf(params),
        sessionId: session?.id,
        resolve: (r) => (done(), resolve(r)),
        reject: (e) => (done(), reject(e)),
      });
      deliver(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    });
  }

  /** Which request a response answers (a response only counts from the session the request went to). */
  match(id: RequestId | undefined, sessionId: string | undefined): Settled {
    const found = id === undefined ? undefined : this.#pending.get(id);
    if (found && (found.sessionId === undefined || found.sessionId === sessionId)) return found.taskId === undefined ? { method: found.method, unexpected: undefined } : { method: found.method, unexpected: undefined, taskId: found.taskId };
    return {
      method: undefined,
      unexpected:
        found !== undefined
          ? `${PREFIX} a response to id ${JSON.stringify(id)} from ${sessionId ?? "no session"}, but that request went to ${found.sessionId}; it does not count.`
          : `${PREFIX} a response to id ${JSON.stringify(id)}, which the mock never sent (or already had answered).`,
    };
  }

  /** Settles the request a matched response answers, with its result or its error. */
  settle(id: RequestId, body: Record<string, unknown>): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    const error = body["error"] as { code?: number; message?: string; data?: unknown } | undefined;
    if (error) pending.reject(new JsonRpcFailure(error.code ?? ErrorCodes.InternalError, error.message ?? "error", error.data));
    else pending.resolve(body);
  }
}

/** The task id in a request's related-task `_meta`, if it has one. */
function relatedTaskOf(params: unknown): string | undefined {
  const meta = (params as { _meta?: Record<string, { taskId?: unknown } | undefined> } | null | undefined)?._meta;
  const taskId = meta?.[RELATED_TASK_META_KEY]?.taskId;
  return typeof taskId === "string" ? taskId : undefined;
}
