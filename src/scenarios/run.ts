/**
 * `runScenario`: start a scenario, let the client under test do its work against the URL,
 * then read the verdict. Shared by the code API, the vitest form and the CLI.
 * @module
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpMockError } from "../index.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../protocol/revisions.js";
import { checksPass, type Verdict } from "./check.js";
import { findScenario, scenarioNames, similarScenarioNames } from "./catalogue.js";
import type { Scenario, ScenarioStdioCommand, ScenarioTransport } from "./scenario.js";

/**
 * What the client under test is told (what the official runner puts in its environment).
 *
 * @example
 * ```ts
 * import { runScenario, type ScenarioClientContext } from "mcpmock/scenarios";
 * const verdict = await runScenario("initialize", {}, async (url: string, context: ScenarioClientContext) => {
 *   console.log(context.scenario, context.specVersion); // initialize 2025-11-25
 *   // ... start the client under test against url, speaking context.specVersion ...
 * });
 * ```
 * @category Client verdicts
 */
export interface ScenarioClientContext {
  /** The scenario's name (`MCP_CONFORMANCE_SCENARIO`). */
  readonly scenario: string;
  /** The protocol revision to speak (`MCP_CONFORMANCE_PROTOCOL_VERSION`). */
  readonly specVersion: string;
  /** The scenario's extra facts (`MCP_CONFORMANCE_CONTEXT`), when it has some. */
  readonly context?: Readonly<Record<string, unknown>>;
  /** How the client reaches the mock: `http` (the `url`), `stdio` (spawn `stdio`) or `memory` (`clientTransport()`). */
  readonly transport: ScenarioTransport;
  /** Over stdio: the command to spawn (`new StdioClientTransport({ command, args: [...args] })`). */
  readonly stdio?: ScenarioStdioCommand;
  /** In memory: a new SDK transport connected to the mock (`client.connect(clientTransport())`). */
  readonly clientTransport?: () => Transport;
}

/**
 * Drives the client under test: connect it to `url` (over HTTP; over stdio and in memory `url`
 * is `""` and `context` says how) and let it do its work; resolve when it is done.
 *
 * @example
 * ```ts
 * import { spawn } from "node:child_process";
 * import { once } from "node:events";
 * import { runScenario, type ScenarioDriver } from "mcpmock/scenarios";
 * // a client in its own process, told what the official conformance runner tells it
 * const drive: ScenarioDriver = async (url, context) => {
 *   const child = spawn("node", ["my-client.js", url], {
 *     stdio: "inherit",
 *     env: { ...process.env, MCP_CONFORMANCE_SCENARIO: context.scenario, MCP_CONFORMANCE_PROTOCOL_VERSION: context.specVersion },
 *   });
 *   const [code] = await once(child, "exit");
 *   if (code !== 0) throw new Error(`the client exited with ${String(code)}`);
 * };
 * const verdict = await runScenario("tools_call", {}, drive);
 * ```
 * @category Client verdicts
 */
export type ScenarioDriver = (url: string, context: ScenarioClientContext) => Promise<unknown> | unknown;

/**
 * Options of {@link runScenario}.
 *
 * @example
 * ```ts
 * import { runScenario, type RunScenarioOptions } from "mcpmock/scenarios";
 * const options: RunScenarioOptions = { specVersion: "2026-07-28", timeout: 5_000 };
 * const verdict = await runScenario("tools_call", options, async (url) => {
 *   // ... connect the client under test to url; past 5 s the verdict is read anyway, with a clientError ...
 * });
 * ```
 * @category Client verdicts
 */
export interface RunScenarioOptions {
  /** The protocol revision, one of those the scenario applies to; default its first (2025-11-25 for most, 2026-07-28 for the 2026-only ones). */
  readonly specVersion?: string;
  /**
   * Plays the scenario at `specVersion` though it does not apply to it (the official runner's
   * `--force`): to see how far a client gets at another revision. Without it such a revision is refused.
   */
  readonly force?: boolean;
  /** Milliseconds the driver may take before the verdict is read anyway (default 30 000, the official runner's; at most 2 147 483 647, what a timer holds). */
  readonly timeout?: number;
  /**
   * How the client reaches the mock (default `http`). `stdio` and `memory` play the scenarios
   * that are not about HTTP (`initialize`, `tools_call`, `elicitation-sep1034-client-defaults`,
   * `json-schema-2020-12-preservation`, ...): the driver gets a command to spawn
   * (`context.stdio`) or an in-memory transport (`context.clientTransport`).
   */
  readonly transport?: ScenarioTransport;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** The longest timeout a timer can hold (2^31 - 1 ms, about 24.8 days); a longer one would fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** The driver's time limit: a number of milliseconds above 0 that a timer can hold. */
function timeoutOf(asked: unknown): number {
  if (asked === undefined) return DEFAULT_TIMEOUT_MS;
  if (typeof asked !== "number" || !(asked > 0) || asked > MAX_TIMEOUT_MS) {
    throw new McpMockError(`runScenario: timeout takes the milliseconds the client may take, a number above 0 and at most ${MAX_TIMEOUT_MS} (about 24.8 days, what a timer can hold), like timeout: 30_000; received ${typeof asked === "number" ? String(asked) : JSON.stringify(asked)}.`);
  }
  return asked;
}

const TRANSPORTS: readonly ScenarioTransport[] = ["http", "stdio", "memory"];

/** The transport asked for, checked against what the scenario can be played over. */
function transportOf(scenario: Scenario, asked: unknown): ScenarioTransport {
  const transport = asked ?? "http";
  if (!TRANSPORTS.includes(transport as ScenarioTransport)) throw new McpMockError(`runScenario: transport must be "http", "stdio" or "memory"; received ${JSON.stringify(asked)}.`);
  const playable = scenario.transports ?? ["http"];
  if (!playable.includes(transport as ScenarioTransport)) {
    const over = scenarioNames({ transport: transport as ScenarioTransport });
    throw new McpMockError(`runScenario: scenario ${scenario.name} is played over ${playable.join(" and ")} only (it is about HTTP, or reads the wire); over ${String(transport)}: ${over.join(", ")}.`);
  }
  return transport as ScenarioTransport;
}

/** The revision asked for, checked against those the scenario applies to; by default its first. */
function specVersionOf(scenario: Scenario, asked: unknown, force: boolean): string {
  if (asked === undefined) return scenario.specVersions[0] ?? "2025-11-25";
  if (typeof asked !== "string" || !(scenario.specVersions.includes(asked) || (force && SUPPORTED_PROTOCOL_VERSIONS.includes(asked)))) {
    const others = typeof asked === "string" ? scenarioNames({ specVersion: asked }) : [];
    throw new McpMockError(
      `runScenario: scenario ${scenario.name} applies to ${scenario.specVersions.join(" and ")}; received specVersion ${JSON.stringify(asked)}. Leave specVersion out to play it at ${scenario.specVersions[0]}${others.length ? `; at ${String(asked)}: ${others.join(", ")}` : ""}${force ? "" : "; or give force: true to play it there anyway"}.`,
    );
  }
  return asked;
}

function unknownScenario(name: string): McpMockError {
  const similar = similarScenarioNames(name);
  const hint = similar.length ? ` Did you mean ${similar.map((n) => JSON.stringify(n)).join(" or ")}?` : "";
  return new McpMockError(`no scenario is named ${JSON.stringify(name)}.${hint} scenarioNames() lists them: ${scenarioNames().join(", ")}`);
}

/**
 * Runs one scenario against a client: starts the scenario's mock, calls `drive(url, context)`
 * (connect your client to `url` there and let it do its work), then reads the verdict from what
 * the client did and closes everything. A driver that throws or times out fails the verdict
 * (`clientError`) unless the scenario expects clients to end in an error. With
 * `transport: "stdio"` or `"memory"` (the scenarios not about HTTP), `url` is `""` and the
 * client connects through `context.stdio` (a command to spawn) or `context.clientTransport()`.
 *
 * @example
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
 * import { runScenario } from "mcpmock/scenarios";
 *
 * const verdict = await runScenario("tools_call", { specVersion: "2025-11-25" }, async (url) => {
 *   const client = new Client({ name: "my-client", version: "1.0.0" });
 *   await client.connect(new StreamableHTTPClientTransport(new URL(url)));
 *   await client.listTools();
 *   await client.callTool({ name: "add_numbers", arguments: { a: 5, b: 3 } });
 *   await client.close();
 * });
 * console.log(verdict.passed, verdict.checks.map((c) => `${c.id} ${c.status}`));
 * ```
 * @category Client verdicts
 */
export async function runScenario(name: string, options: RunScenarioOptions, drive: ScenarioDriver): Promise<Verdict> {
  const scenario = findScenario(name);
  if (!scenario) throw unknownScenario(name);
  const specVersion = specVersionOf(scenario, options.specVersion, options.force === true);
  const transport = transportOf(scenario, options.transport);
  const timeout = timeoutOf(options.timeout);
  const run = await scenario.start({ specVersion, transport });
  let clientError: string | undefined;
  try {
    const context: ScenarioClientContext = {
      scenario: name,
      specVersion,
      transport,
      ...(run.context ? { context: run.context } : {}),
      ...(run.stdio ? { stdio: run.stdio } : {}),
      ...(run.clientTransport ? { clientTransport: run.clientTransport } : {}),
    };
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error(`the client did not finish in ${timeout} ms`)), timeout);
    });
    try {
      await Promise.race([Promise.resolve().then(() => drive(run.url, context)), timedOut]);
    } catch (error) {
      clientError = error instanceof Error ? error.message : String(error);
    } finally {
      clearTimeout(timer);
    }
    const checks = [...(await run.checks())];
    const excused = scenario.allowClientError === true;
    return {
      scenario: name,
      specVersion,
      passed: checksPass(checks) && (clientError === undefined || excused),
      checks,
      ...(clientError !== undefined ? { clientError } : {}),
    };
  } finally {
    await run.close();
  }
}
