/**
 * `completion/complete`: answered with no completions.
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `completion/complete` → `mock.completionComplete()`. */
export const completionComplete: MethodDescriptor = {
  method: "completion/complete",
  direction: "client-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  entryPoint: "completionComplete",
  pattern: true,
  resultSchema: "CompleteResultSchema",
  advertises: { capability: "completions", value: {}, when: { declared: "prompts", stubbed: true } },
};
