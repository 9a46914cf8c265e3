/**
 * The DSL's entry points: which call starts a chain for which method (`tools/call` →
 * `toolsCall(...)`). One table, read by the mock's methods, the pattern functions and the
 * reports that tell a user what to write.
 * @module
 */
/** Method names for the two HTTP-level stubs that are not JSON-RPC methods. */
export const HTTP_DELETE = "DELETE session";
/** The GET stream a client opens for server-initiated messages. */
export const HTTP_GET_STREAM = "GET stream";

/** @internal Every method with an entry point of its own, and that entry point's name. */
export const ENTRY_POINTS: Readonly<Record<string, string>> = {
  initialize: "initialize",
  ping: "ping",
  "tools/list": "toolsList",
  "tools/call": "toolsCall",
  "resources/list": "resourcesList",
  "resources/templates/list": "resourcesTemplatesList",
  "resources/read": "resourcesRead",
  "resources/subscribe": "resourcesSubscribe",
  "resources/unsubscribe": "resourcesUnsubscribe",
  "prompts/list": "promptsList",
  "prompts/get": "promptsGet",
  "completion/complete": "completionComplete",
  "logging/setLevel": "loggingSetLevel",
  [HTTP_DELETE]: "deleteSession",
  [HTTP_GET_STREAM]: "openStream",
};

/**
 * @internal The entry point call for a method (and key), as a user writes it:
 * `toolsCall("add")`, `ping()`, and `method("custom/thing")` for a method without one.
 */
export function entryCall(method: string, key?: string): string {
  const name = ENTRY_POINTS[method];
  if (name === undefined) return `method(${JSON.stringify(method)})`;
  return `${name}(${key === undefined ? "" : JSON.stringify(key)})`;
}
