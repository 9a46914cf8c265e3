/**
 * `prompts/list`: the declared prompts, paged.
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `prompts/list` → `mock.promptsList()`. */
export const promptsList: MethodDescriptor = {
  method: "prompts/list",
  direction: "client-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  entryPoint: "promptsList",
  resultSchema: "ListPromptsResultSchema",
  cacheable: true,
  advertises: { capability: "prompts", value: { listChanged: true }, when: { declared: "prompts", stubbed: true } },
};
