/**
 * `resources/list`: the declared resources, paged.
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** The `resources` capability as the mock advertises it. */
export const RESOURCES_CAPABILITY = { subscribe: true, listChanged: true } as const;

/** `resources/list` → `mock.resourcesList()`. */
export const resourcesList: MethodDescriptor = {
  method: "resources/list",
  direction: "client-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  entryPoint: "resourcesList",
  resultSchema: "ListResourcesResultSchema",
  cacheable: true,
  advertises: { capability: "resources", value: RESOURCES_CAPABILITY, when: { declared: "resources", stubbed: true } },
};
