/**
 * `notifications/tasks/status` (2025-11-25): the mock tells a task's client that its status
 * changed (on the session's push stream, where the client can receive it).
 * @module
 */
import type { MethodDescriptor } from "./descriptor.js";

/** `notifications/tasks/status`, server to client. */
export const notificationsTasksStatus: MethodDescriptor = {
  method: "notifications/tasks/status",
  direction: "notification",
  revisions: ["2025-11-25"],
};
