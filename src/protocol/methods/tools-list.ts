/**
 * `tools/list`: the declared tools, paged (`outputSchema` only where the revision has it).
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `tools/list` → `mock.toolsList()`. */
export const toolsList: MethodDescriptor = {
  method: "tools/list",
  direction: "client-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  entryPoint: "toolsList",
  pattern: true,
  resultSchema: "ListToolsResultSchema",
  cacheable: true,
  advertises: { capability: "tools", value: { listChanged: true }, when: { declared: "tools" } },
};
