/**
 * `sampling/createMessage`: the mock asks the client's model for a message (from a stream
 * script's `.request(...)` or `mock.request(...)`).
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `sampling/createMessage`, server to client; needs the client's `sampling` capability. */
export const samplingCreateMessage: MethodDescriptor = {
  method: "sampling/createMessage",
  direction: "server-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  resultSchema: "CreateMessageResultSchema",
  clientCapability: "sampling",
  // Sampling with tools (SEP-1577) needs `sampling.tools`.
  clientSubCapability: (params) => (params?.["tools"] !== undefined || params?.["toolChoice"] !== undefined ? "tools" : undefined),
};
