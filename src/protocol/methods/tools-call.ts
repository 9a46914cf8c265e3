/**
 * `tools/call`: keyed by the tool's name; no built-in answer (a miss is answered by the
 * selection's tiers, as an `isError` tool result).
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `tools/call` → `mock.toolsCall(name?)`. */
export const toolsCall: MethodDescriptor = {
  method: "tools/call",
  direction: "client-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  entryPoint: "toolsCall",
  pattern: true,
  key: { param: "name", noun: "tool name", unkeyed: "tools/call of any tool" },
  arguments: true,
  resultSchema: "CallToolResultSchema",
  emptyResult: { content: [] },
  advertises: { capability: "tools", value: { listChanged: true }, when: { declared: "tools", stubbed: true } },
  selection: "tool-tiers",
};
