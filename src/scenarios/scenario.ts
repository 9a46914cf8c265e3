/**
 * What a scenario is: a mock configured for one question about a client, and the checks read
 * afterwards from what the client did (the journal and the wire).
 * @module
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
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

/**
 * How the client under test reaches a scenario's mock: Streamable HTTP (a URL), stdio (a
 * command to spawn) or in memory (an SDK `Transport`).
 *
 * @example
 * ```ts
 * import { runScenario } from "mcpmock/scenarios";
 * await runScenario("initialize", { transport: "memory" }, async (_url, { clientTransport }) => { });
 * ```
 * @category Client verdicts
 */
export type ScenarioTransport = "http" | "stdio" | "memory";

/** What a scenario's `start` gets. */
export interface ScenarioStart {
  /** The protocol revision the client is expected to speak. */
  readonly specVersion: string;
  /** The transport the client uses (one of the scenario's `transports`). */
  readonly transport: ScenarioTransport;
}

/**
 * How a client reaches a scenario over stdio: the command to spawn (what the SDK's
 * `StdioClientTransport` takes).
 *
 * @example
 * ```ts
 * import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
 * import type { ScenarioStdioCommand } from "mcpmock/scenarios";
 * const connect = (stdio: ScenarioStdioCommand) => new StdioClientTransport({ command: stdio.command, args: [...stdio.args] });
 * ```
 * @category Client verdicts
 */
export interface ScenarioStdioCommand {
  /** The program (Node itself). */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
}

/** A scenario started: the URL a client connects to, then the checks and the teardown. */
export interface ScenarioRun {
  /** The URL the client under test connects to (`""` over stdio and in memory). */
  readonly url: string;
  /** Over stdio: the command whose stdin and stdout are the mock's. */
  readonly stdio?: ScenarioStdioCommand;
  /** In memory: a new SDK transport connected to the mock. */
  readonly clientTransport?: () => Transport;
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
  /** The transports it can be played over (default only `http`: the scenario is about HTTP, or needs the wire tap). */
  readonly transports?: readonly ScenarioTransport[];
  /**
   * An extension's scenario, by the extension's id (`io.modelcontextprotocol/auth/dpop`): off the
   * spec timeline, as the official runner has it. A listing by revision leaves it out; named, it
   * plays at its first revision, or at the one asked for.
   */
  readonly extension?: string;
  /** A client that exits with an error is still judged by its checks alone (the official `allowClientError`). */
  readonly allowClientError?: boolean;
  start(options: ScenarioStart): Promise<ScenarioRun>;
}
