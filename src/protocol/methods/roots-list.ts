/**
 * `roots/list`: the mock asks the client for its roots.
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `roots/list`, server to client; needs the client's `roots` capability. */
export const rootsList: MethodDescriptor = {
  method: "roots/list",
  direction: "server-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  resultSchema: "ListRootsResultSchema",
  clientCapability: "roots",
};
