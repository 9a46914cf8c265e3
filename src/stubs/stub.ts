/**
 * A stub is plain data: what to match and what to answer. Builders assemble it, the
 * registry orders it, the dispatcher plays it.
 * @module
 */
import type { Matcher } from "./matchers.js";
import type { Answer } from "./answer.js";
import type { McpCall } from "./call.js";
import type { StreamCall, StreamStep } from "./stream-script.js";
import type { ArgsFields } from "./args-fields.js";

/** A stream plan, as stored in a stub. */
export interface StreamPlan {
  readonly kind: "stream";
  readonly steps: readonly StreamStep[];
  /** The answer that ends the stream, played as `respondsWith` would play it. */
  readonly end?: ResponsePlan;
  readonly delayBetween?: number;
  /** Over HTTP: the connection drops after this many events (the stream goes on, to be resumed). */
  readonly dropAfter?: number;
  /** A generator of raw messages, instead of steps (sent as they come). */
  readonly source?: (call: StreamCall) => AsyncIterable<unknown> | Iterable<unknown>;
}

/** What to answer with. */
export type ResponsePlan =
  /** A JSON-RPC result, sent as is (for `initialize`, missing fields come from the default). */
  | { readonly kind: "result"; readonly result: Answer<unknown>; readonly sessionId?: string; readonly label?: string }
  /** A tool payload, wrapped into a `CallToolResult` the way a server would. */
  | { readonly kind: "tool-result"; readonly payload: Answer<unknown>; readonly isError: boolean }
  /** Resource contents, wrapped into a `ReadResourceResult` for the URI read. */
  | { readonly kind: "resource-result"; readonly payload: Answer<unknown>; readonly mimeType?: string }
  /** Prompt messages (a string is one user message), wrapped into a `GetPromptResult`. */
  | { readonly kind: "prompt-result"; readonly payload: Answer<unknown>; readonly description?: string }
  /** A JSON-RPC error. */
  | { readonly kind: "error"; readonly code: number; readonly message: string; readonly data?: unknown }
  /** A raw HTTP answer, for negative tests (over stdio: an internal error naming the status). */
  | { readonly kind: "status"; readonly status: number; readonly body?: string | object; readonly headers?: Readonly<Record<string, string>> }
  /** An SSE answer: steps (progress, logs, notifications, requests...), then the end. */
  | StreamPlan
  /** A broken answer on purpose; with `rate`, only that share of the calls (drawn from the mock's `seed`), the others fall through to the next stub. */
  | { readonly kind: "fault"; readonly fault: FaultKind; readonly after?: number; readonly rate?: number }
  /** Proxy mode: the upstream (the real server) answers; `transform` alters its result, `merge` joins a list with the mock's declared items. */
  | ProxyPlan;

/**
 * Proxy mode's answer: ask the upstream. `.proxies()` makes one; calls no stub answers play one.
 *
 * @example
 * ```ts
 * mock.toolsCall("fetch").proxies((answer) => ({ ...answer, isError: true }));
 * ```
 * @category Stubbing
 */
export interface ProxyPlan {
  /** Always `"proxy"`. */
  readonly kind: "proxy";
  /** Alters the upstream's result before the client gets it (`.proxies((answer, call) => ...)`). */
  readonly transform?: (answer: Record<string, unknown>, call: McpCall) => unknown;
  /** For a list method's built-in answer: the result's list field, merged with the mock's own items (the mock's win on a name). */
  readonly merge?: string;
  /** With `merge`: the mock's own answer, whose items are merged in. */
  readonly own?: ResponsePlan;
}

/**
 * Ways to answer wrong on purpose:
 * - `connection-reset`: the TCP connection is destroyed, no HTTP answer at all;
 * - `empty-response`: 200 with an empty `application/json` body;
 * - `malformed-json`: 200 with a body cut off mid-JSON;
 * - `wrong-id`: a well-formed answer carrying another request's id;
 * - `duplicate-response`: the answer twice;
 * - `drop-stream-after`: an SSE answer whose connection drops before the result, which is
 *   kept for a client that resumes with `Last-Event-ID`.
 *
 * @example
 * ```ts
 * import { McpMock, type FaultKind } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "fetch", inputSchema: { type: "object" } }] });
 * mock.toolsCall("fetch").respondsWith("ok");
 * const faults: FaultKind[] = ["connection-reset", "malformed-json", "wrong-id"];
 * for (const fault of faults) mock.toolsCall("fetch").once().fails(fault); // newest first: wrong-id, malformed-json, connection-reset, then "ok"
 * ```
 * @category Stubbing
 */
export type FaultKind = "connection-reset" | "empty-response" | "malformed-json" | "wrong-id" | "duplicate-response" | "drop-stream-after";

/** Every fault kind, for checks and messages. */
export const FAULT_KINDS: readonly FaultKind[] = [
  "connection-reset",
  "empty-response",
  "malformed-json",
  "wrong-id",
  "duplicate-response",
  "drop-stream-after",
];

/**
 * A random delay, drawn from a seeded generator so runs repeat.
 *
 * @example
 * ```ts
 * import { McpMock, type DelayDistribution } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "fetch", inputSchema: { type: "object" } }], seed: 42 });
 * const jitter: DelayDistribution = { distribution: "lognormal", median: 80, sigma: 0.5 }; // or { distribution: "uniform", min, max }
 * mock.toolsCall("fetch").withDelay(jitter).respondsWith("eventually");
 * ```
 * @category Stubbing
 */
export type DelayDistribution =
  | {
      /** A uniform random delay. */
      readonly distribution: "uniform";
      /** The shortest delay, in milliseconds. */
      readonly min: number;
      /** The longest delay, in milliseconds. */
      readonly max: number;
    }
  | {
      /** A log-normal random delay: mostly near the median, with a long tail. */
      readonly distribution: "lognormal";
      /** The median delay, in milliseconds. */
      readonly median: number;
      /** The spread: the standard deviation of the delay's natural logarithm. */
      readonly sigma: number;
    };

/**
 * A fixed delay in milliseconds, or a distribution.
 *
 * @example
 * ```ts
 * import { McpMock, type Delay } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "fetch", inputSchema: { type: "object" } }] });
 * const slow: Delay = 250; // milliseconds, or a DelayDistribution
 * mock.toolsCall("fetch").withDelay(slow).respondsWith("late");
 * ```
 * @category Stubbing
 */
export type Delay = number | DelayDistribution;

/**
 * A status a poll of a task reports before its result (a string, or a status with its message).
 *
 * @example
 * ```ts
 * import { McpMock, type TaskStep } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "build", execution: { taskSupport: "optional" } }] });
 * const statuses: TaskStep[] = ["working", { status: "input_required", message: "Approve the build?" }, "working"];
 * mock.toolsCall("build").asTask({ statuses }).respondsWith("built");
 * ```
 * @category Stubbing
 */
export type TaskStep =
  | "working"
  | "input_required"
  | {
      /** The status the poll reports. */
      readonly status: "working" | "input_required";
      /** The `statusMessage` it reports with it. */
      readonly message?: string;
    };

/**
 * How a stub answers a call that asks to run as a task (`params.task`): the stub's ordinary
 * answer (its delay, stream script or function) is the task's work and its result.
 *
 * @example
 * ```ts
 * mock.toolsCall("build").asTask({ afterPolls: 2, statuses: ["working", "input_required"], pollInterval: 10 }).respondsWith({ ok: true });
 * ```
 * @category Stubbing
 */
export interface TaskPlan {
  /** The task's ttl in milliseconds (`null`: kept until the mock closes); default: what the client asked, else the mock's `tasks.ttl`. */
  readonly ttl?: number | null;
  /** The `pollInterval` the task suggests, in milliseconds; default: the mock's `tasks.pollInterval`. */
  readonly pollInterval?: number;
  /** The result is held back until the client has polled (`tasks/get`) this many times (default: the length of `statuses`, else 0). */
  readonly afterPolls?: number;
  /** What those polls report, one status each, in order (then the task's real status). */
  readonly statuses?: readonly TaskStep[];
  /** The `statusMessage` of the final status (default: the error message of a failed task). */
  readonly statusMessage?: string;
}

/** Where a stub came from, for messages that say where to fix it. */
export type StubSource = "dsl" | "default" | { readonly file: string; readonly path: string };

/** Priority of the built-in answers (initialize, ping, tools/list): below every user stub. */
export const FALLBACK_PRIORITY = -1_000_000;


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
  readonly delay?: Delay;
  /** Not required by `assertAllStubsUsed()`. */
  readonly optional?: boolean;
  /** After answering, move this scenario to this state (WireMock's state machine). */
  readonly setsState?: { readonly scenario: string; readonly state: string };
  /** How a task-augmented call runs as a task (`asTask(...)`); without it, the mock's defaults. */
  readonly task?: TaskPlan;
  readonly source: StubSource;
}

/** Whether a stub pins its arguments (the seed's rule-1 tier). */
export function isSpecific(stub: Stub): boolean {
  return stub.matchers.some((m) => m.specific);
}

/** The exact parts of a stub's argument pattern, if it has one (and no exact-arguments key). */
export function argsFieldsOf(stub: Stub): ArgsFields | undefined {
  for (const m of stub.matchers) if (m.argsFields !== undefined) return m.argsFields;
  return undefined;
}

/** The exact-arguments key of a stub, if it has one. */
export function argsKeyOf(stub: Stub): string | undefined {
  for (const m of stub.matchers) if (m.argsKey !== undefined) return m.argsKey;
  return undefined;
}
