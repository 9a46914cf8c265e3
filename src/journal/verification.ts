/**
 * Verification over the journal: counts, order, waiting, and failure messages that show the
 * closest requests as an expected | received table (WireMock's near misses).
 * @module
 */
import { McpMockError, PREFIX, showValue } from "../values/errors.js";
import type { Journal } from "./journal.js";
import type { JournalEntry } from "./entry.js";
import type { McpCall } from "../stubs/call.js";
import { ARGUMENT_METHODS } from "../protocol/methods/index.js";
import { supportedRevision } from "../protocol/revisions.js";
import { comparisonRows, matchesPattern, methodTarget, rankRequests, renderRequestMisses, type PatternParts, type RequestMiss } from "./near-miss.js";

/**
 * How many matching requests a verification expects.
 *
 * @example
 * ```ts
 * import { toolsCall, atLeast } from "mcpmock";
 * mock.verify(toolsCall("add"), atLeast(2));
 * ```
 * @category Verification
 */
export interface CountExpectation {
  /** `exactly 2 times`, `at least once`, `never`. */
  readonly description: string;
  /** Whether `n` matching requests satisfy it. */
  test(n: number): boolean;
}

function times(n: number): string {
  return n === 1 ? "once" : n === 2 ? "twice" : `${n} times`;
}

function checkCount(n: number, helper: string): void {
  // A number as written (JSON would show Infinity and NaN as null).
  if (!Number.isInteger(n) || n < 0) throw new McpMockError(`${helper}(${typeof n === "number" ? String(n) : showValue(n)}): the count must be a whole number, 0 or more.`);
}

/**
 * Exactly `n` matching requests (`mock.verify(pattern, n)` means the same).
 *
 * @example
 * ```ts
 * import { toolsCall, exactly } from "mcpmock";
 * mock.verify(toolsCall("add"), exactly(2));
 * ```
 * @category Verification
 */
export function exactly(n: number): CountExpectation {
  checkCount(n, "exactly");
  return { description: n === 0 ? "never" : `exactly ${times(n)}`, test: (k) => k === n };
}

/**
 * At least `n` matching requests.
 *
 * @example
 * ```ts
 * import { toolsCall, atLeast } from "mcpmock";
 * mock.verify(toolsCall("add"), atLeast(1));
 * ```
 * @category Verification
 */
export function atLeast(n: number): CountExpectation {
  checkCount(n, "atLeast");
  return { description: `at least ${times(n)}`, test: (k) => k >= n };
}

/**
 * At most `n` matching requests.
 *
 * @example
 * ```ts
 * import { toolsCall, atMost } from "mcpmock";
 * mock.verify(toolsCall("add"), atMost(3));
 * ```
 * @category Verification
 */
export function atMost(n: number): CountExpectation {
  checkCount(n, "atMost");
  return { description: `at most ${times(n)}`, test: (k) => k <= n };
}

/**
 * No matching request at all.
 *
 * @example
 * ```ts
 * import { toolsCall, never } from "mcpmock";
 * mock.verify(toolsCall("delete_everything"), never());
 * ```
 * @category Verification
 */
export function never(): CountExpectation {
  return { description: "never", test: (k) => k === 0 };
}

/** A count argument as an expectation: none is "at least once", a number is "exactly". */
export function toExpectation(count: number | CountExpectation | undefined): CountExpectation {
  if (count === undefined) return atLeast(1);
  if (typeof count === "number") return exactly(count);
  if (count && typeof count.test === "function") return count;
  throw new McpMockError(`verify takes a count as a number or exactly(n) / atLeast(n) / atMost(n) / never(), received ${showValue(count)}.`);
}

/**
 * A failed verification. `expected` and `actual` hold the two columns of the closest
 * request's table, so test runners show them as a diff.
 *
 * @example
 * ```ts
 * import { McpMock, VerificationError, toolsCall } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "add", inputSchema: { type: "object" } }] });
 * try {
 *   mock.verify(toolsCall("add"));
 * } catch (e) {
 *   if (e instanceof VerificationError) console.log(e.expected, e.actual);
 * }
 * ```
 * @category Verification
 */
export class VerificationError extends McpMockError {
  override readonly name = "VerificationError";
  /** The pattern side of the closest comparison (one line per field). */
  readonly expected: string;
  /** The received side of the closest comparison (one line per field). */
  readonly actual: string;
  /** @internal */
  constructor(message: string, expected: string, actual: string) {
    super(message);
    this.expected = expected;
    this.actual = actual;
  }
}

/** One journal entry in a few words: `#3 tools/call "add" {"a":1} in session-1`. */
export function describeEntry(entry: JournalEntry): string {
  const what = entry.call?.key;
  const params = entry.call !== undefined && ARGUMENT_METHODS.has(entry.call.method) ? entry.call.args : entry.params;
  const shown = entry.truncated ? ` [params not kept: ${entry.truncated.bytes} bytes, over journalBytes]` : params === undefined ? "" : ` ${showValue(params, 120)}`;
  return (
    `#${entry.seq} ${entry.method ?? entry.kind}${what === undefined ? "" : ` ${JSON.stringify(what)}`}` +
    `${shown}${entry.sessionId === undefined ? "" : ` in ${entry.sessionId}`}`
  );
}

/** A pattern in words: `tools/call "add" with arguments equal to {"a":1}`. */
export function patternPhrase(pattern: PatternParts): string {
  let phrase = methodTarget(pattern.method, pattern.key);
  for (const m of pattern.matchers) phrase += ` ${m.describe()}`;
  return phrase;
}

/**
 * Whether an entry is a 2026-07-28 retry (it carries a `requestState`): the next round of a
 * request already journaled, so that an exchange of rounds counts once, as the same call does in
 * a session (where the client's answers are responses, not requests).
 */
export function isInputRound(entry: JournalEntry): boolean {
  return entry.kind === "request" && typeof entry.params?.["requestState"] === "string" && supportedRevision(entry.protocolVersion).stateless;
}

/** The journal entries a pattern matches, oldest first (an exchange of input rounds counts once). */
export function findMatching(journal: Journal, pattern: PatternParts): JournalEntry[] {
  return journal.entries().filter((e) => e.call !== undefined && !isInputRound(e) && matchesPattern(pattern, e.call));
}

/** Checks a count; throws a {@link VerificationError} with the near misses when it does not hold. */
/** Where a verification report points for more: the DSL's names, or the admin API's routes. */
export type ReportTerms = "dsl" | "admin";

export function verifyCount(journal: Journal, pattern: PatternParts, count: CountExpectation, terms: ReportTerms = "dsl"): JournalEntry[] {
  const matching = findMatching(journal, pattern);
  if (count.test(matching.length)) return matching;
  const lines = [
    `${PREFIX} Expected ${patternPhrase(pattern)} ${count.description}, but received it ${matching.length === 0 ? "never" : times(matching.length)}.`,
  ];
  if (matching.length > 0) lines.push("Matching requests:", ...matching.slice(0, 10).map((e) => `  ${describeEntry(e)}`));
  const others = rankRequests(
    pattern,
    journal.entries().filter((e) => !matching.includes(e)),
  ).filter((m) => m.entry.kind === "request" || m.entry.kind === "notification");
  let expected = "";
  let actual = "";
  if (matching.length === 0 && others.length > 0) {
    lines.push("Closest requests received:", ...renderRequestMisses(pattern, others, describeEntry));
    const rows = comparisonRows(pattern, (others[0] as RequestMiss).entry.call as McpCall);
    // A note row (what a predicate threw) is in the message; the diff compares values.
    const compared = rows.filter((r) => r.note === undefined);
    expected = compared.map((r) => r.expected).join("\n");
    actual = compared.map((r) => r.actual).join("\n");
  } else if (matching.length === 0) {
    lines.push(`No requests were received at all. Is the client pointed at ${terms === "admin" ? "the mock's MCP URL" : "mock.url"}?`);
  }
  const kept = journal.entries().length;
  const since = journal.total - journal.clearedAt;
  // One count in one unit: messages (requests, notifications, answers) since the start, split at the reset.
  if (journal.clearedAt > 0) lines.push(`Messages received in all: ${journal.total}. The journal was reset (${terms === "admin" ? "POST /__admin/reset" : "reset() or resetJournal()"}) after ${plural(journal.clearedAt, "message")}; verification sees the ${since} received since.`);
  else if (journal.total > 0) lines.push(`Requests received in all: ${journal.total}.`);
  if (kept < since) lines.push(`The journal keeps the last ${kept} (journalSize, journalBytes); verification sees only those.`);
  const truncated = journal.truncatedCount;
  if (truncated > 0) {
    lines.push(`${truncated} kept without its params (each over journalBytes, ${journal.budget} bytes): a pattern on arguments cannot match them. Raise journalBytes to keep them.`);
  }
  if (matching.length === 0 && journal.total > 0) lines.push(`To see everything received: ${terms === "admin" ? "GET /__admin/requests" : "mock.requests()"}.`);
  throw new VerificationError(lines.join("\n"), expected || `${count.description}`, actual || times(matching.length));
}

/** Checks that requests matching each pattern arrived in this order (others may come between). */
export function verifyOrder(journal: Journal, patterns: readonly PatternParts[]): JournalEntry[] {
  const entries = journal.entries();
  const found: JournalEntry[] = [];
  let from = 0;
  for (let i = 0; i < patterns.length; i++) {
    const pattern = patterns[i] as PatternParts;
    const index = entries.findIndex((e, j) => j >= from && e.call !== undefined && matchesPattern(pattern, e.call));
    if (index < 0) {
      const earlier = findMatching(journal, pattern).find((e) => !found.includes(e));
      const last = found[found.length - 1];
      const lines = [
        `${PREFIX} Expected these requests in this order:`,
        ...patterns.map((p, k) => `  ${k < i ? "✓" : k === i ? "✗" : " "} ${k + 1}. ${patternPhrase(p)}${k < i ? `   (${describeEntry(found[k] as JournalEntry)})` : ""}`),
        earlier && last
          ? `Request ${i + 1} was received (${describeEntry(earlier)}), but before ${describeEntry(last)}, not after it.`
          : `Request ${i + 1} was never received${last ? ` after ${describeEntry(last)}` : ""}.`,
        "Received, in order:",
        ...entries.filter((e) => e.call !== undefined).slice(-20).map((e) => `  ${describeEntry(e)}`),
      ];
      throw new VerificationError(lines.join("\n"), patterns.map(patternPhrase).join("\n"), entries.map(describeEntry).join("\n"));
    }
    found.push(entries[index] as JournalEntry);
    from = index + 1;
  }
  return found;
}

/**
 * Resolves with the first entry matching a pattern, already received or arriving within
 * `timeout` ms. It resolves on arrival: a streamed answer may still be running.
 */
export function waitForEntry(journal: Journal, pattern: PatternParts, timeout: number, closing: AbortSignal): Promise<JournalEntry> {
  const existing = findMatching(journal, pattern)[0];
  if (existing) return Promise.resolve(existing);
  return new Promise((resolve, reject) => {
    const finish = (): void => {
      clearTimeout(timer);
      unsubscribe();
      closing.removeEventListener("abort", onClose);
    };
    const unsubscribe = journal.onRecord((entry) => {
      if (entry.call && matchesPattern(pattern, entry.call)) {
        finish();
        resolve(entry);
      }
    });
    const onClose = (): void => {
      finish();
      reject(new McpMockError(`waitFor(${patternPhrase(pattern)}): the mock closed before such a request arrived.`));
    };
    closing.addEventListener("abort", onClose);
    const timer = setTimeout(() => {
      finish();
      try {
        verifyCount(journal, pattern, atLeast(1));
        reject(new McpMockError(`waitFor(${patternPhrase(pattern)}) timed out after ${timeout} ms.`));
      } catch (error) {
        const e = error as VerificationError;
        reject(new VerificationError(e.message.replace(`${PREFIX} Expected`, `${PREFIX} waitFor timed out after ${timeout} ms. Expected`), e.expected, e.actual));
      }
    }, timeout);
  });
}

/** `1 message`, `2 messages`. */
function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
