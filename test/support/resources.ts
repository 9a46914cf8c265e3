/**
 * What a mock leaves behind, seen through `process.getActiveResourcesInfo()`: the servers,
 * sockets and timers alive now, compared with a baseline taken before the mock started.
 */
import { expect, vi } from "vitest";

/** The kinds of resource a closed mock must not leave behind. */
export const WATCHED = ["TCPServerWrap", "TCPSocketWrap", "Timeout"] as const;

/** How many of each watched kind are alive now. */
export function counts(): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(WATCHED.map((k) => [k, 0]));
  for (const kind of process.getActiveResourcesInfo()) if (kind in out) out[kind] = (out[kind] ?? 0) + 1;
  return out;
}

/** How many resources of `kind` are alive now. */
export function countOf(kind: string): number {
  return process.getActiveResourcesInfo().filter((r) => r === kind).length;
}

/** Lets `turns` turns of the event loop pass, so closed handles are gone from the count. */
export async function settle(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}

/** Waits (briefly) until no watched resource count is above the baseline, then asserts it. */
export async function expectNoMoreThan(baseline: Record<string, number>): Promise<void> {
  await settle();
  await vi.waitFor(() => {
    const now = counts();
    for (const kind of WATCHED) expect({ kind, count: now[kind] }).toEqual({ kind, count: Math.min(now[kind] ?? 0, baseline[kind] ?? 0) });
  }, { timeout: 1000, interval: 10 });
}
