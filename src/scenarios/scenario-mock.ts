/**
 * What every scenario starts the same way: a quiet mock on a free loopback port (or none, for
 * a client over stdio or in memory), and a wire tap in front of it when the verdict needs wire
 * facts.
 * @module
 */
import { McpMock, type McpMockOptions } from "../index.js";
import type { Check } from "./check.js";
import type { ScenarioRun, ScenarioStart } from "./scenario.js";
import type { MessageTap } from "./message-tap.js";
import { startStdioBridge } from "./stdio-bridge.js";
import { startWireTap, supplyStandardHeaders, type WireTap, type WireTapOptions } from "./wire-tap.js";

/**
 * A mock for a scenario: silent on misses (a verdict reports what matters), loopback, any free
 * port; no port at all when the client comes over stdio or in memory.
 */
export function scenarioMock(options: McpMockOptions = {}, start?: ScenarioStart): Promise<McpMock> {
  const http = start === undefined || start.transport === "http";
  return McpMock.start({ onUnmatched: "silent", ...options, ...(http ? { port: 0, host: "127.0.0.1" } : { transport: "none" }), admin: false });
}

/**
 * A run over the client's transport, with checks read from the mock alone: over HTTP directly,
 * or behind a wire tap with `tap` (which supplies the standard headers a 2026-07-28 client may
 * leave out); over stdio through a bridge child; in memory through `mock.clientTransport()`.
 * `messages` (a message tap) records what the client sends over stdio or in memory.
 */
export async function servedRun(mock: McpMock, start: ScenarioStart, checks: () => readonly Check[], http: { readonly tap: boolean } = { tap: true }, messages?: MessageTap): Promise<ScenarioRun> {
  if (start.transport === "http") return http.tap ? tappedRun(mock, () => checks()) : mockRun(mock, checks);
  if (start.transport === "memory") return { url: "", clientTransport: () => (messages ? messages.transport(mock.clientTransport()) : mock.clientTransport()), checks, close: () => mock.close() };
  const bridge = await startStdioBridge(mock, messages);
  return {
    url: "",
    stdio: bridge.command,
    checks,
    close: async () => {
      await mock.close();
      await bridge.close();
    },
  };
}

/** A mock behind a wire tap (which supplies the standard headers the mock would refuse a request without, unless told otherwise); `checks` reads both. */
export async function tappedRun(
  mock: McpMock,
  checks: (tap: WireTap) => readonly Check[],
  tapOptions: WireTapOptions = {},
): Promise<ScenarioRun & { readonly tap: WireTap }> {
  const tap = await startWireTap(mock.url, { forward: supplyStandardHeaders, ...tapOptions });
  return {
    url: tap.url,
    tap,
    checks: () => checks(tap),
    close: async () => {
      await tap.close();
      await mock.close();
    },
  };
}

/** A run whose checks read the mock alone. */
export function mockRun(mock: McpMock, checks: () => readonly Check[]): ScenarioRun {
  return { url: mock.url, checks, close: () => mock.close() };
}
