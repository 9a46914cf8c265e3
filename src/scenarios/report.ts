/**
 * Verdicts as text: one line per check, and an assertion for tests.
 * @module
 */
import type { Check, Verdict } from "./check.js";

const MARKS: Readonly<Record<Check["status"], string>> = { SUCCESS: "✓", FAILURE: "✗", WARNING: "!", INFO: "·", SKIPPED: "-" };

/**
 * A verdict as text: the scenario and its outcome, then one line per check
 * (`✓ id: description`, and for a check that did not succeed, what the client did).
 *
 * @example
 * ```ts
 * import { formatVerdict, runScenario } from "mcpmock/scenarios";
 * console.log(formatVerdict(await runScenario("tools_call", {}, async () => {})));
 * ```
 * @category Client verdicts
 */
export function formatVerdict(verdict: Verdict): string {
  const lines = [`${verdict.passed ? "✓" : "✗"} ${verdict.scenario} (${verdict.specVersion}): ${verdict.passed ? "passed" : "failed"}`];
  for (const c of verdict.checks) {
    lines.push(`  ${MARKS[c.status]} ${c.id}: ${c.description}`);
    if (c.errorMessage && c.status !== "SUCCESS") lines.push(`      ${c.errorMessage}`);
  }
  if (verdict.clientError !== undefined) lines.push(`  ✗ the client failed: ${verdict.clientError}`);
  return lines.join("\n");
}

/**
 * Throws unless the verdict passed; the error's message is {@link formatVerdict}'s text, so a
 * failed test says which checks failed and what the client did.
 *
 * @example
 * ```ts
 * import { assertPassed, runScenario } from "mcpmock/scenarios";
 * try {
 *   assertPassed(await runScenario("tools_call", {}, async () => {}));
 * } catch (error) {
 *   console.log((error as Error).message); // ✗ tools_call (2025-11-25): failed ...
 * }
 * ```
 * @category Client verdicts
 */
export function assertPassed(verdict: Verdict): void {
  if (!verdict.passed) throw new Error(`[mcpmock] the client failed scenario ${verdict.scenario}:\n${formatVerdict(verdict)}`);
}
