/**
 * The catalogue: every scenario by name, official ones first in the official suite's order,
 * then the hostile servers.
 * @module
 */
import type { Scenario, ScenarioSuite, ScenarioTransport } from "./scenario.js";
import { closestNames } from "../journal/explain.js";
import { initialize } from "./official/initialize.js";
import { toolsCall } from "./official/tools-call.js";
import { jsonSchemaRefNoDeref } from "./official/json-schema-ref-no-deref.js";
import { httpStandardHeaders } from "./official/http-standard-headers.js";
import { requestMetadata } from "./official/request-metadata.js";
import { elicitationDefaults } from "./official/elicitation-defaults.js";
import { sseRetry } from "./official/sse-retry.js";
import { clientRequestState } from "./official/sep-2322-client-request-state.js";
import { httpCustomHeaders } from "./official/http-custom-headers.js";
import { httpInvalidToolHeaders } from "./official/http-invalid-tool-headers.js";
import { jsonSchema202012Preservation } from "./official/json-schema-2020-12-preservation.js";
import { toolListChanged } from "./hostile/tool-list-changed.js";
import { canaryTool } from "./hostile/canary-tool.js";
import { sessionExpired } from "./hostile/session-expired.js";
import { streamDropped } from "./hostile/stream-dropped.js";
import { slowAnswer } from "./hostile/slow-answer.js";
import { malformedJson } from "./hostile/malformed-json.js";
import { endlessCursor } from "./hostile/endless-cursor.js";
import { undeclaredCapability } from "./hostile/undeclared-capability.js";
import { listChangedStorm } from "./hostile/list-changed-storm.js";
import { hugeResult } from "./hostile/huge-result.js";
import { authScenarios } from "./official/auth/index.js";
import { skillsScenarios } from "./official/skills.js";

const SCENARIOS: readonly Scenario[] = [initialize, toolsCall, elicitationDefaults, sseRetry, requestMetadata, httpStandardHeaders, jsonSchemaRefNoDeref,
  ...authScenarios,
  toolListChanged, canaryTool, sessionExpired, streamDropped, slowAnswer, malformedJson, endlessCursor, undeclaredCapability, listChangedStorm, hugeResult,
  clientRequestState, httpCustomHeaders, httpInvalidToolHeaders, jsonSchema202012Preservation,
  ...skillsScenarios,
];

/** The official scenarios first (in the order listed), then the hostile ones. */
const ORDERED: readonly Scenario[] = [...SCENARIOS.filter((s) => s.suite === "official"), ...SCENARIOS.filter((s) => s.suite === "hostile")];

/** The scenario named `name`, or `undefined`. */
export function findScenario(name: string): Scenario | undefined {
  return ORDERED.find((s) => s.name === name);
}

/**
 * Options of {@link scenarioNames}.
 *
 * @example
 * ```ts
 * import { scenarioNames, type ScenarioNamesOptions } from "mcpmock/scenarios";
 * const options: ScenarioNamesOptions = { suite: "official", specVersion: "2025-11-25" };
 * const names = scenarioNames(options); // ["initialize", "tools_call", ...]
 * ```
 * @category Client verdicts
 */
export interface ScenarioNamesOptions {
  /** `official`, `hostile`, or `all` (the default). */
  readonly suite?: ScenarioSuite | "all";
  /** Only the scenarios that apply to this protocol revision (an extension's scenarios, off the spec timeline, are left out). */
  readonly specVersion?: string;
  /** Only the scenarios that can be played over this transport (`runScenario`'s `transport`). */
  readonly transport?: ScenarioTransport;
}

/**
 * The names of the scenarios in the catalogue: the official suite's names (`initialize`,
 * `tools_call`, ...) and `hostile/<name>`.
 *
 * @example
 * ```ts
 * import { scenarioNames } from "mcpmock/scenarios";
 * console.log(scenarioNames({ suite: "official", specVersion: "2026-07-28" }));
 * console.log(scenarioNames({ transport: "stdio" })); // initialize, tools_call, ...
 * ```
 * @category Client verdicts
 */
export function scenarioNames(options: ScenarioNamesOptions = {}): string[] {
  const suite = options.suite ?? "all";
  return ORDERED.filter(
    (s) =>
      (suite === "all" || s.suite === suite) &&
      (options.specVersion === undefined || (s.extension === undefined && s.specVersions.includes(options.specVersion))) &&
      (options.transport === undefined || (s.transports ?? ["http"]).includes(options.transport)),
  ).map((s) => s.name);
}

/** A name as compared for a suggestion: lower case, `_` and spaces read as `-`. */
const loose = (name: string): string => name.toLowerCase().replace(/[_\s]+/g, "-");

/**
 * The names a mistyped `name` may have meant (at most 3): first those that hold it, or that it
 * holds, once case and `_`/`-` are set aside (`canary-tool` for `hostile/canary-tool`,
 * `tools-call` for `tools_call`), shortest first; then those a few letters off
 * (`hostile/canary-tol`). The CLI and `runScenario` name the same ones.
 */
export function similarScenarioNames(name: string): string[] {
  const names = ORDERED.map((s) => s.name);
  const typed = loose(name.trim());
  const holding = typed.length < 3 ? [] : names.filter((known) => loose(known).includes(typed) || typed.includes(loose(known))).sort((a, b) => a.length - b.length);
  return [...new Set([...holding, ...closestNames(name, names)])].slice(0, 3);
}

/** Every scenario (the CLI's listing). */
export function allScenarios(): readonly Scenario[] {
  return ORDERED;
}
