/**
 * `resources/subscribe`: keyed by the URI, answered `{}`.
 * @module
 */
import { SESSION_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";
import { RESOURCES_CAPABILITY } from "./resources-list.js";

/** `resources/subscribe` → `mock.resourcesSubscribe(uri?)`. */
export const resourcesSubscribe: MethodDescriptor = {
  method: "resources/subscribe",
  direction: "client-request",
  revisions: SESSION_PROTOCOL_VERSIONS,
  entryPoint: "resourcesSubscribe",
  key: { param: "uri", noun: "URI" },
  resultSchema: "EmptyResultSchema",
  advertises: { capability: "resources", value: RESOURCES_CAPABILITY, when: { declared: "resources" } },
};
