/**
 * `tasks/result` (2025-11-25): waits until a task ends, then answers what its request
 * answered (its result, or its JSON-RPC error).
 * @module
 */
import type { MethodDescriptor } from "./descriptor.js";

/** `tasks/result` → `mock.tasksResult(taskId?)`. */
export const tasksResult: MethodDescriptor = {
  method: "tasks/result",
  direction: "client-request",
  revisions: ["2025-11-25"],
  entryPoint: "tasksResult",
  pattern: true,
  key: { param: "taskId", noun: "task id", unkeyed: "tasks/result of any task" },
  resultSchema: "GetTaskPayloadResultSchema",
};
