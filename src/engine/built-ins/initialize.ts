/**
 * The built-in answer of `initialize`: the negotiated version, the declared capabilities and
 * `serverInfo`.
 * @module
 */
import type { McpCall } from "../../stubs/call.js";
import type { BuiltInAnswer, DefaultsSource } from "./source.js";

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

/** `initialize`, answered by the mock itself. */
export const initializeAnswer: BuiltInAnswer = (source) => ({
  kind: "result",
  label: "the negotiated version, the declared capabilities and serverInfo",
  result: (call) => defaultInitializeResult(source, call),
});
