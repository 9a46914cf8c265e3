/**
 * Checks and verdicts: the official conformance suite's check shape (`id`, `status`,
 * `description`, `errorMessage`), so a verdict reads the same from mcpmock as from the suite.
 * @module
 */

/**
 * A check's outcome, as the official conformance suite writes it.
 *
 * @example
 * ```ts
 * import { runScenario, type CheckStatus } from "mcpmock/scenarios";
 * const verdict = await runScenario("initialize", {}, async () => {});
 * const failing: CheckStatus[] = ["FAILURE", "WARNING"]; // what fails a verdict
 * const problems = verdict.checks.filter((c) => failing.includes(c.status));
 * ```
 * @category Client verdicts
 */
export type CheckStatus = "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";

/**
 * One thing a scenario checked about the client.
 *
 * @example
 * ```ts
 * import type { Check } from "mcpmock/scenarios";
 * const check: Check = { id: "tool-add-numbers", status: "SUCCESS", description: "Validates that the add_numbers tool works correctly" };
 * ```
 * @category Client verdicts
 */
export interface Check {
  /** The check's id: the official suite's id for an official scenario (`mcp-client-initialization`). */
  readonly id: string;
  /** SUCCESS and FAILURE score; WARNING fails a verdict as the official runner does; INFO and SKIPPED only inform. */
  readonly status: CheckStatus;
  /** What was checked. */
  readonly description: string;
  /** What the client did instead, when the check did not succeed. */
  readonly errorMessage?: string;
  /** The facts the check read (the header sent, the call made). */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * A scenario's verdict on a client.
 *
 * @example
 * ```ts
 * import { runScenario } from "mcpmock/scenarios";
 * const verdict = await runScenario("tools_call", {}, async () => {});
 * verdict.passed; // false: the client never called the tool
 * ```
 * @category Client verdicts
 */
export interface Verdict {
  /** The scenario's name (`tools_call`, `hostile/canary-tool`). */
  readonly scenario: string;
  /** The protocol revision it ran at. */
  readonly specVersion: string;
  /** True when no check failed or warned and the client finished without an error. */
  readonly passed: boolean;
  /** Every check, in the order made. */
  readonly checks: readonly Check[];
  /** The client's own error (it threw, exited non-zero or timed out), when it had one. */
  readonly clientError?: string;
}

/** A check from a condition: SUCCESS when `ok`, else `failure` (FAILURE unless given) with `errorMessage`. */
export function check(id: string, description: string, ok: boolean, errorMessage: string, details?: Record<string, unknown>, failure: CheckStatus = "FAILURE"): Check {
  return ok ? { id, status: "SUCCESS", description, ...(details ? { details } : {}) } : { id, status: failure, description, errorMessage, ...(details ? { details } : {}) };
}

/** Whether a list of checks passes: no FAILURE and no WARNING (the official runner's rule). */
export function checksPass(checks: readonly Check[]): boolean {
  return checks.every((c) => c.status !== "FAILURE" && c.status !== "WARNING");
}
