/**
 * Value patterns: what may stand in an expected value where a plain JSON value would have to
 * match exactly. `ANY` (any value, or none), a `RegExp` (a string it matches), `contains(text)`
 * (a string holding the text) and `ABSENT` (no value at all). Definition files and the admin API
 * write them as data: `{ "$any": true }`, `{ "$regex": "^err" }`, `{ "$contains": "text" }`,
 * `{ "$absent": true }`, and `{ "$literal": ... }` for a value that only looks like one.
 * @module
 */
import { ANY, isAny, type AnyValue } from "./any.js";
import { McpMockError, showValue } from "./errors.js";

/**
 * The type of {@link ABSENT}.
 *
 * @example
 * ```ts
 * import { ABSENT, McpMock, type AbsentValue } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "search", inputSchema: { type: "object" } }] });
 * const firstPage: { page: AbsentValue } = { page: ABSENT };
 * mock.toolsCall("search").withArgsMatching(firstPage).respondsWith({ page: 1 });
 * ```
 * @category Stubbing
 */
export interface AbsentValue {
  /** Always `"ABSENT"`: marks the pattern. */
  readonly kind: "ABSENT";
  /** Returns `"ABSENT"`. */
  toString(): string;
}

/**
 * Matches a field that is not there: `withArgs({ query: "x", page: ABSENT })` accepts
 * `{ "query": "x" }` and refuses `{ "query": "x", "page": 2 }`. In a definition file:
 * `{ "$absent": true }`.
 *
 * @example
 * ```ts
 * import { McpMock, ABSENT } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "search", inputSchema: { type: "object" } }] });
 * mock.toolsCall("search").withArgsMatching({ page: ABSENT }).respondsWith({ page: 1 });
 * ```
 * @category Stubbing
 */
export const ABSENT: AbsentValue = Object.freeze({ kind: "ABSENT" as const, toString: () => "ABSENT" });

/**
 * The type of what {@link contains} returns.
 *
 * @example
 * ```ts
 * import { McpMock, contains, type ContainsValue } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "search", inputSchema: { type: "object" } }] });
 * const weather: ContainsValue = contains("weather");
 * console.log(weather.text, String(weather)); // weather contains("weather")
 * mock.toolsCall("search").withArgs({ query: weather }).respondsWith({ hits: 3 });
 * ```
 * @category Stubbing
 */
export interface ContainsValue {
  /** Always `"contains"`: marks the pattern. */
  readonly kind: "contains";
  /** The text the string must hold. */
  readonly text: string;
  /** The DSL that writes it: `contains("text")`. */
  toString(): string;
}

/**
 * Matches a string that holds `text`: `withArgs({ query: contains("weather") })`. In a definition
 * file: `{ "$contains": "weather" }`.
 *
 * @example
 * ```ts
 * import { McpMock, contains } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "search", inputSchema: { type: "object" } }] });
 * mock.toolsCall("search").withArgs({ query: contains("weather") }).respondsWith({ hits: 3 });
 * ```
 * @category Stubbing
 */
export function contains(text: string): ContainsValue {
  if (typeof text !== "string") throw new McpMockError(`contains(text) takes a string, received ${showValue(text)}.`);
  return Object.freeze({ kind: "contains" as const, text, toString: () => `contains(${JSON.stringify(text)})` });
}

/**
 * Anything that may stand in an expected value instead of a JSON value.
 *
 * @example
 * ```ts
 * import { ABSENT, ANY, McpMock, contains, type ValuePattern } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "search", inputSchema: { type: "object" } }] });
 * const expected: Record<string, ValuePattern> = { query: contains("weather"), lang: /^en/, page: ABSENT, user: ANY };
 * mock.toolsCall("search").withArgs(expected).respondsWith({ hits: 3 });
 * ```
 * @category Stubbing
 */
export type ValuePattern = AnyValue | AbsentValue | ContainsValue | RegExp;

/** Whether a value in an expected value is a pattern rather than JSON to compare. */
export function isValuePattern(value: unknown): value is ValuePattern {
  if (value === null || typeof value !== "object") return false;
  if (isAny(value) || value === ABSENT || value instanceof RegExp) return true;
  return Object.isFrozen(value) && (value as { kind?: unknown }).kind === "contains" && typeof (value as { text?: unknown }).text === "string";
}

/** Whether a received value (`undefined`: missing) matches a pattern. */
export function matchesPattern(pattern: ValuePattern, actual: unknown): boolean {
  if (isAny(pattern)) return true;
  if (pattern === ABSENT) return actual === undefined;
  if (actual === undefined || typeof actual !== "string") return false;
  if (pattern instanceof RegExp) {
    // A global or sticky RegExp keeps state in lastIndex: test a fresh copy (from index 0), so
    // one call never changes the next, the user's own RegExp is left as it is, and a frozen
    // one (whose lastIndex cannot be written) still matches.
    return (pattern.global || pattern.sticky ? new RegExp(pattern) : pattern).test(actual);
  }
  return actual.includes((pattern as ContainsValue).text);
}

/** Whether an expected value holds a pattern anywhere (then it cannot be matched by its canonical JSON). */
export function holdsPattern(value: unknown): boolean {
  if (isValuePattern(value)) return true;
  if (value === null || typeof value !== "object") return false;
  return (Array.isArray(value) ? value : Object.values(value)).some(holdsPattern);
}

/** An expected value as JSON with its patterns written the DSL's way: `{"city":ANY,"q":/^a/}`. */
export function showExpected(value: unknown, max = 200): string {
  const patterns: string[] = [];
  let text: string;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => (isValuePattern(v) ? `\u0000${patterns.push(String(v)) - 1}\u0000` : v)) ?? String(value);
  } catch {
    text = String(value);
  }
  if (patterns.length > 0) text = text.replace(/"\\u0000(\d+)\\u0000"/g, (_m, i: string) => patterns[Number(i)] as string);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Says where a data-form value is wrong and why (the default throws `<path>: <reason>`). */
export type DataFormFailure = (path: string, reason: string) => never;

const failHere: DataFormFailure = (path, reason) => {
  throw new McpMockError(`${path}: ${reason}`);
};

/** The data-form keys, what each stands for, and an example of its argument. */
const DATA_FORMS: Readonly<Record<string, { readonly example: string; make(argument: unknown): ValuePattern | string }>> = {
  $any: { example: "true", make: (argument) => (argument === true ? ANY : "takes true") },
  $absent: { example: "true", make: (argument) => (argument === true ? ABSENT : "takes true") },
  $contains: { example: '"text"', make: (argument) => (typeof argument === "string" ? contains(argument) : "takes a string") },
  $regex: {
    example: '"^err"',
    make: (argument) => {
      if (typeof argument !== "string") return "takes a regular expression as a string";
      try {
        return new RegExp(argument, "u");
      } catch (error) {
        return `is not a valid regular expression (${(error as Error).message}); write JavaScript's RegExp source`;
      }
    },
  },
};

/**
 * Reads the data form of an expected value: `{ "$any": true }` becomes `ANY`, `{ "$regex": "^a" }`
 * a RegExp, `{ "$contains": "x" }` `contains("x")`, `{ "$absent": true }` `ABSENT`, and
 * `{ "$literal": v }` the value `v` as it is. An object with one key that starts with `$` and is
 * none of these is refused (with the keys that exist), so a typo does not silently become a
 * literal. `path` names the value in messages.
 */
export function fromDataForm(value: unknown, path: string, fail: DataFormFailure = failHere): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item, i) => fromDataForm(item, `${path}[${i}]`, fail));
  const keys = Object.keys(value);
  const only = keys.length === 1 ? (keys[0] as string) : undefined;
  if (only !== undefined && only.startsWith("$")) {
    const argument = (value as Record<string, unknown>)[only];
    if (only === "$literal") return argument;
    const form = DATA_FORMS[only];
    if (!form) {
      return fail(
        path,
        `${JSON.stringify(only)} is not a data-form matcher. Use one of ${[...Object.keys(DATA_FORMS), "$literal"].join(", ")}; for an object that really has this key, write { "$literal": ${showValue(value, 80)} }.`,
      );
    }
    const made = form.make(argument);
    if (typeof made !== "string") return made;
    return fail(path, `{ "${only}": ${showValue(argument, 60)} }: ${only} ${made}, for example { "${only}": ${form.example} }.`);
  }
  // Object.fromEntries defines own properties: a "__proto__" key stays a key.
  return Object.fromEntries(keys.map((key) => [key, fromDataForm((value as Record<string, unknown>)[key], `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`, fail)]));
}
