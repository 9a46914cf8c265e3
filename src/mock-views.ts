/**
 * What {@link McpMock} shows of its state: a session, a scenario.
 * @module
 */
import type { McpMock } from "./mock.js";

/** A session as {@link McpMock.sessions} shows it. @category Starting */
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

/** A scenario's state, from {@link McpMock.scenario}. @category Verification */
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
