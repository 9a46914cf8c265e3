/**
 * The exact parts of an argument pattern (`withArgs({ q: "x", id: ANY })`,
 * `withArgsMatching({ q: "x" })`): the top-level fields a matching call must hold exactly, and
 * the key of their values, which the registry indexes pattern stubs by.
 * @module
 */
import { canonicalJson } from "../values/json-value.js";
import { holdsPattern } from "../values/value-patterns.js";

/** The exact parts of an argument pattern: field names (sorted) and the key of their values. */
export interface ArgsFields {
  readonly names: readonly string[];
  readonly key: string;
}

/** The key of these fields' values in `args`; `undefined` when one is missing (then nothing with them can match). */
export function fieldsKey(names: readonly string[], args: Record<string, unknown>): string | undefined {
  let key = "";
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const value = Object.hasOwn(args, name) ? args[name] : undefined;
    if (value === undefined) return undefined;
    // Tagged, so a string and the number it spells differ; objects in canonical JSON.
    key += typeof value === "string" ? `s${value}\u0000` : typeof value === "number" ? `n${value}\u0000` : `j${canonicalJson(value)}\u0000`;
  }
  return key;
}

/**
 * The fields of an argument pattern a matching call must hold exactly: with `partial`
 * (containing), the top-level fields whose value is a plain scalar; otherwise every top-level
 * field whose value holds no pattern (`ANY`, `contains`...).
 */
export function exactFieldsOf(expected: Record<string, unknown>, partial: boolean): ArgsFields | undefined {
  const names = Object.keys(expected)
    .filter((name) => {
      const value = expected[name];
      return value !== undefined && (partial ? value === null || typeof value !== "object" : !holdsPattern(value));
    })
    .sort();
  const key = names.length === 0 ? undefined : fieldsKey(names, expected);
  return key === undefined ? undefined : { names, key };
}
