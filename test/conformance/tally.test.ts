/**
 * The verdicts `npm run conformance` prints (scripts/conformance/tally.mjs), fed made-up results:
 * a skipped scenario counts as neither passed nor run, a missing checks.json or results directory
 * is a failure with its reason, and the last line keeps its shape.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { addRun, anyFailing, readChecks, tally, type Buckets, type Check } from "../../scripts/conformance/tally.mjs";

const STAMP = "2026-01-02T03-04-05-678Z";
const pass: Check[] = [{ id: "a", status: "SUCCESS" }];
const fail: Check[] = [{ id: "b", status: "FAILURE", errorMessage: "wrong" }];
const skip: Check[] = [{ id: "c", status: "SKIPPED", errorMessage: "Skipped: pending" }];

function buckets(): Buckets {
  return new Map(["2025-11-25", "2026-07-28", "tasks"].map((bucket) => [bucket, new Map()]));
}

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});
function resultsDir(files: Record<string, Check[] | null>): string {
  const dir = mkdtempSync(join(tmpdir(), "mcpmock-tally-"));
  dirs.push(dir);
  for (const [scenario, checks] of Object.entries(files)) {
    mkdirSync(join(dir, `server-${scenario}-${STAMP}`));
    if (checks !== null) writeFileSync(join(dir, `server-${scenario}-${STAMP}`, "checks.json"), JSON.stringify(checks));
  }
  return dir;
}

describe("tally", () => {
  test("a skipped scenario is neither passed nor run, and is noted after the count", () => {
    const all = buckets();
    addRun(all, "2025-11-25", new Map([["ping", pass]]));
    addRun(all, "2026-07-28", new Map([["ping", pass]]));
    addRun(all, "2026-07-28", new Map([["tasks-get", pass], ["tasks-status-notifications", skip]]));
    const { summary, ok, lines } = tally(all, false);
    expect(summary).toBe("conformance: 2025-11-25 1/1, 2026-07-28 1/1, tasks 1/1 (1 skipped)");
    expect(ok).toBe(true);
    expect(lines).toEqual([]);
  });

  test("a scenario skipped in one run and run in another counts as run", () => {
    const all = buckets();
    addRun(all, "2025-11-25", new Map([["ping", pass]]));
    addRun(all, "2026-07-28", new Map([["ping", pass], ["tasks-get", skip]]));
    addRun(all, "2026-07-28", new Map([["tasks-get", fail]]));
    const { summary, ok, lines } = tally(all, false);
    expect(summary).toBe("conformance: 2025-11-25 1/1, 2026-07-28 1/1, tasks 0/1");
    expect(ok).toBe(false);
    expect(lines).toEqual(["✗ tasks tasks-get", "    b: wrong"]);
  });

  test("a bucket where every scenario was skipped is not a pass", () => {
    const all = buckets();
    addRun(all, "2025-11-25", new Map([["ping", pass]]));
    addRun(all, "2026-07-28", new Map([["ping", pass], ["tasks-get", skip]]));
    expect(tally(all, false)).toMatchObject({ summary: "conformance: 2025-11-25 1/1, 2026-07-28 1/1, tasks 0/0 (1 skipped)", ok: false });
  });

  test("a scenario that reported no check fails, and a broken run fails the whole", () => {
    const all = buckets();
    addRun(all, "2025-11-25", new Map([["ping", pass]]));
    addRun(all, "2026-07-28", new Map([["ping", []], ["tasks-get", pass]]));
    const { summary, ok, lines } = tally(all, false);
    expect(summary).toBe("conformance: 2025-11-25 1/1, 2026-07-28 0/1, tasks 1/1");
    expect(ok).toBe(false);
    expect(lines).toEqual(["✗ 2026-07-28 ping", "    the scenario reported no check"]);

    const fine = buckets();
    addRun(fine, "2025-11-25", new Map([["ping", pass]]));
    addRun(fine, "2026-07-28", new Map([["ping", pass], ["tasks-get", pass]]));
    expect(tally(fine, false).ok).toBe(true);
    expect(tally(fine, true).ok).toBe(false);
  });
});

describe("readChecks", () => {
  test("reads each scenario's checks, and names a missing checks.json as a failure", () => {
    const dir = resultsDir({ ping: pass, "tasks-get": null });
    const scenarios = readChecks(dir);
    if (typeof scenarios === "string") throw new Error(scenarios);
    expect(scenarios.get("ping")).toEqual(pass);
    expect(scenarios.get("tasks-get")).toMatch(/checks\.json could not be read/);
    expect(anyFailing(scenarios)).toBe(true);

    const all = buckets();
    addRun(all, "2026-07-28", scenarios);
    expect(tally(all, false).lines[0]).toBe("✗ tasks tasks-get");
  });

  test("a missing results directory is a message, not a crash", () => {
    expect(readChecks(join(tmpdir(), "mcpmock-tally-does-not-exist"))).toMatch(/the suite wrote no results directory/);
  });

  test("anyFailing is false for passing and skipped scenarios only", () => {
    expect(anyFailing(new Map([["ping", pass], ["tasks-get", skip]]))).toBe(false);
    expect(anyFailing(new Map([["ping", fail]]))).toBe(true);
  });
});
