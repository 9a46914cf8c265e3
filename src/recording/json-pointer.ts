/**
 * JSON Pointers (RFC 6901) for `--redact` and `--ignore`: parse one, and replace or drop
 * the value it names in a copy of a JSON value.
 * @module
 */

/** A parsed JSON Pointer: its reference tokens. */
export type Pointer = readonly string[];

/** Parses a JSON Pointer such as `/arguments/timestamp`; throws a message naming the form for anything else. */
export function parsePointer(text: string): Pointer {
  if (text === "") return [];
  if (!text.startsWith("/")) throw new Error(`${JSON.stringify(text)} is not a JSON Pointer: it starts with "/", like /arguments/timestamp`);
  return text
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * Parses the pointers one option was given; a mistake becomes the error `fail` makes of its
 * message (which names the option where it was given: `--redact`, `record({ redact })`).
 */
export function parsePointers(texts: readonly string[] | undefined, fail: (message: string) => Error): Pointer[] {
  return (texts ?? []).map((text) => {
    try {
      return parsePointer(text);
    } catch (error) {
      throw fail((error as Error).message);
    }
  });
}

/** Writes a pointer back as text. */
export function showPointer(pointer: Pointer): string {
  return pointer.map((t) => `/${t.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** Whether the pointer names a value inside `value`. */
export function has(value: unknown, pointer: Pointer): boolean {
  let at: unknown = value;
  for (const token of pointer) {
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, token)) return false;
    at = (at as Record<string, unknown>)[token];
  }
  return true;
}

/** A copy of `value` with what the pointer names replaced by `replacement` (`undefined` drops it); unchanged when it names nothing. */
export function replaceAt(value: unknown, pointer: Pointer, replacement: unknown): unknown {
  if (pointer.length === 0) return replacement;
  if (value === null || typeof value !== "object") return value;
  const [head, ...rest] = pointer as [string, ...string[]];
  if (!Object.hasOwn(value, head)) return value;
  const inner = replaceAt((value as Record<string, unknown>)[head], rest, replacement);
  if (Array.isArray(value)) {
    const copy = [...value];
    if (inner === undefined) copy.splice(Number(head), 1);
    else copy[Number(head)] = inner;
    return copy;
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (inner === undefined) delete copy[head];
  else copy[head] = inner;
  return copy;
}
