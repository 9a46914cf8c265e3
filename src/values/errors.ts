/**
 * The error class and the message prefix every mcpmock message starts with.
 * @module
 */

/** Every message mcpmock writes starts with this, so it is easy to spot in test output. */
export const PREFIX = "[mcpmock]";

/**
 * Thrown for a mistake in a stub, a declaration or an option: at the call that made it,
 * with the fix in the message.
 *
 * @example
 * ```ts
 * import { McpMock, McpMockError } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "add", inputSchema: { type: "object" } }] });
 * try {
 *   mock.toolsCall("sum" as never);
 * } catch (e) {
 *   if (e instanceof McpMockError) console.log(e.message); // names the declared tools
 * }
 * ```
 * @category Errors and protocol facts
 */
export class McpMockError extends Error {
  /** Always `"McpMockError"`. */
  override readonly name: string = "McpMockError";
  constructor(message: string) {
    super(message.startsWith(PREFIX) ? message : `${PREFIX} ${message}`);
  }
}

/**
 * A client's text as it may be shown on a terminal (a log line on stderr): control characters,
 * newlines and escape sequences that would recolour, retitle or clear it, written as `\uXXXX`.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A short, single-line JSON rendering for messages; long values are cut with an ellipsis. */
export function showValue(value: unknown, max = 200): string {
  let text: string;
  if (value === undefined) text = "undefined";
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `0 (number)`, `"x" (string)`, `null`, `[1,2] (array)`: a value and its JSON type. */
export function showTyped(value: unknown): string {
  return value === null ? "null" : `${showValue(value, 120)} (${jsonTypeOf(value)})`;
}

/** The JSON Schema type name of a value. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
