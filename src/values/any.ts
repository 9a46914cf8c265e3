/**
 * The `ANY` wildcard.
 * @module
 */

/**
 * The type of {@link ANY}.
 *
 * @example
 * ```ts
 * import { ANY, McpMock, type AnyValue } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "add", inputSchema: { type: "object" } }] });
 * const anything: AnyValue = ANY;
 * mock.toolsCall("add").withArgs(anything).respondsWith({ sum: 0 });
 * String(anything); // "ANY"
 * ```
 * @category Stubbing
 */
export interface AnyValue {
  /** Always `"ANY"`: marks the wildcard. */
  readonly kind: "ANY";
  /** Returns `"ANY"`. */
  toString(): string;
}

/**
 * Matches anything: `withArgs(ANY)` accepts any arguments, `withSessionId(ANY)` any session,
 * and inside an argument object `withArgs({ city: ANY })` any value of that one field.
 *
 * @example
 * ```ts
 * import { McpMock, ANY, text } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "add", inputSchema: { type: "object" } }] });
 * mock.toolsCall("add").withArgs(ANY).respondsWith(text("fallback"));
 * ```
 * @category Stubbing
 */
export const ANY: AnyValue = Object.freeze({
  kind: "ANY" as const,
  toString: () => "ANY",
});

/** Whether a value is the {@link ANY} wildcard. */
export function isAny(value: unknown): value is AnyValue {
  return value === ANY;
}
