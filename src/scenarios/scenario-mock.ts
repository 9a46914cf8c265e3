/**
 * What every scenario starts the same way: a quiet mock on a free loopback port, and a wire
 * tap in front of it when the verdict needs wire facts.
 * @module
 */
import { McpMock, type McpMockOptions } from "../index.js";
import type { Check } from "./check.js";
import type { ScenarioRun } from "./scenario.js";
import { startWireTap, type WireTap, type WireTapOptions } from "./wire-tap.js";

/** A mock for a scenario: silent on misses (a verdict reports what matters), loopback, any free port. */
export function scenarioMock(options: McpMockOptions = {}): Promise<McpMock> {
  return McpMock.start({ onUnmatched: "silent", ...options, port: 0, host: "127.0.0.1", admin: false });
}

/** A mock behind a wire tap; `checks` reads both. */
export async function tappedRun(
  mock: McpMock,
  checks: (tap: WireTap) => readonly Check[],
  tapOptions: WireTapOptions = {},
): Promise<ScenarioRun & { readonly tap: WireTap }> {
  const tap = await startWireTap(mock.url, tapOptions);
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
