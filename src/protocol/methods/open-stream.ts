/**
 * The GET stream a client opens for server-initiated messages: an HTTP exchange, not a
 * JSON-RPC method, that `mock.openStream()` scripts.
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** The name stubs, the journal and reports use for the GET stream. */
export const HTTP_GET_STREAM = "GET stream";

/** The GET stream → `mock.openStream()`. */
export const openStream: MethodDescriptor = {
  method: HTTP_GET_STREAM,
  direction: "http",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  entryPoint: "openStream",
};
