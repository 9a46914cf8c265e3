/**
 * Tasks as the 2026-07-28 extension puts them on the wire (`io.modelcontextprotocol/tasks`,
 * SEP-2663): opted into per request through the envelope's client capabilities, a
 * `CreateTaskResult` with `resultType: "task"`, `tasks/get` answering the detailed task (its
 * `result` or `error` once final, its `inputRequests` while it waits), `tasks/update` carrying
 * the answers, and `notifications/tasks` on listen streams. A view of {@link TaskRecord}s.
 * @module
 */
import { MetaKeys } from "../../protocol/revisions.js";
import type { McpCall } from "../../stubs/call.js";
import { isJsonObject } from "../../values/json-value.js";
import type { TaskRecord } from "./task-store.js";
import { taskJson } from "./wire-2025.js";

/** The extension's identifier, in capabilities on both sides. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** Whether a 2026-07-28 request's envelope declares the tasks extension. */
export function optsIntoTasks(call: McpCall): boolean {
  const caps = (call.params?.["_meta"] as Record<string, unknown> | undefined)?.[MetaKeys.clientCapabilities];
  const extensions = isJsonObject(caps) ? caps["extensions"] : undefined;
  return isJsonObject(extensions) && extensions[TASKS_EXTENSION] !== undefined;
}

/** A task, as every 2026 task message carries it: the 2025 fields, with the extension's `ttlMs` and `pollIntervalMs`. */
function taskJson2026(task: TaskRecord): Record<string, unknown> {
  const { ttl, pollInterval, ...fields } = taskJson(task);
  return { ...fields, ttlMs: ttl, ...(pollInterval === undefined ? {} : { pollIntervalMs: pollInterval }) };
}

/** The answer to a call that runs as a task: the task, at once. */
export function createTaskResult2026(task: TaskRecord): Record<string, unknown> {
  return { resultType: "task", ...taskJson2026(task) };
}

/** The detailed task of `tasks/get` and `notifications/tasks`: with its result, its error or what it waits for. */
export function detailedTask2026(task: TaskRecord, inputRequests: Record<string, unknown>): Record<string, unknown> {
  const detailed = taskJson2026(task);
  const outcome = task.outcome;
  if (task.status === "completed" && outcome && "result" in outcome) detailed["result"] = outcome.result ?? {};
  if (task.status === "failed" && outcome && "error" in outcome) detailed["error"] = outcome.error;
  if (task.status === "input_required") detailed["inputRequests"] = inputRequests;
  return detailed;
}
