/**
 * The DSL's entry points: which call starts a chain for which method (`tools/call` →
 * `toolsCall(...)`), as the method descriptors say (`protocol/methods/`). Read by the mock's
 * methods, the pattern functions and the reports that tell a user what to write.
 * @module
 */
import { ENTRY_POINT_BY_METHOD } from "./methods/index.js";

export { HTTP_DELETE } from "./methods/delete-session.js";
export { HTTP_GET_STREAM } from "./methods/open-stream.js";

/** @internal Every method with an entry point of its own, and that entry point's name (derived from the descriptors). */
export const ENTRY_POINTS: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(ENTRY_POINT_BY_METHOD));

/**
 * @internal The entry point call for a method (and key), as a user writes it:
 * `toolsCall("add")`, `ping()`, and `method("custom/thing")` for a method without one.
 */
export function entryCall(method: string, key?: string): string {
  const name = ENTRY_POINT_BY_METHOD.get(method);
  if (name === undefined) return `method(${JSON.stringify(method)})`;
  return `${name}(${key === undefined ? "" : JSON.stringify(key)})`;
}
