/**
 * `tasks/list` (2025-11-25): the mock's live tasks, oldest first, paged.
 * @module
 */
import type { MethodDescriptor } from "./descriptor.js";

/** `tasks/list` → `mock.tasksList()`. */
export const tasksList: MethodDescriptor = {
  method: "tasks/list",
  direction: "client-request",
  revisions: ["2025-11-25"],
  entryPoint: "tasksList",
  pattern: true,
  resultSchema: "ListTasksResultSchema",
};
