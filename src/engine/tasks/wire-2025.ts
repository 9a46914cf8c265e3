/**
 * Tasks as the 2025-11-25 core feature puts them on the wire: the `Task` object,
 * `CreateTaskResult`, `notifications/tasks/status`, the related-task `_meta` key and the
 * error texts. A view of {@link TaskRecord}s; nothing here keeps state.
 * @module
 */
import type { TaskRecord } from "./task-store.js";

/** The `_meta` key that ties a message to its task. */
export const RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task";

/** A task as `tasks/get`, `tasks/list`, `tasks/cancel` and the status notification carry it. */
export function taskJson(task: TaskRecord): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttl: task.ttl,
    ...(task.pollInterval === undefined ? {} : { pollInterval: task.pollInterval }),
  };
}

/** The answer to a task-augmented request: the task, at once. */
export function createTaskResult(task: TaskRecord): Record<string, unknown> {
  return { task: taskJson(task) };
}

/** The status notification of a task. */
export function statusNotification(task: TaskRecord): Record<string, unknown> {
  return { jsonrpc: "2.0", method: "notifications/tasks/status", params: taskJson(task) };
}

/** `params` with the related-task `_meta` added (a message that is not an object is returned as is). */
export function withRelatedTask(params: unknown, taskId: string): unknown {
  if (params === undefined) return { _meta: { [RELATED_TASK_META_KEY]: { taskId } } };
  if (params === null || typeof params !== "object" || Array.isArray(params)) return params;
  const p = params as Record<string, unknown>;
  const meta = p["_meta"] !== null && typeof p["_meta"] === "object" && !Array.isArray(p["_meta"]) ? (p["_meta"] as Record<string, unknown>) : {};
  return { ...p, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId } } };
}

/** A JSON-RPC message (request or notification) tied to its task; responses and other values pass as they are. */
export function relatedMessage(message: unknown, taskId: string): unknown {
  if (message === null || typeof message !== "object" || typeof (message as { method?: unknown }).method !== "string") return message;
  const m = message as Record<string, unknown>;
  return { ...m, params: withRelatedTask(m["params"], taskId) };
}

/** The texts of the errors the task methods answer, as the specification words them. */
export const TaskErrors = {
  notFound: "Failed to retrieve task: Task not found",
  expired: "Failed to retrieve task: Task has expired",
  terminal: (status: string): string => `Cannot cancel task: already in terminal status '${status}'`,
  required: (tool: string): string => `Tool ${tool} requires task augmentation (taskSupport: 'required')`,
  cancelled: (id: string): string => `Task ${id} was cancelled`,
} as const;
