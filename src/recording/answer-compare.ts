/**
 * Comparing an answer a definition expects with the one a real server gave: exactly (every
 * field, except what `--ignore` pointers name) or by shape (`--shape`: the same `isError`,
 * the same content types, structured content valid against the declared `outputSchema`).
 * The result is the differences, one line each, in the near-miss style.
 * @module
 */
import { compileArgumentCheck } from "../stubs/schema-check.js";
import { replaceAt, showPointer, type Pointer } from "./json-pointer.js";
import { diffLines, diffWordsWithSpace } from "diff";
import { stableJson } from "./definition-writer.js";

/** A JSON-RPC answer: a result or an error. */
export interface Answer {
  /** The result, when the answer is one. */
  readonly result?: unknown;
  /** The error, when the answer is one. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** Values longer than this (as JSON), or texts of more than one line, are shown as a diff besides. */
const LONG = 80;

/** A value whole, as JSON: `(nothing)` for a missing one. */
export function show(value: unknown): string {
  return value === undefined ? "(nothing)" : JSON.stringify(value);
}

/**
 * One place where two answers differ, whole: the JSON Pointer of the place (`""` for the
 * whole value), the value expected and the one received (`undefined` when missing), and,
 * for long texts and objects, a line diff (`-` expected, `+` received, ` ` both).
 */
export interface Change {
  readonly at: string;
  readonly expected: unknown;
  readonly received: unknown;
  readonly diff?: string;
}

/** The places where two JSON values differ, whole. */
export function changesBetween(expected: unknown, actual: unknown, path: readonly string[] = []): Change[] {
  const bothObjects = expected !== null && actual !== null && typeof expected === "object" && typeof actual === "object" && Array.isArray(expected) === Array.isArray(actual);
  if (!bothObjects) {
    if (stableJson(expected) === stableJson(actual)) return [];
    const diff = longDiff(expected, actual);
    return [{ at: showPointer([...path]), expected, received: actual, ...(diff === undefined ? {} : { diff }) }];
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])];
  return keys.flatMap((k) => changesBetween(e[k], a[k], [...path, k]));
}

/** A change as report lines: `/path: expected X, received Y`, whole, then its diff indented. */
export function changeLines(change: Change, prefix = ""): string[] {
  const head = `${prefix}${change.at || "/"}: expected ${show(change.expected)}, received ${show(change.received)}`;
  if (change.diff === undefined) return [head];
  return [head, `  diff (- expected, + received):`, ...change.diff.split("\n").map((line) => `    ${line}`)];
}

/** The paths at which two JSON values differ, each as a line `/path: expected X, received Y` (whole). */
export function differences(expected: unknown, actual: unknown, path: string[] = []): string[] {
  return changesBetween(expected, actual, path).map((c) => `${c.at || "/"}: expected ${show(c.expected)}, received ${show(c.received)}`);
}

/** A text, or a text holding JSON, as lines to diff: JSON is laid out one field a line. */
function diffable(value: unknown): string | undefined {
  if (typeof value === "string") {
    try {
      const parsed: unknown = JSON.parse(value);
      if (parsed !== null && typeof parsed === "object") return JSON.stringify(parsed, null, 2);
    } catch {
      // not JSON: the text itself
    }
    return value;
  }
  if (value !== null && typeof value === "object") return JSON.stringify(value, null, 2);
  return undefined;
}

/** A line diff of two long values (texts, JSON in texts, objects); `undefined` for short ones. */
function longDiff(expected: unknown, actual: unknown): string | undefined {
  const [e, a] = [diffable(expected), diffable(actual)];
  if (e === undefined || a === undefined) return undefined;
  if (e.length <= LONG && a.length <= LONG && !e.includes("\n") && !a.includes("\n")) return undefined;
  // One long line each: by words, with the changed words marked in place.
  if (!e.includes("\n") && !a.includes("\n")) {
    return diffWordsWithSpace(e, a)
      .map((part) => (part.removed ? `[-${part.value}-]` : part.added ? `{+${part.value}+}` : part.value))
      .join("");
  }
  const lines: string[] = [];
  for (const part of diffLines(e, a)) {
    const mark = part.removed ? "-" : part.added ? "+" : " ";
    for (const line of part.value.replace(/\n$/, "").split("\n")) lines.push(`${mark} ${line}`);
  }
  return lines.join("\n");
}

function withoutIgnored(value: unknown, ignore: readonly Pointer[]): unknown {
  return ignore.reduce((v, p) => replaceAt(v, p, undefined), value);
}

/** The differences between two answers, exactly, leaving out what `ignore` names (pointers into the result). */
export function compareExact(expected: Answer, actual: Answer, ignore: readonly Pointer[] = []): string[] {
  return exactChanges(expected, actual, ignore).flatMap((c) => ("line" in c ? [c.line] : changeLines(c)));
}

/** The differences between two answers, exactly: each place whole, or a line that says what kind of answer came instead. */
export function exactChanges(expected: Answer, actual: Answer, ignore: readonly Pointer[] = []): Array<Change | { readonly line: string }> {
  if (expected.error || actual.error) {
    if (!expected.error) return [{ line: `expected a result, received error ${actual.error!.code} ${show(actual.error!.message)}` }];
    if (!actual.error) return [{ line: `expected error ${expected.error.code} ${show(expected.error.message)}, received a result ${show(actual.result)}` }];
    const { data, ...rest } = expected.error;
    const e = data === undefined ? rest : expected.error;
    const a = data === undefined ? { code: actual.error.code, message: actual.error.message } : actual.error;
    return changesBetween(e, a, ["error"]);
  }
  return changesBetween(withoutIgnored(expected.result, ignore), withoutIgnored(actual.result, ignore));
}

type Json = Record<string, unknown>;

function contentTypes(result: unknown): string[] {
  const content = (result as Json | undefined)?.["content"];
  return Array.isArray(content) ? content.map((c) => String((c as Json | null)?.["type"])) : [];
}

/**
 * The differences in shape: for a tool answer the same `isError`, the same content types in
 * order and structured content valid against `outputSchema`; for another method the same
 * top-level fields; for errors the same code.
 */
export function compareShape(expected: Answer, actual: Answer, options: { tool: boolean; outputSchema?: unknown }): string[] {
  if (expected.error || actual.error) {
    if (!expected.error || !actual.error) return compareExact(expected, actual);
    return expected.error.code === actual.error.code ? [] : [`error code: expected ${expected.error.code}, received ${actual.error.code} ${show(actual.error.message)}`];
  }
  const e = (expected.result ?? {}) as Json;
  const a = (actual.result ?? {}) as Json;
  const lines: string[] = [];
  if (!options.tool) {
    const [ek, ak] = [Object.keys(e).sort(), Object.keys(a).sort()];
    if (stableJson(ek) !== stableJson(ak)) lines.push(`fields: expected ${show(ek)}, received ${show(ak)}`);
    return lines;
  }
  if ((e["isError"] === true) !== (a["isError"] === true)) lines.push(`/isError: expected ${e["isError"] === true}, received ${a["isError"] === true}`);
  const [et, at] = [contentTypes(e), contentTypes(a)];
  if (stableJson(et) !== stableJson(at)) lines.push(`content types: expected ${show(et)}, received ${show(at)}`);
  if (options.outputSchema !== undefined && a["isError"] !== true) {
    if (a["structuredContent"] === undefined) lines.push("/structuredContent: the tool declares an outputSchema, received none");
    else {
      const violations = compileArgumentCheck(options.outputSchema as Json, "the declared outputSchema")(a["structuredContent"]);
      for (const v of violations) lines.push(`/structuredContent: ${v.path.replace(/^args/, "structuredContent")} ${v.expectation}, received ${show(v.received)} (outputSchema rule "${v.rule}")`);
    }
  }
  return lines;
}
