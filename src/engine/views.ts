/**
 * What the mock shows of the engine's state: its sessions and its scenarios (`mock.sessions()`,
 * `mock.scenario(name)`), made here from the engine's core.
 * @module
 */
import type { MockCore } from "./core.js";

/**
 * A session as {@link McpMock.sessions} shows it.
 *
 * @example
 * ```ts
 * import { McpMock, type SessionInfo } from "mcpmock";
 * await using mock = await McpMock.start();
 * // ... the client under test connects ...
 * const sessions: SessionInfo[] = mock.sessions();
 * for (const s of sessions) console.log(s.id, s.protocolVersion, s.clientInfo?.["name"], s.initialized); // session-1 2025-11-25 my-client true
 * ```
 * @category Starting
 */
export interface SessionInfo {
  /** The `Mcp-Session-Id`. */
  readonly id: string;
  /** The version negotiated at initialize. */
  readonly protocolVersion: string;
  /** The client's `clientInfo` from initialize. */
  readonly clientInfo: Readonly<Record<string, unknown>> | undefined;
  /** The client's capabilities from initialize (sampling, elicitation, roots, ...). */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** The level from the client's `logging/setLevel`, if it sent one. */
  readonly logLevel: string | undefined;
  /** `notifications/initialized` arrived. */
  readonly initialized: boolean;
  /** The client holds the GET stream open. */
  readonly streamOpen: boolean;
  /** Bytes of events kept for resuming its streams (at most `maxSessionStreamBytes`). */
  readonly resumableBytes: number;
}

/**
 * A scenario's state, from {@link McpMock.scenario}.
 *
 * @example
 * ```ts
 * import { McpMock, type ScenarioHandle } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "cart", inputSchema: { type: "object" } }] });
 * mock.toolsCall("cart").inScenario("checkout").whenState("Paid").respondsWith("already paid");
 * const checkout: ScenarioHandle = mock.scenario("checkout");
 * checkout.set("Paid"); // skip ahead
 * console.log(checkout.name, checkout.state); // checkout Paid
 * checkout.reset(); // back to "Started"
 * ```
 * @category Verification
 */
export interface ScenarioHandle {
  /** The scenario's name, as given to `inScenario`. */
  readonly name: string;
  /** The current state (`"Started"` until a stub or `set` moves it). */
  readonly state: string;
  /** Moves the scenario to a state. */
  set(state: string): void;
  /** Back to `"Started"`. */
  reset(): void;
}

/** The open sessions, as `mock.sessions()` shows them. */
export function sessionInfos(core: MockCore): SessionInfo[] {
  return core.sessions.all().map((s) => ({
    id: s.id,
    protocolVersion: s.protocolVersion,
    clientInfo: s.clientInfo,
    clientCapabilities: s.clientCapabilities,
    logLevel: s.logLevel,
    initialized: s.initialized,
    streamOpen: s.stream?.attached === true,
    resumableBytes: s.streams.bytes,
  }));
}

/** A scenario's state to read, set or reset, as `mock.scenario(name)` hands it out. */
export function scenarioHandle(core: MockCore, name: string): ScenarioHandle {
  return {
    name,
    get state() {
      return core.scenarioState(name);
    },
    set: (state: string) => core.setScenarioState(name, state),
    reset: () => core.resetScenarios(name),
  };
}

/** Every scenario a stub names, with its state now (the inspector's list). */
export function scenarioStates(core: MockCore): Array<{ name: string; state: string }> {
  const names = new Set<string>();
  for (const { stub } of core.registry.all()) {
    if (stub.setsState) names.add(stub.setsState.scenario);
    for (const m of stub.matchers) if (m.scenario !== undefined) names.add(m.scenario);
  }
  return [...names].map((name) => ({ name, state: core.scenarioState(name) }));
}
