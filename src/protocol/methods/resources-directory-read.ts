/**
 * `resources/directory/read` (defined by the Skills extension, gated by its `directoryRead`
 * setting): a directory resource's direct children, paged; -32602 for a URI that is no directory.
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import { SKILLS_EXTENSION } from "../skills.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `resources/directory/read` → `mock.method("resources/directory/read")` (no key param, as `skills/get`). */
export const resourcesDirectoryRead: MethodDescriptor = {
  method: "resources/directory/read",
  direction: "client-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  extension: SKILLS_EXTENSION,
  emptyResult: { resources: [] },
};
