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
  // Elicitation arrived in 2025-06-18.
  revisions: SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v >= "2025-06-18"),
  resultSchema: "ElicitResultSchema",
  clientCapability: "elicitation",
  // URL mode (SEP-1036) needs `elicitation.url`; form mode is what `elicitation: {}` means.
  clientSubCapability: (params) => (params?.["mode"] === "url" ? "url" : undefined),
};
