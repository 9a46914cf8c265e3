/**
 * Graded matching for reports: how far a call is from a stub, or a journal entry from a
 * pattern (identity parts first: method, then tool name or URI; then the details), and the
 * near-miss text with the closest one as an expected | received table.
 * @module
 */
import type { McpCall } from "../stubs/call.js";
import { KEY_BY_METHOD } from "../protocol/methods/index.js";
import { showDiff, type FieldDiff } from "../values/json-value.js";
import type { JournalEntry } from "./entry.js";
import { matchesAll, type Matcher } from "../stubs/matchers.js";
import type { StubEntry } from "../stubs/registry.js";
import { renderTable, type TableRow } from "../values/table.js";

/** What is matched: a stub's or a pattern's method, key and matchers. */
export interface PatternParts {
  readonly method: string;
  readonly key?: string;
  readonly matchers: readonly Matcher[];
}

/**
 * How far a call is from a pattern, for ranking: 0 is a match, up to 1 the details differ,
 * 2 to 3 the tool name or URI differs, 4 another method.
 */
export interface Grade {
  readonly distance: number;
  readonly diffs: readonly FieldDiff[];
}

/** How many near misses a report shows. */
export const NEAR_MISSES_SHOWN = 3;

/** How many differences a report lists for each near miss after the closest. */
const DIFFS_SHOWN = 6;

/**
 * How reports name what a method's stubs are keyed by (its descriptor's noun: `tool name`,
 * `prompt name`, `URI`). Only keyed entry points give a pattern a key, so the fallback is
 * for hand-made patterns and says what it always said.
 */
function keyName(method: string): string {
  return KEY_BY_METHOD.get(method)?.noun ?? "tool name";
}

/** Grades a call against a pattern: identity (method, then key) first, then the details. */
export function grade(pattern: PatternParts, call: McpCall): Grade {
  if (pattern.method !== call.method) return { distance: 4, diffs: [{ path: "method", expected: pattern.method, actual: call.method, reason: "differs" }] };
  const diffs: FieldDiff[] = [];
  let sum = 0;
  for (const m of pattern.matchers) {
    const r = m.match(call);
    sum += r.distance;
    // One by one, and only as many as a report shows: a received object of 100,000 fields
    // gives as many diffs (a spread overflowed the stack; kept, they would hold every stub's).
    if (r.diffs) for (const d of r.diffs) if (diffs.push(d) >= DIFFS_SHOWN) break;
  }
  const detail = pattern.matchers.length ? sum / pattern.matchers.length : 0;
  if (pattern.key !== undefined && pattern.key !== call.key) {
    diffs.unshift({ path: keyName(call.method), expected: pattern.key, actual: call.key, reason: call.key === undefined ? "missing" : "differs" });
    return { distance: 2 + detail, diffs };
  }
  return { distance: detail, diffs };
}

/** Whether a call matches a pattern exactly. */
export function matchesPattern(pattern: PatternParts, call: McpCall): boolean {
  if (pattern.method !== call.method) return false;
  if (pattern.key !== undefined && pattern.key !== call.key) return false;
  return matchesAll(pattern.matchers, call);
}

/**
 * The identity phrase of a stub, pattern or call: `tools/call "add"`, `ping`, and for an
 * unkeyed one what its descriptor calls it (`tools/call of any tool`).
 */
export function methodTarget(method: string, key: string | undefined): string {
  if (key !== undefined) return `${method} ${JSON.stringify(key)}`;
  return KEY_BY_METHOD.get(method)?.unkeyed ?? method;
}

/** The rows comparing one pattern with one call: identity first, then each matcher's fields. */
export function comparisonRows(pattern: PatternParts, call: McpCall): TableRow[] {
  const identity: TableRow = {
    expected: methodTarget(pattern.method, pattern.key),
    actual: methodTarget(call.method, call.key),
    ...(pattern.method !== call.method
      ? { mismatch: "method" }
      : pattern.key !== undefined && pattern.key !== call.key
        ? { mismatch: keyName(call.method) }
        : {}),
  };
  return [identity, ...pattern.matchers.flatMap((m) => m.rows(call))];
}

/** The expected | received table for one pattern and one call. */
export function comparisonTable(pattern: PatternParts, call: McpCall, indent = "  "): string[] {
  return renderTable(comparisonRows(pattern, call), indent);
}

/** A stub and how far a call is from it. */
export interface StubMiss extends Grade {
  readonly entry: StubEntry;
  /** Matched, but its `times` are used up (or its scenario is elsewhere). */
  readonly exhausted: boolean;
}

/** Grades every candidate stub against a call, closest first. */
export function rankStubs(call: McpCall, candidates: readonly StubEntry[]): StubMiss[] {
  return candidates
    .map((entry) => {
      const g = grade(entry.stub, call);
      const exhausted = g.distance === 0 && entry.stub.times !== undefined && entry.hits >= entry.stub.times;
      return { entry, ...g, exhausted };
    })
    .sort((a, b) => a.distance - b.distance);
}

/** A journal entry and how far it is from a pattern. */
export interface RequestMiss extends Grade {
  readonly entry: JournalEntry;
}

/**
 * Grades journal entries against a pattern, closest first. Requests to other methods are
 * shown only when none was to the pattern's method.
 */
export function rankRequests(pattern: PatternParts, entries: readonly JournalEntry[]): RequestMiss[] {
  const out: RequestMiss[] = [];
  for (const entry of entries) if (entry.call) out.push({ entry, ...grade(pattern, entry.call) });
  const sameMethod = out.filter((m) => m.distance < 4);
  return (sameMethod.length > 0 ? sameMethod : out).sort((a, b) => a.distance - b.distance);
}

/** Near misses among stubs: the closest as a table, the next two as a sentence and their differences. */
export function renderStubMisses(call: McpCall, misses: readonly StubMiss[], sentence: (e: StubEntry) => string): string[] {
  const lines: string[] = [];
  misses.slice(0, NEAR_MISSES_SHOWN).forEach((miss, i) => {
    lines.push(`  ${i + 1}. ${sentence(miss.entry)}   [${miss.entry.stub.id}]`);
    if (miss.exhausted) lines.push(`       it matches, but it has answered its ${miss.entry.stub.times} call(s) already (times)`);
    if (i === 0 && !miss.exhausted) lines.push(...comparisonTable(miss.entry.stub, call, "       "));
    else for (const diff of miss.diffs.slice(0, DIFFS_SHOWN)) lines.push(`       ${showDiff(diff)}`);
  });
  if (misses.length > NEAR_MISSES_SHOWN) lines.push(`  … and ${misses.length - NEAR_MISSES_SHOWN} more`);
  return lines;
}

/** Near misses among received requests, for a failed verification. */
export function renderRequestMisses(pattern: PatternParts, misses: readonly RequestMiss[], describe: (e: JournalEntry) => string): string[] {
  const lines: string[] = [];
  misses.slice(0, NEAR_MISSES_SHOWN).forEach((miss, i) => {
    lines.push(`  ${i + 1}. ${describe(miss.entry)}`);
    if (i === 0) lines.push(...comparisonTable(pattern, miss.entry.call as McpCall, "       "));
    else for (const diff of miss.diffs.slice(0, DIFFS_SHOWN)) lines.push(`       ${showDiff(diff)}`);
  });
  if (misses.length > NEAR_MISSES_SHOWN) lines.push(`  … and ${misses.length - NEAR_MISSES_SHOWN} more`);
  return lines;
}
