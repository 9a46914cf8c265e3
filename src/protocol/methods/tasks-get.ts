/**
 * `tasks/get` (2025-11-25): a task's status, by its id. Answered by the mock's tasks; its
 * descriptor also carries the `tasks` server capability, advertised when a declared tool may
 * run as a task.
 * @module
 */
import type { MethodDescriptor } from "./descriptor.js";

/** `tasks/get` → `mock.tasksGet(taskId?)`. */
export const tasksGet: MethodDescriptor = {
  method: "tasks/get",
  direction: "client-request",
  revisions: ["2026-07-28", "2025-11-25"],
  entryPoint: "tasksGet",
  pattern: true,
  key: { param: "taskId", noun: "task id", unkeyed: "tasks/get of any task" },
  resultSchema: "GetTaskResultSchema",
  advertises: { capability: "tasks", value: { list: {}, cancel: {}, requests: { tools: { call: {} } } }, when: { taskTools: true } },
};
