/**
 * `logging/setLevel`: answered `{}`, and the level is kept on the session (log steps below
 * it are not sent).
 * @module
 */
import { JsonRpcFailure } from "../jsonrpc.js";
import { ErrorCodes, SESSION_PROTOCOL_VERSIONS } from "../revisions.js";
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
  builtIn: (source) => ({
    kind: "result",
    label: "{} (the level is kept per session)",
    result: (call) => {
      const level = call.params?.["level"];
      if (!LOG_LEVELS.includes(level as (typeof LOG_LEVELS)[number])) {
        throw new JsonRpcFailure(ErrorCodes.InvalidParams, `Invalid params: level must be one of ${LOG_LEVELS.join(", ")}`);
      }
      const session = call.sessionId === undefined ? undefined : source.sessions.get(call.sessionId);
      if (session) session.logLevel = level as (typeof LOG_LEVELS)[number];
      return {};
    },
  }),
};
