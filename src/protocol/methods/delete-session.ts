/**
 * The HTTP DELETE that ends a session: not a JSON-RPC method; answered 204 (and the session
 * ends) unless `mock.deleteSession()` says otherwise.
 * @module
 */
import { SESSION_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** The name stubs, the journal and reports use for the DELETE. */
export const HTTP_DELETE = "DELETE session";

/** The DELETE → `mock.deleteSession()`. */
export const deleteSession: MethodDescriptor = {
  method: HTTP_DELETE,
  direction: "http",
  revisions: SESSION_PROTOCOL_VERSIONS,
  entryPoint: "deleteSession",
  pattern: true,
};
