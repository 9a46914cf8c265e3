/**
 * `initialize`: the client's first request; the built-in answer negotiates the version and
 * advertises what the mock declares.
 * @module
 */
import { SESSION_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `initialize` → `mock.initialize()`. */
export const initialize: MethodDescriptor = {
  method: "initialize",
  direction: "client-request",
  revisions: SESSION_PROTOCOL_VERSIONS,
  entryPoint: "initialize",
  pattern: true,
  resultSchema: "InitializeResultSchema",
  opens: true,
};
