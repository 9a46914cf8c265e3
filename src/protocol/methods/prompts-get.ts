/**
 * `prompts/get`: keyed by the prompt's name; no built-in answer (declared messages and the
 * miss come from the selection's tiers).
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `prompts/get` → `mock.promptsGet(name?)`. */
export const promptsGet: MethodDescriptor = {
  method: "prompts/get",
  direction: "client-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  entryPoint: "promptsGet",
  pattern: true,
  key: { param: "name", noun: "prompt name" },
  arguments: true,
  resultSchema: "GetPromptResultSchema",
  advertises: { capability: "prompts", value: { listChanged: true }, when: { declared: "prompts", stubbed: true } },
  selection: "prompt-tiers",
};
