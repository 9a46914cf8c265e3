/**
 * `skills/list` (the Skills extension): the declared skills' entries, paged.
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import { SKILLS_EXTENSION } from "../skills.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `skills/list` → `mock.method("skills/list")`. */
export const skillsList: MethodDescriptor = {
  method: "skills/list",
  direction: "client-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  extension: SKILLS_EXTENSION,
  cacheable: true,
  emptyResult: { skills: [] },
};
