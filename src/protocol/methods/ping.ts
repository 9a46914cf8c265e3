/**
 * `ping`: answered `{}`.
 * @module
 */
import { SESSION_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `ping` → `mock.ping()`. */
export const ping: MethodDescriptor = {
  method: "ping",
  direction: "client-request",
  revisions: SESSION_PROTOCOL_VERSIONS,
  entryPoint: "ping",
  pattern: true,
  resultSchema: "EmptyResultSchema",
};
