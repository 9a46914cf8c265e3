/**
 * `logging/setLevel`: answered `{}`, and the level is kept on the session (log steps below
 * it are not sent).
 * @module
 */
import { SESSION_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** The log levels of `logging/setLevel`, least severe first. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** `logging/setLevel` → `mock.loggingSetLevel()`. */
export const loggingSetLevel: MethodDescriptor = {
  method: "logging/setLevel",
  direction: "client-request",
  revisions: SESSION_PROTOCOL_VERSIONS,
  entryPoint: "loggingSetLevel",
  resultSchema: "EmptyResultSchema",
  advertises: { capability: "logging", value: {}, when: "always" },
};
