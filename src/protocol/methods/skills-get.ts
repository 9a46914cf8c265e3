/**
 * `skills/get` (the Skills extension): one skill's entry, by the URI of its `SKILL.md`;
 * -32602 for a URI that is no skill.
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "../revisions.js";
import { SKILLS_EXTENSION } from "../skills.js";
import type { MethodDescriptor } from "./descriptor.js";

/**
 * `skills/get` → `mock.method("skills/get")` (match its URI with `withParams`). It has no key
 * param: 2026-07-28's `Mcp-Name` header is required of the core's keyed methods only, and
 * clients send none for an extension's.
 */
export const skillsGet: MethodDescriptor = {
  method: "skills/get",
  direction: "client-request",
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  extension: SKILLS_EXTENSION,
  cacheable: true,
};
