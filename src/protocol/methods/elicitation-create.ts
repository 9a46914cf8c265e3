/**
 * `elicitation/create`: the mock asks the client's user for input.
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `elicitation/create`, server to client; needs the client's `elicitation` capability. */
export const elicitationCreate: MethodDescriptor = {
  method: "elicitation/create",
  direction: "server-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  resultSchema: "ElicitResultSchema",
  clientCapability: "elicitation",
};
