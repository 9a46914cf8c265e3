/**
 * `tasks/cancel` (2025-11-25): stops a running task; a finished one is refused (-32602).
 * @module
 */
import type { MethodDescriptor } from "./descriptor.js";

/** `tasks/cancel` → `mock.tasksCancel(taskId?)`. */
export const tasksCancel: MethodDescriptor = {
  method: "tasks/cancel",
  direction: "client-request",
  revisions: ["2026-07-28", "2025-11-25"],
  entryPoint: "tasksCancel",
  pattern: true,
  key: { param: "taskId", noun: "task id", unkeyed: "tasks/cancel of any task" },
  resultSchema: "CancelTaskResultSchema",
};
