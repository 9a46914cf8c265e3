// The verdicts `run.mjs` prints, kept apart from the processes it starts so a test can feed them
// results: which scenarios passed, failed or were skipped, and the last line
//   conformance: 2025-11-25 P/T, 2026-07-28 P/T, tasks P/T (1 skipped)
// where P/T counts the scenarios that ran (a skipped one is neither passed nor run).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The checks of every scenario a run wrote: `<dir>/server-<scenario>-<timestamp>/checks.json`.
 * A scenario whose checks.json is missing or unreadable maps to a string saying so.
 * Returns a string when the directory itself is missing.
 */
export function readChecks(dir) {
  if (!existsSync(dir)) return `the suite wrote no results directory (${dir})`;
  const scenarios = new Map();
  for (const entry of readdirSync(dir)) {
    const name = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry)?.[1];
    if (name === undefined) continue;
    const file = join(dir, entry, "checks.json");
    try {
      const checks = JSON.parse(readFileSync(file, "utf8"));
      scenarios.set(name, Array.isArray(checks) ? checks : `${file} holds no list of checks`);
    } catch (error) {
      scenarios.set(name, `${file} could not be read (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return scenarios;
}

/** Adds one run's scenarios (from `readChecks`) to `buckets` (bucket -> scenario -> state). */
export function addRun(buckets, revision, scenarios) {
  for (const [scenario, checks] of scenarios) {
    const bucket = buckets.get(scenario.startsWith("tasks-") ? "tasks" : revision);
    const state = bucket.get(scenario) ?? { failing: [], ran: false, skipped: false };
    if (typeof checks === "string") {
      state.ran = true;
      if (!state.failing.includes(checks)) state.failing.push(checks);
    } else {
      for (const check of checks) {
        if (check.status === "SUCCESS" || check.status === "FAILURE") state.ran = true;
        if (check.status === "SKIPPED") state.skipped = true;
        if (check.status !== "FAILURE") continue;
        const line = `${check.id}: ${check.errorMessage ?? check.description ?? "failed"}`;
        if (!state.failing.includes(line)) state.failing.push(line);
      }
      if (!state.ran && !state.skipped && !state.failing.includes("the scenario reported no check")) {
        state.ran = true;
        state.failing.push("the scenario reported no check");
      }
    }
    bucket.set(scenario, state);
  }
}

/** True when a run's scenarios (from `readChecks`) hold a failing check or an unreadable result. */
export function anyFailing(scenarios) {
  return [...scenarios.values()].some((checks) => typeof checks === "string" || checks.some((check) => check.status === "FAILURE"));
}

/**
 * The report: `lines` (every failing scenario with its checks), the `summary` line, and `ok`:
 * every scenario that ran passed, each bucket ran at least one, and nothing was `broken`.
 */
export function tally(buckets, broken) {
  const lines = [];
  const totals = [];
  for (const [bucket, scenarios] of buckets) {
    let passed = 0;
    let total = 0;
    let skipped = 0;
    for (const [scenario, state] of [...scenarios].sort(([a], [b]) => a.localeCompare(b))) {
      if (!state.ran) {
        skipped++;
        continue;
      }
      total++;
      if (state.failing.length === 0) {
        passed++;
        continue;
      }
      lines.push(`✗ ${bucket} ${scenario}`);
      for (const line of state.failing) lines.push(`    ${line.replace(/\n/g, "\n      ")}`);
    }
    totals.push({ bucket, passed, total, skipped });
  }
  const ok = !broken && totals.every(({ passed, total }) => passed === total && total > 0);
  const counts = totals.map(({ bucket, passed, total, skipped }) => `${bucket} ${passed}/${total}${skipped > 0 ? ` (${skipped} skipped)` : ""}`);
  return { lines, summary: `conformance: ${counts.join(", ")}`, ok };
}
