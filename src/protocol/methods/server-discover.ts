/**
 * `server/discover`: how a 2026-07-28 client probes a server before (instead of)
 * `initialize`. Not served yet: the built-in answer is -32601, which tells such a client to
 * fall back to `initialize` (see WIRE.md §10).
 * @module
 */
import { DISCOVERY_PROTOCOL_VERSION, ErrorCodes, SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `server/discover` (no entry point yet: `mock.method("server/discover")`). */
export const serverDiscover: MethodDescriptor = {
  method: "server/discover",
  direction: "client-request",
  revisions: [DISCOVERY_PROTOCOL_VERSION],
  beforeSession: true,
  builtIn: () => ({
    kind: "error",
    code: ErrorCodes.MethodNotFound,
    message: "Method not found",
    data: `mcpmock speaks MCP ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}; a client probing for ${DISCOVERY_PROTOCOL_VERSION} should fall back to initialize.`,
  }),
};
