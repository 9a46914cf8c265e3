/**
 * Running a stub's answer as a task's work: the answer plays in the background (its delay,
 * its stream script, its function), its server-to-client requests move the task to
 * `input_required` and back, its notifications go where the client can receive them, and its
 * end settles the task (`completed`, or `failed` for an error or an `isError` result).
 * Independent of the wire form but for the related-task `_meta` it puts on messages.
 * @module
 */
import { PREFIX } from "../../values/errors.js";
import { JsonRpcFailure, type JsonRpcResponse } from "../../protocol/jsonrpc.js";
import { ErrorCodes } from "../../protocol/revisions.js";
import type { McpCall } from "../../stubs/call.js";
import type { TaskPlan } from "../../stubs/stub.js";
import type { Outcome } from "../outcome.js";
import type { StreamHost } from "../stream-player.js";
import type { TaskOutcome, TaskRecord, TaskStore } from "./task-store.js";
import { relatedMessage, withRelatedTask } from "./wire-2025.js";

/** The stub's ordinary answer, played with a stream host of the task's own (after the stub's delay, which `signal` cuts short). */
export type TaskWork = (host: StreamHost, signal: AbortSignal) => Outcome | Promise<Outcome>;

/** What running a task needs from the mock. */
export interface RunnerHost {
  readonly store: TaskStore;
  readonly closing: AbortSignal;
  /** Sends a message to the session's client where it can receive it (its push stream), if anywhere. */
  deliver(sessionId: string | undefined, message: unknown): void;
  /** Whether a tool result with `isError: true` fails the task (2025-11-25) or completes it (2026-07-28: `failed` is for protocol errors). */
  toolErrorFails(task: TaskRecord): boolean;
}

/** Holds a task's result back until enough polls (or a `tasks/result`) have come. */
export class PollGate {
  readonly afterPolls: number;
  readonly plan: TaskPlan | undefined;
  #open!: () => void;
  readonly opened: Promise<void>;
  #isOpen = false;

  constructor(plan: TaskPlan | undefined) {
    this.plan = plan;
    this.afterPolls = plan?.afterPolls ?? plan?.statuses?.length ?? 0;
    this.opened = new Promise((resolve) => (this.#open = resolve));
    if (this.afterPolls === 0) this.open();
  }

  get isOpen(): boolean {
    return this.#isOpen;
  }

  open(): void {
    this.#isOpen = true;
    this.#open();
  }
}

function isResponse(message: unknown): message is JsonRpcResponse {
  return message !== null && typeof message === "object" && ("result" in message || "error" in message) && !("method" in message);
}

/** The first text of a tool result, for a failed task's status message. */
function firstText(result: unknown): string | undefined {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return undefined;
  const text = (content.find((c) => (c as { type?: unknown })?.type === "text") as { text?: unknown } | undefined)?.text;
  return typeof text === "string" ? text.slice(0, 500) : undefined;
}

/** Runs one task's work to its end; never throws. */
export async function runTask(host: RunnerHost, task: TaskRecord, call: McpCall, gate: PollGate, work: TaskWork, inner: StreamHost): Promise<void> {
  const { store } = host;
  const signal = AbortSignal.any([task.abort.signal, host.closing]);
  const deliver = (message: unknown): void => host.deliver(call.sessionId, relatedMessage(message, task.id));
  // Several requests may wait at once (a `requests` step): the task works again when none does.
  let waiting = 0;
  const taskHost: StreamHost = {
    requestFromClient: async (method, params, s, _deliver, timeoutMs, sig, key) => {
      if (waiting++ === 0) store.move(task, "input_required", `Waiting for the client's answer to ${method}.`);
      try {
        return await inner.requestFromClient(method, withRelatedTask(params, task.id), s, deliver, timeoutMs, sig, key);
      } finally {
        if (--waiting === 0 && !sig.aborted) store.move(task, "working");
      }
    },
    finalMessage: (plan, c) => inner.finalMessage(plan, c),
    ...(inner.notify ? { notify: inner.notify } : {}),
  };
  let final: JsonRpcResponse | undefined;
  try {
    const outcome = await work(taskHost, signal);
    if (outcome.kind === "message" || outcome.kind === "fault") final = outcome.message;
    else if (outcome.kind === "stream") await outcome.run({ send: (m) => (isResponse(m) ? (final = m) : deliver(m)), signal });
    else throw new JsonRpcFailure(ErrorCodes.InternalError, `${PREFIX} a raw HTTP status cannot be the result of task ${task.id}.`);
  } catch (error) {
    if (signal.aborted) return;
    const failure = error instanceof JsonRpcFailure ? error : new JsonRpcFailure(ErrorCodes.InternalError, `${PREFIX} the work of task ${task.id} failed: ${String(error)}`);
    final = { jsonrpc: "2.0", id: call.id ?? null, error: { code: failure.code, message: failure.message, ...(failure.data === undefined ? {} : { data: failure.data }) } } as JsonRpcResponse;
  }
  if (signal.aborted) return;
  if (!gate.isOpen) {
    const stop = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    await Promise.race([gate.opened, stop]);
    if (signal.aborted) return;
  }
  settle(store, task, gate.plan, final, host.toolErrorFails(task));
}

function settle(store: TaskStore, task: TaskRecord, plan: TaskPlan | undefined, final: JsonRpcResponse | undefined, toolErrorFails: boolean): void {
  const message = final as { result?: unknown; error?: { code: number; message: string; data?: unknown } } | undefined;
  if (message?.error) {
    const outcome: TaskOutcome = { error: message.error };
    store.settle(task, "failed", outcome, plan?.statusMessage ?? message.error.message);
    return;
  }
  if (!message || !("result" in message)) {
    store.settle(task, "failed", { error: { code: ErrorCodes.InternalError, message: `${PREFIX} the stream of task ${task.id} ended without a result.` } });
    return;
  }
  const failed = toolErrorFails && (message.result as { isError?: unknown } | null)?.isError === true;
  const statusMessage = plan?.statusMessage ?? (failed ? firstText(message.result) ?? "The tool answered isError: true." : undefined);
  store.settle(task, failed ? "failed" : "completed", { result: message.result }, statusMessage);
}
