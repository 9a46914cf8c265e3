/**
 * `skills/get` (the Skills extension): one skill's entry, by the URI of its `SKILL.md`;
 * -32602 for a URI that is no skill.
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import { SKILLS_EXTENSION } from "../skills.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `skills/get` → `mock.method("skills/get")`, keyed by `params.uri`. */
export const skillsGet: MethodDescriptor = {
  method: "skills/get",
  direction: "client-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  extension: SKILLS_EXTENSION,
  key: { param: "uri", noun: "skill URI" },
  cacheable: true,
};
