/**
 * What a 2026-07-28 task waits for: its work's server-to-client requests, kept as the task's
 * `inputRequests` (under the script's key, else `elicitation-1`, ...), until `tasks/update`
 * brings their answers, all at once or some at a time. Unknown and already answered keys are
 * ignored, as the extension says; an answer its request cannot take is refused (-32602).
 * @module
 */
import { JsonRpcFailure } from "../../protocol/jsonrpc.js";
import { ErrorCodes } from "../../protocol/revisions.js";
import { PREFIX } from "../../values/errors.js";
import { assertInputAnswer } from "../input-answers.js";
import type { TaskRecord } from "./task-store.js";

interface Pending {
  readonly request: { readonly method: string; readonly params?: unknown };
  resolve(answer: unknown): void;
}

/** The open input requests of every 2026 task. */
export class TaskInputs {
  readonly #pending = new WeakMap<TaskRecord, Map<string, Pending>>();

  /** Asks the client (through the task, under the script's `key` for the request) and resolves with its answer; rejects when `signal` aborts. */
  ask(task: TaskRecord, method: string, params: unknown, signal: AbortSignal, key: string): Promise<unknown> {
    let open = this.#pending.get(task);
    if (!open) this.#pending.set(task, (open = new Map()));
    const requests = open;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        requests.delete(key);
        reject(new JsonRpcFailure(ErrorCodes.InternalError, `${PREFIX} ${method} of task ${task.id} was abandoned: the task ended first.`));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      requests.set(key, {
        request: params === undefined ? { method } : { method, params },
        resolve: (answer) => {
          signal.removeEventListener("abort", onAbort);
          requests.delete(key);
          resolve(answer);
        },
      });
    });
  }

  /** The task's open requests, by key (its `inputRequests`). */
  requests(task: TaskRecord): Record<string, unknown> {
    return Object.fromEntries([...(this.#pending.get(task) ?? new Map<string, Pending>())].map(([key, p]) => [key, p.request]));
  }

  /** Settles the open requests `responses` answers; returns the keys it settled. */
  answer(task: TaskRecord, responses: Record<string, unknown>): string[] {
    const open = this.#pending.get(task);
    if (!open) return [];
    const settled = Object.keys(responses).filter((key) => open.has(key));
    for (const key of settled) {
      const { method, params } = (open.get(key) as Pending).request;
      assertInputAnswer(key, method, params, responses[key]);
    }
    for (const key of settled) open.get(key)?.resolve(responses[key]);
    return settled;
  }
}
