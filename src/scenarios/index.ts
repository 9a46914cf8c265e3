/**
 * `mcpmock/scenarios`: client verdicts. Each scenario is a mock configured for one question
 * about a client (the official conformance suite's client scenarios under their own names and
 * check ids, and hostile servers named `hostile/<name>`), and a verdict read from what the
 * client did. Built on the public API only.
 *
 * ```ts
 * import { runScenario, scenarioNames, scenarioTests, assertPassed, formatVerdict } from "mcpmock/scenarios";
 * ```
 * @module mcpmock/scenarios
 */
export type { Check, CheckStatus, Verdict } from "./check.js";
export type { ScenarioSuite, ScenarioTransport, ScenarioStdioCommand } from "./scenario.js";
export { scenarioNames, type ScenarioNamesOptions } from "./catalogue.js";
export { runScenario, type RunScenarioOptions, type ScenarioDriver, type ScenarioClientContext } from "./run.js";
export { formatVerdict, assertPassed } from "./report.js";
export { scenarioTests, type ScenarioTestsOptions, type TestRegistrar } from "./vitest.js";
