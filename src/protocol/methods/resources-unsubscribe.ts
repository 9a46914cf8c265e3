/**
 * `resources/unsubscribe`: keyed by the URI, answered `{}`.
 * @module
 */
import { SESSION_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";
import { RESOURCES_CAPABILITY } from "./resources-list.js";

/** `resources/unsubscribe` → `mock.resourcesUnsubscribe(uri?)`. */
export const resourcesUnsubscribe: MethodDescriptor = {
  method: "resources/unsubscribe",
  direction: "client-request",
  revisions: SESSION_PROTOCOL_VERSIONS,
  entryPoint: "resourcesUnsubscribe",
  key: { param: "uri", noun: "URI" },
  resultSchema: "EmptyResultSchema",
  advertises: { capability: "resources", value: RESOURCES_CAPABILITY, when: { declared: "resources" } },
};
