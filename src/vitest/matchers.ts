/**
 * `installMatchers()`: `expect(mock).toHaveReceived(pattern)` and
 * `expect(mock).toHaveReceivedTimes(pattern, n)`, whose failures show vitest's
 * Expected/Received diff (the closest request against the pattern) and the near-miss report.
 * @module
 */
import { expect } from "vitest";
import { McpMock, StubBuilder, VerificationError, atLeast, exactly, never, type AppEventPattern, type CountExpectation } from "../index.js";

declare module "vitest" {
  interface Matchers<T = any> {
    /**
     * Passes when the mock received a request that matches `pattern` (at least once).
     * @example
     * ```ts
     * expect(mock).toHaveReceived(toolsCall("search").withArgs({ q: "x" }));
     * ```
     */
    toHaveReceived(pattern: StubBuilder): T;
    /**
     * Passes when the mock received exactly `times` requests that match `pattern`.
     * @example
     * ```ts
     * expect(mock).toHaveReceivedTimes(toolsCall("search"), 2);
     * ```
     */
    toHaveReceivedTimes(pattern: StubBuilder, times: number): T;
    /**
     * Passes when the mock's probe views reported app events fitting `patterns`, in this
     * order (others may come between).
     * @example
     * ```ts
     * expect(mock).toHaveAppEvents([appEvent("ui/notifications/tool-input", { from: "host" }), appEvent("ui/notifications/tool-result", { from: "host" })]);
     * ```
     */
    toHaveAppEvents(patterns: readonly AppEventPattern[]): T;
  }
}

let installed = false;

interface MatcherResult {
  pass: boolean;
  message: () => string;
  expected?: unknown;
  actual?: unknown;
}

function check(received: unknown, pattern: unknown, times: number | undefined, name: string): MatcherResult {
  if (!(received instanceof McpMock)) {
    return { pass: false, message: () => `[mcpmock] expect(mock).${name}(...) takes a mock (the one McpMock.start() or mcpTest gave), received ${typeof received}.` };
  }
  if (!(pattern instanceof StubBuilder)) {
    return { pass: false, message: () => `[mcpmock] ${name} takes a pattern such as toolsCall("search").withArgs({ q: "x" }) (from "mcpmock"), received ${typeof pattern}.` };
  }
  const mock = received as McpMock;
  try {
    if (times === undefined) mock.verify(pattern);
    else mock.verify(pattern, times);
    // For .not: the report of "never" (or of another count) names the pattern and lists the matching requests.
    return { pass: true, message: () => negated(mock, pattern, times) };
  } catch (error) {
    if (!(error instanceof VerificationError)) throw error;
    return { pass: false, message: () => error.message, expected: error.expected, actual: error.actual };
  }
}

/**
 * The failure of `.not`: the negated expectation checked, so the report states it (".not.toHaveReceived"
 * is "never"; ".not.toHaveReceivedTimes(p, 0)" is "at least once"; ".not.toHaveReceivedTimes(p, 2)"
 * is "not exactly twice") with the count received.
 */
function negated(mock: McpMock, pattern: StubBuilder, times: number | undefined): string {
  try {
    mock.verify(pattern, times === undefined ? never() : times === 0 ? atLeast(1) : notExactly(times));
  } catch (error) {
    return (error as Error).message;
  }
  return "[mcpmock] the requests matched the pattern.";
}

/** Any count but `n` (`n` > 0). */
function notExactly(n: number): CountExpectation {
  return { description: `not ${exactly(n).description}`, test: (k) => k !== n };
}

/**
 * Adds `toHaveReceived(pattern)`, `toHaveReceivedTimes(pattern, n)` and `toHaveAppEvents(patterns)` to vitest's `expect`
 * (once; calling it again does nothing). `mcpTest` calls it; call it yourself in a setup file
 * to use the matchers with mocks of your own.
 *
 * @example
 * ```ts
 * import { installMatchers } from "mcpmock/vitest";
 * import { toolsCall } from "mcpmock";
 * installMatchers();
 * // in a test: expect(mock).toHaveReceived(toolsCall("search").withArgs({ q: "x" }));
 * ```
 * @category Test runners
 */
export function installMatchers(): void {
  if (installed) return;
  installed = true;
  expect.extend({
    toHaveReceived(received: unknown, pattern: unknown) {
      return check(received, pattern, undefined, "toHaveReceived");
    },
    toHaveReceivedTimes(received: unknown, pattern: unknown, times: unknown) {
      if (typeof times !== "number" || !Number.isInteger(times) || times < 0) {
        return { pass: false, message: () => `[mcpmock] toHaveReceivedTimes(pattern, n) takes a count (0 or more), received ${String(times)}.` };
      }
      return check(received, pattern, times, "toHaveReceivedTimes");
    },
    toHaveAppEvents(received: unknown, patterns: unknown) {
      if (!(received instanceof McpMock)) return { pass: false, message: () => `[mcpmock] expect(mock).toHaveAppEvents(...) takes a mock, received ${typeof received}.` };
      if (!Array.isArray(patterns)) return { pass: false, message: () => `[mcpmock] toHaveAppEvents takes a list of patterns, like [appEvent("ui/notifications/tool-input", { from: "host" })] (from "mcpmock").` };
      try {
        received.verifyAppEvents(patterns as AppEventPattern[]);
        return { pass: true, message: () => `[mcpmock] the app events arrived in this order: ${(patterns as AppEventPattern[]).map((p) => p.method).join(", ")}.` };
      } catch (error) {
        return { pass: false, message: () => (error as Error).message };
      }
    },
  });
}
