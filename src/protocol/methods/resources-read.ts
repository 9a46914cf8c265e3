/**
 * `resources/read`: keyed by the URI; no built-in answer (declared contents and "resource
 * not found" come from the selection rule).
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";
import { RESOURCES_CAPABILITY } from "./resources-list.js";

/** `resources/read` → `mock.resourcesRead(uri?)`. */
export const resourcesRead: MethodDescriptor = {
  method: "resources/read",
  direction: "client-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  entryPoint: "resourcesRead",
  pattern: true,
  key: { param: "uri", noun: "URI" },
  resultSchema: "ReadResourceResultSchema",
  cacheable: true,
  advertises: { capability: "resources", value: RESOURCES_CAPABILITY, when: { declared: "resources", stubbed: true } },
  selection: "resource-read",
};
