/**
 * What a scenario is: a mock configured for one question about a client, and the checks read
 * afterwards from what the client did (the journal and the wire).
 * @module
 */
import type { Check } from "./check.js";

/**
 * Which catalogue a scenario belongs to.
 *
 * @example
 * ```ts
 * import { scenarioNames, type ScenarioSuite } from "mcpmock/scenarios";
 * const suite: ScenarioSuite = "hostile";
 * console.log(scenarioNames({ suite })); // ["hostile/tool-list-changed", "hostile/canary-tool", ...]
 * ```
 * @category Client verdicts
 */
export type ScenarioSuite = "official" | "hostile";

/** What a scenario's `start` gets. */
export interface ScenarioStart {
  /** The protocol revision the client is expected to speak. */
  readonly specVersion: string;
}

/** A scenario started: the URL a client connects to, then the checks and the teardown. */
export interface ScenarioRun {
  /** The URL the client under test connects to. */
  readonly url: string;
  /** Extra facts the client needs (the official runner's `MCP_CONFORMANCE_CONTEXT`). */
  readonly context?: Readonly<Record<string, unknown>>;
  /** Reads the checks from what the client did; called once, after the client finished. */
  checks(): Promise<readonly Check[]> | readonly Check[];
  /** Stops everything the scenario started. */
  close(): Promise<void>;
}

/** One entry of the catalogue. */
export interface Scenario {
  readonly name: string;
  readonly suite: ScenarioSuite;
  readonly description: string;
  /** The revisions the scenario applies to; the first is its default. */
  readonly specVersions: readonly string[];
  /** A client that exits with an error is still judged by its checks alone (the official `allowClientError`). */
  readonly allowClientError?: boolean;
  start(options: ScenarioStart): Promise<ScenarioRun>;
}
