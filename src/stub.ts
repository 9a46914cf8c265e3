/**
 * A stub is plain data: what to match and what to answer. Builders assemble it, the
 * registry orders it, the dispatcher plays it.
 * @module
 */
import type { McpCall } from "./call.js";
import type { Matcher } from "./matchers.js";

/** A value, or a function of the call that returns one (possibly asynchronously). */
export type Answer<T, C = McpCall> = T | ((call: C) => T | Promise<T>);

/** What to answer with. */
export type ResponsePlan =
  /** A JSON-RPC result, sent as is (for `initialize`, missing fields come from the default). */
  | { readonly kind: "result"; readonly result: Answer<unknown>; readonly sessionId?: string; readonly label?: string }
  /** A tool payload, wrapped into a `CallToolResult` the way a server would. */
  | { readonly kind: "tool-result"; readonly payload: Answer<unknown>; readonly isError: boolean }
  /** A JSON-RPC error. */
  | { readonly kind: "error"; readonly code: number; readonly message: string; readonly data?: unknown }
  /** A raw HTTP answer, for negative tests (over stdio: an internal error naming the status). */
  | { readonly kind: "status"; readonly status: number; readonly body?: string | object };

/** Where a stub came from, for messages that say where to fix it. */
export type StubSource = "dsl" | "default" | { readonly file: string; readonly path: string };

/** Priority of the built-in answers (initialize, ping, tools/list): below every user stub. */
export const FALLBACK_PRIORITY = -1_000_000;

/** Method names for the two HTTP-level stubs that are not JSON-RPC methods. */
export const HTTP_DELETE = "DELETE session";

/** One stub. */
export interface Stub {
  readonly id: string;
  /** The JSON-RPC method, or {@link HTTP_DELETE}. */
  readonly method: string;
  /** Tool or prompt name, or resource URI, when the stub names one. */
  readonly key?: string;
  readonly matchers: readonly Matcher[];
  /** Answers in order; the last one repeats. */
  readonly responses: readonly ResponsePlan[];
  readonly priority: number;
  /** Answer at most this many calls, then fall through. */
  readonly times?: number;
  readonly delayMs?: number;
  readonly source: StubSource;
}

/** Whether a stub pins its arguments (the seed's rule-1 tier). */
export function isSpecific(stub: Stub): boolean {
  return stub.matchers.some((m) => m.specific);
}

/** The exact-arguments key of a stub, if it has one. */
export function argsKeyOf(stub: Stub): string | undefined {
  for (const m of stub.matchers) if (m.argsKey !== undefined) return m.argsKey;
  return undefined;
}
