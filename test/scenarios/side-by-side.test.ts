/**
 * Fidelity: the same client, run by the official conformance runner's client mode
 * (@modelcontextprotocol/conformance, the pinned revision) and by `mcpmock scenarios
 * --command`, gets the same verdict: the same scored checks (id and status) and the same
 * outcome, for a correct client and for clients broken on purpose, on every client scenario
 * the runner scores but `auth/*` (compared in a file of their own) and on
 * json-schema-2020-12-preservation and the Skills extension's sep-2640-*, which it runs unscored. The client is
 * clients/conformance-client.mjs: the suite's everything-client handlers, and for the SEP-2243
 * header scenarios, which the everything-client has none for, the v2 SDK client.
 * The runner's `wire-schema-valid` check (a schema check of every message, added by the runner
 * to every scenario) and its INFO lines are left out of the comparison.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { CLI } from "../support/build.js";
import { limiter, ROOT, run, scored, started, type Scored } from "./side-by-side-support.js";

const CLIENT = "node test/scenarios/clients/conformance-client.mjs";
const SUITE = ["--import", "./scripts/conformance/glob-sync-shim.mjs", "node_modules/@modelcontextprotocol/conformance/dist/index.js", "client"];
const OURS = [CLI, "scenarios"];
const out = mkdtempSync(join(tmpdir(), "mcpmock-side-by-side-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const CASES: Array<[scenario: string, broken: string, expected: "passes" | "fails", specVersion?: string]> = [
  ["initialize", "", "passes"],
  ["initialize", "no-client-version", "fails"],
  ["tools_call", "", "passes"],
  ["tools_call", "no-call", "fails"],
  ["tools_call", "", "passes", "2026-07-28"],
  ["tools_call", "no-call", "fails", "2026-07-28"],
  ["json-schema-ref-no-deref", "", "passes"],
  ["json-schema-ref-no-deref", "deref", "fails"],
  ["sse-retry", "", "passes"],
  ["request-metadata", "", "passes"],
  ["request-metadata", "no-retry", "fails"],
  // The v1 SDK this project pins does not fill in elicitation defaults: both runners say so.
  ["elicitation-sep1034-client-defaults", "", "fails"],
  ["json-schema-2020-12-preservation", "", "passes", "2025-11-25"],
  ["json-schema-2020-12-preservation", "strip-defs", "fails", "2025-11-25"],
  // SEP-2106's keywords are required from 2026-07-28 only: below, stripping one is SKIPPED.
  ["json-schema-2020-12-preservation", "strip-anchor", "passes", "2025-11-25"],
  ["json-schema-2020-12-preservation", "", "passes", "2026-07-28"],
  ["json-schema-2020-12-preservation", "strip-anchor", "fails", "2026-07-28"],
  ["sep-2322-client-request-state", "", "passes"],
  ["sep-2322-client-request-state", "same-id", "fails"],
  ["sep-2322-client-request-state", "alter-state", "fails"],
  ["sep-2322-client-request-state", "leak-state", "fails"],
  ["sep-2322-client-request-state", "retry-untyped", "fails"],
  ["http-standard-headers", "", "passes"],
  ["http-standard-headers", "no-mcp-method", "fails"],
  ["http-custom-headers", "", "passes"],
  ["http-custom-headers", "plain-unsafe", "fails"],
  ["http-custom-headers", "no-param-headers", "fails"],
  ["http-invalid-tool-headers", "", "passes"],
  ["http-invalid-tool-headers", "call-invalid", "fails"],
  // The Skills extension's scenarios (unscored: an extension), with a host of our own.
  ["sep-2640-client-no-prefetch", "", "passes"],
  ["sep-2640-client-no-prefetch", "prefetch", "fails"],
  ["sep-2640-client-verify-digest", "", "passes"],
  ["sep-2640-client-verify-digest", "size-only", "fails"],
  ["sep-2640-client-verify-size", "", "passes"],
  ["sep-2640-client-verify-size", "no-verify", "fails"],
  ["sep-2640-client-verify-frontmatter", "", "passes"],
  ["sep-2640-client-verify-frontmatter", "digest-only", "fails", "2026-07-28"],
];


function label(scenario: string, broken: string, specVersion: string | undefined): string {
  return `${scenario.replace(/\W/g, "_")}-${broken || "good"}${specVersion ? `-${specVersion}` : ""}`;
}

async function official(scenario: string, broken: string, specVersion?: string): Promise<Scored> {
  const dir = join(out, `official-${label(scenario, broken, specVersion)}`);
  // --force: the runner skips an extension scenario at an explicit revision without it.
  const exit = await run([...SUITE, "--command", CLIENT, "--scenario", scenario, ...(specVersion ? ["--spec-version", specVersion, "--force"] : []), "-o", dir], broken);
  const [result] = readdirSync(dir);
  return { exit, checks: scored(JSON.parse(readFileSync(join(dir, result as string, "checks.json"), "utf8"))) };
}

async function ours(scenario: string, broken: string, specVersion?: string): Promise<Scored> {
  const file = join(out, `ours-${label(scenario, broken, specVersion)}.json`);
  const exit = await run([...OURS, "--command", CLIENT, "--scenario", scenario, ...(specVersion ? ["--spec-version", specVersion] : []), "--json", file], broken);
  const report = JSON.parse(readFileSync(file, "utf8")) as { verdicts: Array<{ checks: Array<{ id: string; status: string }> }> };
  return { exit, checks: scored(report.verdicts[0]?.checks ?? []) };
}

/** The client scenarios a revision's frozen requirement set scores (the `client:` list of its YAML). */
function scoredClientScenarios(revision: string): string[] {
  const yaml = readFileSync(join(ROOT, "node_modules/@modelcontextprotocol/conformance/requirements", `${revision}.yaml`), "utf8");
  const list = yaml.slice(yaml.indexOf("\nclient:\n") + 9).split(/\n\S/)[0] as string;
  return [...list.matchAll(/^ {2}- (\S+)$/gm)].map((m) => m[1] as string);
}

describe("the official runner and mcpmock scenarios agree", () => {
  test("every client scenario the runner scores (but auth/*) is compared here", () => {
    const scored = [...new Set(["2025-11-25", "2026-07-28"].flatMap(scoredClientScenarios))].filter((name) => !name.startsWith("auth/"));
    expect(scored.length).toBeGreaterThanOrEqual(10);
    expect(scored.filter((name) => !CASES.some(([scenario]) => scenario === name))).toEqual([]);
  });

  test("so is every other client scenario the runner has (extensions too), but auth/*", () => {
    const listing = execFileSync(process.execPath, [...SUITE.slice(0, -1), "list", "--client"], { cwd: ROOT, encoding: "utf8" });
    const names = [...listing.matchAll(/^ {2}- (\S+)/gm)].map((m) => m[1] as string).filter((name) => !name.startsWith("auth/"));
    expect(names).toContain("sep-2640-client-verify-digest");
    expect(names.filter((name) => !CASES.some(([scenario]) => scenario === name))).toEqual([]);
  });

  // Every case's two runs start now, four runs at a time; each test awaits its own.
  const queue = limiter(4);
  const verdicts = new Map(CASES.map(([scenario, broken, , specVersion]) => [label(scenario, broken, specVersion), started(Promise.all([queue(() => official(scenario, broken, specVersion)), queue(() => ours(scenario, broken, specVersion))]))]));
  const DEFAULT = "its default revision";
  test.each(CASES.map(([scenario, broken, expected, specVersion]) => [scenario, broken, expected, specVersion ?? DEFAULT] as const))("%s, client broken as %j: %s in both, at %s", async (scenario, broken, expected, revision) => {
    const specVersion = revision === DEFAULT ? undefined : revision;
    const [theirs, mine] = await (verdicts.get(label(scenario, broken, specVersion)) as Promise<[Scored, Scored]>);
    expect(mine.checks).toEqual(theirs.checks);
    expect(mine.checks.length).toBeGreaterThan(0);
    expect(theirs.exit).toBe(expected === "passes" ? 0 : 1);
    expect(mine.exit).toBe(theirs.exit);
  }, 60_000);
});
