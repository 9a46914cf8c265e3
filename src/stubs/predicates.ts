/**
 * Predicates as matchers: what one said of a call (true, false, or a bug: a throw, a Promise,
 * another value), that verdict as a match and as report rows, and the predicates refused where
 * they are written (async and generator functions, which never say true).
 * @module
 */
import { showValue } from "../values/errors.js";
import type { FieldDiff } from "../values/json-value.js";
import type { TableRow } from "../values/table.js";

/** A predicate's verdict as a matcher's result (the shape of `Match`). */
export interface PredicateMatch {
  readonly distance: number;
  readonly diffs?: readonly FieldDiff[];
}

/**
 * What a predicate said: `ok` only for `true`. When it did not answer true or false (it threw,
 * or returned a Promise or another value), `note` says so, for the report: a bug in the
 * predicate is the user's to see, not a plain "does not match".
 */
export interface Verdict {
  readonly ok: boolean;
  readonly note?: string;
}

const ACCEPTED: Verdict = { ok: true };
export const REFUSED: Verdict = { ok: false };

/** Runs a predicate; never throws (a throw is a refusal, with its note). */
export function judge(check: () => unknown): Verdict {
  let said: unknown;
  try {
    said = check();
  } catch (error) {
    return { ok: false, note: `the predicate threw ${error instanceof Error ? `${error.name}: ${error.message}` : showValue(error, 80)}` };
  }
  if (said === true) return ACCEPTED;
  if (said === false) return REFUSED;
  if (typeof (said as { then?: unknown } | null)?.then === "function") {
    return { ok: false, note: "the predicate returned a Promise, which is not true: decide synchronously, and await in the answer instead" };
  }
  return { ok: false, note: `the predicate returned ${showValue(said, 40)}, not true (only true matches: write a comparison, or !!value)` };
}

/** A predicate's verdict as a match: a refusal with a note carries it as a diff, for reports. */
export function predicateMatch(verdict: Verdict, path: string, source: string): PredicateMatch {
  if (verdict.ok) return { distance: 0 };
  if (verdict.note === undefined) return { distance: 1 };
  return { distance: 1, diffs: [{ path, expected: `accepted by ${source}`, actual: undefined, reason: verdict.note }] };
}

/** The row of a predicate, and below it the note when the predicate did not answer true or false. */
export function predicateRows(expected: string, actual: string, verdict: Verdict, what: string): TableRow[] {
  const row: TableRow = verdict.ok ? { expected, actual } : { expected, actual, mismatch: what };
  return verdict.note === undefined ? [row] : [row, { expected: "", actual: "", note: verdict.note }];
}

/**
 * Why a function cannot be a matching predicate, or `undefined` when it can: an async function
 * (or a generator) returns a Promise (an iterator), which never counts as a match, so the stub
 * would never answer. `dsl` names the call it was given to: `withArgsMatching`.
 */
export function predicateProblem(fn: Function, dsl: string): string | undefined {
  const tag = Object.prototype.toString.call(fn);
  if (tag !== "[object AsyncFunction]" && tag !== "[object AsyncGeneratorFunction]" && tag !== "[object GeneratorFunction]") return undefined;
  const kind = tag === "[object AsyncFunction]" ? "an async function, whose Promise" : "a generator function, whose iterator";
  return (
    `${dsl} takes a synchronous predicate that returns true or false; ${predicateSource(fn)} is ${kind} never counts as a match, so the stub would never answer. ` +
    "Decide from the request alone (args => args.city === \"Paris\"), and do any awaiting in the answer: .respondsWith(async (call) => ...)."
  );
}

/** A predicate's source on one line, cut at 80 characters: how stub sentences show it. */
export function predicateSource(fn: Function): string {
  const source = Function.prototype.toString.call(fn).replace(/\s+/g, " ");
  return source.length > 80 ? `${source.slice(0, 79)}…` : source;
}
