/**
 * Fidelity of the auth/* scenarios: the suite's everything-client (its auth handlers, copied in
 * clients/conformance-auth-client.mjs) run by the official conformance runner's client mode and
 * by `mcpmock scenarios --command` gets the same scored checks (id and status, as many of each)
 * and the same exit code, on every auth scenario of the 2025-11-25 requirement set, and broken
 * on purpose where both servers let the flow reach the same requests (a client without PKCE or
 * the resource parameter is refused by the mock's authorization server, which the suite's lets
 * through: the verdict is FAILURE in both, with fewer checks here; one that asks no scope gets the
 * required scopes from the mock, which the suite's server withholds). The runner's
 * `wire-schema-valid` check and its INFO lines are left out, as in side-by-side.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { CLI } from "../support/build.js";
import { run, scored, type Scored } from "./side-by-side-support.js";

const CLIENT = "node test/scenarios/clients/conformance-auth-client.mjs";
const SUITE = ["--import", "./scripts/conformance/glob-sync-shim.mjs", "node_modules/@modelcontextprotocol/conformance/dist/index.js", "client"];
const OURS = [CLI, "scenarios"];
const out = mkdtempSync(join(tmpdir(), "mcpmock-side-by-side-auth-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const CASES: Array<[scenario: string, broken: string, expected: "passes" | "fails"]> = [
  ["auth/metadata-default", "", "passes"],
  ["auth/metadata-var1", "", "passes"],
  ["auth/metadata-var2", "", "passes"],
  ["auth/metadata-var3", "", "passes"],
  ["auth/basic-cimd", "", "passes"],
  ["auth/basic-cimd", "no-cimd", "fails"],
  ["auth/scope-from-www-authenticate", "", "passes"],
  ["auth/scope-from-scopes-supported", "", "passes"],
  ["auth/scope-omitted-when-undefined", "", "passes"],
  ["auth/scope-step-up", "", "passes"],
  ["auth/scope-step-up", "ignore-scope", "fails"],
  ["auth/scope-retry-limit", "", "passes"],
  ["auth/token-endpoint-auth-basic", "", "passes"],
  ["auth/token-endpoint-auth-post", "", "passes"],
  ["auth/token-endpoint-auth-none", "", "passes"],
  ["auth/pre-registration", "", "passes"],
];


async function official(scenario: string, broken: string): Promise<Scored> {
  const dir = join(out, `official-${scenario.replace(/\W/g, "_")}-${broken || "good"}`);
  const exit = await run([...SUITE, "--command", CLIENT, "--scenario", scenario, "-o", dir], broken);
  // The runner writes <dir>/auth/<name>-<time>/checks.json: the scenario's name is a path.
  const parent = join(dir, ...scenario.split("/").slice(0, -1));
  const [result] = readdirSync(parent);
  return { exit, checks: scored(JSON.parse(readFileSync(join(parent, result as string, "checks.json"), "utf8"))) };
}

async function ours(scenario: string, broken: string): Promise<Scored> {
  const file = join(out, `ours-${scenario.replace(/\W/g, "_")}-${broken || "good"}.json`);
  const exit = await run([...OURS, "--command", CLIENT, "--scenario", scenario, "--json", file], broken);
  const report = JSON.parse(readFileSync(file, "utf8")) as { verdicts: Array<{ checks: Array<{ id: string; status: string }> }> };
  return { exit, checks: scored(report.verdicts[0]?.checks ?? []) };
}

describe("the official runner and mcpmock scenarios agree on the auth scenarios", () => {
  test.each(CASES)("%s, client broken as %j: %s in both", async (scenario, broken, expected) => {
    const [theirs, mine] = [await official(scenario, broken), await ours(scenario, broken)];
    expect(mine.checks).toEqual(theirs.checks);
    expect(mine.checks.length).toBeGreaterThan(0);
    expect(theirs.exit).toBe(expected === "passes" ? 0 : 1);
    expect(mine.exit).toBe(theirs.exit);
  }, 60_000);
});
