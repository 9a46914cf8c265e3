/**
 * `notifications/initialized`: the client says initialization is done (the session is
 * marked initialized).
 * @module
 */
import { SESSION_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `notifications/initialized`, client to server. */
export const notificationsInitialized: MethodDescriptor = {
  method: "notifications/initialized",
  direction: "notification",
  revisions: SESSION_PROTOCOL_VERSIONS,
};
