/**
 * What `check` reports: each call that differs, each place in it, whole.
 * @module
 */
/**
 * One place where a call's answer (or what it streamed) differs, whole: never cut.
 *
 * @example
 * ```ts
 * import type { CheckChange } from "mcpmock/recording";
 * const change: CheckChange = { at: "/content/0/text", expected: "5", received: "6" };
 * ```
 * @category Definitions
 */
export interface CheckChange {
  /** Where: a JSON Pointer into the result (`/content/0/text`, `""` for the whole), or `stream message 2 params/level` for what was streamed. */
  readonly at: string;
  /** The value the definition expects there (`undefined`: none). */
  readonly expected: unknown;
  /** The value the server gave there (`undefined`: none). */
  readonly received: unknown;
  /** For long texts and objects, a diff: one line each, `- ` expected, `+ ` received, `  ` both; in one long line, `[-removed-]{+added+}`. */
  readonly diff?: string;
}

/**
 * One call (or the declarations) that differs, and how: an item of `CheckReport.differences`.
 *
 * @example
 * ```ts
 * import { checkDefinition } from "mcpmock/recording";
 * const report = await checkDefinition("weather.mock.json", { target: "http://127.0.0.1:3001/mcp" });
 * for (const { call, details } of report.differences) console.log(call, details.join("; "));
 * ```
 * @category Definitions
 */
export interface CheckDifference {
  /** What was played, as the report names it: `tools/call "get-sum" {"a":2,"b":3}`, or `tools/list`. */
  readonly call: string;
  /** The differences, one line each, whole: `/content/0/text: expected "5", received "6"` (a long value's diff on the lines after it). */
  readonly details: readonly string[];
  /** The places that differ, each value whole, with a diff of long ones (empty for differences of shape or of declarations). */
  readonly changes: readonly CheckChange[];
}

/**
 * What a check found: what `checkDefinition` resolves with, and what `mcpmock check` prints.
 *
 * @example
 * ```ts
 * import { checkDefinition } from "mcpmock/recording";
 * const report = await checkDefinition("weather.mock.json", { target: "http://127.0.0.1:3001/mcp" });
 * if (!report.ok) throw new Error(report.lines.join("\n")); // or report.agreed, report.differed
 * ```
 * @category Definitions
 */
export interface CheckReport {
  /** Whether everything agrees. */
  readonly ok: boolean;
  /** The report, one verdict per line, differences indented under it (what `mcpmock check` prints). */
  readonly lines: string[];
  /** The calls (and declarations) that differ, with their differences. */
  readonly differences: CheckDifference[];
  /** Calls (and declarations) that agree. */
  readonly agreed: number;
  /** Calls (and declarations) that differ. */
  readonly differed: number;
}
