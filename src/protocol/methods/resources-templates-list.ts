/**
 * `resources/templates/list`: the declared resource templates, paged.
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";
import { RESOURCES_CAPABILITY } from "./resources-list.js";

/** `resources/templates/list` → `mock.resourcesTemplatesList()`. */
export const resourcesTemplatesList: MethodDescriptor = {
  method: "resources/templates/list",
  direction: "client-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  entryPoint: "resourcesTemplatesList",
  resultSchema: "ListResourceTemplatesResultSchema",
  cacheable: true,
  advertises: { capability: "resources", value: RESOURCES_CAPABILITY, when: { declared: "resources" } },
};
