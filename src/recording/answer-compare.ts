/**
 * Comparing an answer a definition expects with the one a real server gave: exactly (every
 * field, except what `--ignore` pointers name) or by shape (`--shape`: the same `isError`,
 * the same content types, structured content valid against the declared `outputSchema`).
 * The result is the differences, one line each, in the near-miss style.
 * @module
 */
import { compileArgumentCheck } from "../stubs/schema-check.js";
import { replaceAt, showPointer, type Pointer } from "./json-pointer.js";
import { stableJson } from "./definition-writer.js";

/** A JSON-RPC answer: a result or an error. */
export interface Answer {
  /** The result, when the answer is one. */
  readonly result?: unknown;
  /** The error, when the answer is one. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** Longest value shown in a difference line. */
const SHOW_MAX = 120;

function show(value: unknown): string {
  if (value === undefined) return "(nothing)";
  const text = JSON.stringify(value);
  return text.length > SHOW_MAX ? `${text.slice(0, SHOW_MAX - 1)}…` : text;
}

/** The paths at which two JSON values differ, each as a line `/path: expected X, received Y`. */
export function differences(expected: unknown, actual: unknown, path: string[] = []): string[] {
  const bothObjects = expected !== null && actual !== null && typeof expected === "object" && typeof actual === "object" && Array.isArray(expected) === Array.isArray(actual);
  if (!bothObjects) return stableJson(expected) === stableJson(actual) ? [] : [`${showPointer(path) || "/"}: expected ${show(expected)}, received ${show(actual)}`];
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])];
  return keys.flatMap((k) => differences(e[k], a[k], [...path, k]));
}

function withoutIgnored(value: unknown, ignore: readonly Pointer[]): unknown {
  return ignore.reduce((v, p) => replaceAt(v, p, undefined), value);
}

/** The differences between two answers, exactly, leaving out what `ignore` names (pointers into the result). */
export function compareExact(expected: Answer, actual: Answer, ignore: readonly Pointer[] = []): string[] {
  if (expected.error || actual.error) {
    if (!expected.error) return [`expected a result, received error ${actual.error!.code} ${show(actual.error!.message)}`];
    if (!actual.error) return [`expected error ${expected.error.code} ${show(expected.error.message)}, received a result ${show(actual.result)}`];
    const { data, ...rest } = expected.error;
    const e = data === undefined ? rest : expected.error;
    const a = data === undefined ? { code: actual.error.code, message: actual.error.message } : actual.error;
    return differences(e, a, ["error"]);
  }
  return differences(withoutIgnored(expected.result, ignore), withoutIgnored(actual.result, ignore));
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
