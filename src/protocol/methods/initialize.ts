/**
 * `initialize`: the client's first request; the built-in answer negotiates the version and
 * advertises what the mock declares.
 * @module
 */
import type { McpCall } from "../../stubs/call.js";
import { SESSION_PROTOCOL_VERSIONS } from "../revisions.js";
import type { DefaultsSource, MethodDescriptor } from "./descriptor.js";

/**
 * The default initialize result for a call (also the base a user's partial result is merged
 * onto). Its version is the call's: the era negotiated it when the request arrived.
 */
export function defaultInitializeResult(source: DefaultsSource, call: McpCall): Record<string, unknown> {
  const result: Record<string, unknown> = {
    protocolVersion: call.protocolVersion,
    capabilities: source.capabilities(),
    serverInfo: source.serverInfo(),
  };
  const instructions = source.instructions();
  if (instructions !== undefined) result["instructions"] = instructions;
  return result;
}

/** `initialize` → `mock.initialize()`. */
export const initialize: MethodDescriptor = {
  method: "initialize",
  direction: "client-request",
  revisions: SESSION_PROTOCOL_VERSIONS,
  entryPoint: "initialize",
  pattern: true,
  resultSchema: "InitializeResultSchema",
  opens: true,
  builtIn: (source) => ({
    kind: "result",
    label: "the negotiated version, the declared capabilities and serverInfo",
    result: (call) => defaultInitializeResult(source, call),
  }),
};
