/**
 * About how many bytes a JSON value takes as text, without writing it: what the journal counts
 * for the answers it keeps (`journalBytes`). Strings count their length, so a huge string costs
 * one step; the walk stops at `MAX_NODES` values and counts the rest as the budget's worth.
 * @module
 */

/** Values walked at most; a larger answer counts as `Infinity` (more than any budget). */
export const MAX_NODES = 100_000;

/** The approximate size of `value` as JSON text, in bytes (UTF-16 units for strings). */
export function approxJsonBytes(value: unknown): number {
  let bytes = 0;
  let nodes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    if (++nodes > MAX_NODES) return Infinity;
    const v = stack.pop();
    if (typeof v === "string") bytes += v.length + 2;
    else if (typeof v === "number" || typeof v === "boolean" || v === null || v === undefined) bytes += 6;
    else if (Array.isArray(v)) {
      bytes += 2 + v.length;
      for (const item of v) stack.push(item);
    } else if (typeof v === "object") {
      bytes += 2;
      for (const key in v) {
        bytes += key.length + 4;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return bytes;
}
