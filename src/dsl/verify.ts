/**
 * What McpMock's verification methods do: patterns checked against the mock's journal
 * (verify, findRequests, waitFor, verifyInOrder), and the end-of-test checks
 * (assertNoUnmatched, assertAllStubsUsed).
 * @module
 */
import { StubBuilder } from "./stub-builder.js";
import type { MockCore } from "../engine/core.js";
import { McpMockError } from "../values/errors.js";
import { MAX_DELAY_MS } from "../values/max-delay.js";
import { stubSentence } from "../journal/explain.js";
import type { JournalEntry } from "../journal/entry.js";
import type { PatternParts } from "../journal/near-miss.js";
import { describeEntry, findMatching, toExpectation, verifyCount, verifyOrder, waitForEntry, type CountExpectation, type ReportTerms } from "../journal/verification.js";

function patternOf(pattern: StubBuilder, where: string): PatternParts {
  if (!(pattern instanceof StubBuilder)) {
    throw new McpMockError(`${where} takes a pattern like toolsCall("add").withArgs({ a: 1 }) (import { toolsCall } from "mcpmock"), received ${typeof pattern}.`);
  }
  return pattern.pattern;
}

/** `mock.verify(pattern, count?)`. */
export function verifyRequests(core: MockCore, pattern: StubBuilder, count?: number | CountExpectation, terms: ReportTerms = "dsl"): JournalEntry[] {
  return verifyCount(core.journal, patternOf(pattern, "verify"), toExpectation(count), terms);
}

/** `mock.findRequests(pattern)`. */
export function findRequests(core: MockCore, pattern: StubBuilder): JournalEntry[] {
  return findMatching(core.journal, patternOf(pattern, "findRequests"));
}

/** `mock.waitFor(pattern, { timeout? })`. */
export function waitForRequest(core: MockCore, pattern: StubBuilder, options: { timeout?: number }): Promise<JournalEntry> {
  const timeout = options.timeout ?? 1000;
  if (!Number.isFinite(timeout) || timeout < 0) throw new McpMockError(`waitFor: timeout is milliseconds (0 or more), received ${timeout}.`);
  // Node fires a longer timer after 1 ms: waitFor would time out at once.
  if (timeout > MAX_DELAY_MS) throw new McpMockError(`waitFor: timeout is at most ${MAX_DELAY_MS} ms (about 24.8 days, the longest a timer holds), received ${timeout}.`);
  return waitForEntry(core.journal, patternOf(pattern, "waitFor"), timeout, core.closing.signal);
}

/** `mock.verifyInOrder(...patterns)`. */
export function verifyRequestsInOrder(core: MockCore, patterns: StubBuilder[]): JournalEntry[] {
  return verifyOrder(core.journal, patterns.map((p) => patternOf(p, "verifyInOrder")));
}

/** `mock.unmatched()`: the journal entries that got the miss answer. */
export function unmatchedRequests(core: MockCore): JournalEntry[] {
  return core.journal.entries().filter((e) => e.unmatched);
}

/** The misses `assertNoUnmatched` shows with their whole report; the next MISSES_LISTED get a line each. */
const MISSES_IN_FULL = 5;
const MISSES_LISTED = 20;

/**
 * `mock.assertNoUnmatched()`. Bounded: a client in a loop can miss thousands of times, and a
 * failure of megabytes is read by no one; the first misses carry their reports, the next a line
 * each, and `mock.unmatched()` has them all.
 */
export function assertNoUnmatched(core: MockCore): void {
  if (core.journal.missesExpected) return;
  const unmatched = unmatchedRequests(core);
  if (unmatched.length === 0) return;
  const lines = [`${unmatched.length} request(s) matched no stub:`, ...unmatched.slice(0, MISSES_IN_FULL).map((e) => `\n${describeEntry(e)}\n${e.missReport ?? ""}`)];
  const listed = unmatched.slice(MISSES_IN_FULL, MISSES_IN_FULL + MISSES_LISTED);
  if (listed.length > 0) {
    const rest = unmatched.length - MISSES_IN_FULL - listed.length;
    lines.push(`\nThe next ${listed.length}, without their reports:`, ...listed.map(describeEntry));
    if (rest > 0) lines.push(`… and ${rest} more.`);
    lines.push("mock.unmatched() lists every one, each with its report (entry.missReport).");
  }
  throw new McpMockError(lines.join("\n"));
}

/** `mock.allowUnmatched()`: requests that match no stub are expected (not reported, not refused) until `reset()`. */
export function allowUnmatched(core: MockCore): void {
  core.journal.missesExpected = true;
}

/** `mock.assertAllStubsUsed()`: every stub of the user's called at least its `times(n)`. */
export function assertAllStubsUsed(core: MockCore): void {
  const pending = core.registry
    .all()
    .filter((e) => e.stub.source !== "default" && !e.stub.optional && e.hits < (e.stub.times ?? 1));
  if (pending.length === 0) return;
  throw new McpMockError(
    [
      `${pending.length} stub(s) were not used:`,
      ...pending.map((e) => `  ${e.stub.id}: ${stubSentence(e.stub, e.hits)}`),
      "Mark a stub .optional() if the test does not need it called.",
    ].join("\n"),
  );
}
