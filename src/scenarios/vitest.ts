/**
 * The vitest form: one test per scenario, each failing with the verdict's text.
 * @module
 */
import type { ScenarioSuite } from "./scenario.js";
import { scenarioNames } from "./catalogue.js";
import { assertPassed } from "./report.js";
import { runScenario, type ScenarioDriver } from "./run.js";

/**
 * A test registrar such as vitest's `test` or `it` (any runner with the same shape works).
 *
 * @example
 * ```ts
 * import { it } from "vitest";
 * import { scenarioTests, type TestRegistrar } from "mcpmock/scenarios";
 * const register: TestRegistrar = (name, body, timeout) => it(`scenario ${name}`, body, timeout); // a prefix on every test name
 * scenarioTests({
 *   test: register,
 *   scenarios: ["initialize"],
 *   drive: async (url) => {
 *     // ... connect the client under test to url ...
 *   },
 * });
 * ```
 * @category Client verdicts
 */
export type TestRegistrar = (name: string, body: () => Promise<void>, timeout?: number) => unknown;

/**
 * Options of {@link scenarioTests}.
 *
 * @example
 * ```ts
 * import { test } from "vitest";
 * import { scenarioTests, type ScenarioTestsOptions } from "mcpmock/scenarios";
 * const options: ScenarioTestsOptions = {
 *   test,
 *   scenarios: ["initialize", "tools_call", "hostile/canary-tool"],
 *   specVersion: "2025-11-25",
 *   timeout: 10_000,
 *   drive: async (url) => {
 *     // ... connect the client under test to url and let it work ...
 *   },
 * };
 * scenarioTests(options);
 * ```
 * @category Client verdicts
 */
export interface ScenarioTestsOptions {
  /** vitest's `test` (or `it`): passed in, so `mcpmock/scenarios` does not need vitest itself. */
  readonly test: TestRegistrar;
  /** Connects the client under test to the URL and lets it work. */
  readonly drive: ScenarioDriver;
  /** The scenarios to run (default every one that applies to `specVersion`, or to `suite`). */
  readonly scenarios?: readonly string[];
  /** `official`, `hostile` or `all` (the default), when `scenarios` is not given. */
  readonly suite?: ScenarioSuite | "all";
  /** The protocol revision (default each scenario's own). */
  readonly specVersion?: string;
  /** Milliseconds per scenario (default 30 000). */
  readonly timeout?: number;
}

/**
 * Registers one test per scenario: each runs the scenario with `drive` and fails with the
 * verdict's text when a check fails.
 *
 * @example
 * ```ts
 * import { test } from "vitest";
 * import { scenarioTests } from "mcpmock/scenarios";
 * scenarioTests({ test, suite: "official", drive: async (url) => { } });
 * ```
 * @category Client verdicts
 */
export function scenarioTests(options: ScenarioTestsOptions): void {
  const timeout = options.timeout ?? 30_000;
  const names = options.scenarios ?? scenarioNames({ suite: options.suite ?? "all", ...(options.specVersion ? { specVersion: options.specVersion } : {}) });
  for (const name of names)
    options.test(
      name,
      async () => assertPassed(await runScenario(name, { timeout, ...(options.specVersion ? { specVersion: options.specVersion } : {}) }, options.drive)),
      timeout + 5_000,
    );
}
