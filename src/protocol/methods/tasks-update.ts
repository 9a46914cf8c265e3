/**
 * `tasks/update` (2026-07-28, the tasks extension): the client's answers to what a task waits
 * for (its `inputRequests`), acknowledged with an empty result.
 * @module
 */
import { STATELESS_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `tasks/update` → `mock.method("tasks/update")`. */
export const tasksUpdate: MethodDescriptor = {
  method: "tasks/update",
  direction: "client-request",
  revisions: STATELESS_PROTOCOL_VERSIONS,
  key: { param: "taskId", noun: "task id", unkeyed: "tasks/update of any task" },
};
