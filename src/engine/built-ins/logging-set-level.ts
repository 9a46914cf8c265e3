/**
 * The built-in answer of `logging/setLevel`: `{}`, and the level is kept on the session (log
 * steps below it are not sent).
 * @module
 */
import { JsonRpcFailure } from "../../protocol/jsonrpc.js";
import { LOG_LEVELS } from "../../protocol/methods/logging-set-level.js";
import { ErrorCodes } from "../../protocol/revisions.js";
import type { BuiltInAnswer } from "./source.js";

/** `logging/setLevel`, answered by the mock itself. */
export const loggingSetLevelAnswer: BuiltInAnswer = (source) => ({
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
});
