/**
 * `notifications/cancelled`: the client gives up on a request (a streamed answer stops).
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `notifications/cancelled`, client to server. */
export const notificationsCancelled: MethodDescriptor = {
  method: "notifications/cancelled",
  direction: "notification",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
};
