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
 *
 * At 2026-07-28, batched (one runner run per batch, its suite mode, scenarios in parallel; ours with --jobs 4): the
 * 14 scenarios (`--suite auth --spec-version 2026-07-28`), and the auth scenarios only that
 * revision has (`--suite draft`), by a right client and by one broken four ways at once (each
 * breakage touches one scenario's check). auth/authorization-server-migration also runs at
 * 2025-11-25 (the runner told --force), where the everything-client gets far enough to meet the
 * second authorization server: right, and broken two ways. The suite's everything-client speaks the session-era
 * lifecycle in its auth handlers: both servers, stateless at 2026-07-28, refuse its
 * `initialize` once it holds a token. The runner's suite mode scores checks only (a client's
 * exit code does not count there), so the batches compare each scenario's checks.
 *
 * Every case's two runs start when the file loads, four runs at a time; each test awaits its own.
 *
 * The auth extensions `auth/enterprise-managed-authorization` (SEP-990) and `auth/wif-jwt-bearer`
 * (SEP-1933), one runner run each (the runner's extensions suite would run four more scenarios),
 * both runners at once: the right client and the suite's broken WIF clients, and two broken token
 * exchanges, give the same scored checks and exit codes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { CLI } from "../support/build.js";
import { scenarioNames } from "../../src/scenarios/index.js";
import { limiter, run, scored, started, type Scored } from "./side-by-side-support.js";

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


async function official(scenario: string, broken: string, extra: readonly string[] = []): Promise<Scored> {
  const dir = join(out, `official-${scenario.replace(/\W/g, "_")}-${broken || "good"}`);
  const exit = await run([...SUITE, "--command", CLIENT, "--scenario", scenario, ...extra, "-o", dir], broken);
  // The runner writes <dir>/auth/<name>-<time>/checks.json: the scenario's name is a path.
  const parent = join(dir, ...scenario.split("/").slice(0, -1));
  const [result] = readdirSync(parent);
  return { exit, checks: scored(JSON.parse(readFileSync(join(parent, result as string, "checks.json"), "utf8"))) };
}

async function ours(scenario: string, broken: string, extra: readonly string[] = []): Promise<Scored> {
  const file = join(out, `ours-${scenario.replace(/\W/g, "_")}-${broken || "good"}.json`);
  const exit = await run([...OURS, "--command", CLIENT, "--scenario", scenario, ...extra, "--json", file], broken);
  const report = JSON.parse(readFileSync(file, "utf8")) as { verdicts: Array<{ checks: Array<{ id: string; status: string }> }> };
  return { exit, checks: scored(report.verdicts[0]?.checks ?? []) };
}

/** Four runs at a time, in the order the tests await them. */
const queue = limiter(4);
/** Starts both runners' runs of a case now (queued); the test awaits them later. */
const both = (scenario: string, broken: string, officialExtra: readonly string[] = [], oursExtra: readonly string[] = []): Promise<[Scored, Scored]> =>
  started(Promise.all([queue(() => official(scenario, broken, officialExtra)), queue(() => ours(scenario, broken, oursExtra))]));

describe("the official runner and mcpmock scenarios agree on the auth scenarios", () => {
  const verdicts = CASES.map(([scenario, broken]) => both(scenario, broken));
  test.each(CASES.map((c, i) => [...c, i] as const))("%s, client broken as %j: %s in both", async (_scenario, _broken, expected, i) => {
    const [theirs, mine] = await (verdicts[i] as Promise<[Scored, Scored]>);
    expect(mine.checks).toEqual(theirs.checks);
    expect(mine.checks.length).toBeGreaterThan(0);
    expect(theirs.exit).toBe(expected === "passes" ? 0 : 1);
    expect(mine.exit).toBe(theirs.exit);
  }, 60_000);
});

/** The auth extensions (SEP-990, SEP-1933), right and broken as the suite's own broken clients are (wif-broken-clients.ts), and the check ids each breakage fails. */
const EXTENSION_CASES: Array<[scenario: string, broken: string, failing: string[]]> = [
  ["auth/enterprise-managed-authorization", "", []],
  ["auth/enterprise-managed-authorization", "xaa-no-token-type", ["complete-flow-jwt-bearer", "complete-flow-token-exchange"]],
  ["auth/enterprise-managed-authorization", "xaa-wrong-resource", ["complete-flow-jwt-bearer"]],
  ["auth/wif-jwt-bearer", "", []],
  ["auth/wif-jwt-bearer", "wif-wrong-audience", ["wif-assertion-audience", "wif-no-retry"]],
  ["auth/wif-jwt-bearer", "wif-expired", ["wif-assertion-expired", "wif-no-retry"]],
  ["auth/wif-jwt-bearer", "wif-no-assertion", ["wif-assertion-missing"]],
  // Refused invalid_scope after the assertion verified: no check fails, the client's error is its verdict.
  ["auth/wif-jwt-bearer", "wif-scope-rejected", []],
  // The made-up code of the fallback has no PKCE verifier: the suite's checks of any authorization_code request fail too.
  ["auth/wif-jwt-bearer", "wif-grant-fallback", ["pkce-code-verifier-sent", "pkce-verifier-matches-challenge", "wif-grant-fallback"]],
  ["auth/wif-jwt-bearer", "wif-retry", ["wif-no-retry"]],
];

describe("the official runner and mcpmock scenarios agree on the auth extensions", () => {
  const verdicts = EXTENSION_CASES.map(([scenario, broken]) => both(scenario, broken));
  test.each(EXTENSION_CASES.map((c, i) => [...c, i] as const))("%s, client broken as %j: fails %j in both", async (_scenario, broken, failing, i) => {
    const [theirs, mine] = await (verdicts[i] as Promise<[Scored, Scored]>);
    expect(mine.checks).toEqual(theirs.checks);
    expect([...new Set(theirs.checks.filter((c) => !c.endsWith(" SUCCESS")).map((c) => c.split(" ")[0]))]).toEqual(failing);
    expect(theirs.exit).toBe(broken ? 1 : 0);
    expect(mine.exit).toBe(theirs.exit);
  }, 60_000);
});

const MIGRATION = "auth/authorization-server-migration";

/**
 * auth/authorization-server-migration at 2025-11-25, where the suite's everything-client gets past
 * initialize (at 2026-07-28, its revision, that client never does, in either runner: the batches
 * below): both runners told --spec-version and --force. A right client, one that carries
 * the first server's client_id over (reuse-credentials) and one that keeps the first server's
 * token (keep-token) get the same checks from both; the three run at once.
 */
describe("auth/authorization-server-migration at 2025-11-25: the official runner and mcpmock scenarios agree", () => {
  const at = ["--spec-version", "2025-11-25"];
  const cases: Array<[broken: string, failing: string[]]> = [
    ["", []],
    ["reuse-credentials", ["sep-2352-no-cross-as-credential-reuse FAILURE", "sep-2352-no-reuse-on-as-change FAILURE", "sep-2352-reregister-on-as-change FAILURE"]],
    ["keep-token", ["sep-2352-reregister-on-as-change FAILURE"]],
  ];
  const verdicts = cases.map(([broken]) => both(MIGRATION, broken, [...at, "--force"], [...at, "--force"]));
  test("a right client, reuse-credentials, keep-token: the same checks and exit codes", async () => {
    const results = await Promise.all(verdicts);
    results.forEach(([theirs, mine], i) => {
      const [broken, failing] = cases[i] as [string, string[]];
      expect({ broken, checks: mine.checks }).toEqual({ broken, checks: theirs.checks });
      expect({ broken, failing: mine.checks.filter((c) => c.endsWith(" FAILURE")) }).toEqual({ broken, failing });
      // A right client registers at each authorization server; the broken ones at the first only.
      expect(mine.checks.filter((c) => c === "client-registration SUCCESS").length).toBe(broken === "" ? 2 : 1);
      expect({ broken, exit: mine.exit }).toEqual({ broken, exit: theirs.exit });
      expect(theirs.exit).toBe(broken === "" ? 0 : 1);
    });
  }, 120_000);
});

/** Runs one batch through the runner's suite mode: each auth scenario's scored checks, by name. */
async function officialBatch(args: string[], broken: string, label: string): Promise<{ exit: number | null; checks: Map<string, string[]> }> {
  const dir = join(out, `official-batch-${label}`);
  const exit = await run([...SUITE, "--command", CLIENT, ...args, "-o", dir], broken);
  const checks = new Map<string, string[]>();
  // The runner writes <dir>/auth/<name>-<time>/checks.json (and the non-auth scenarios of a suite beside auth/).
  for (const result of readdirSync(join(dir, "auth"))) {
    const name = `auth/${result.replace(/-\d{4}-\d\d-\d\dT.*$/, "")}`;
    checks.set(name, scored(JSON.parse(readFileSync(join(dir, "auth", result, "checks.json"), "utf8"))));
  }
  return { exit, checks };
}

interface OurVerdict {
  scenario: string;
  passed: boolean;
  clientError?: string;
  checks: Array<{ id: string; status: string; errorMessage?: string }>;
}

async function oursBatch(scenarios: readonly string[], broken: string, label: string): Promise<OurVerdict[]> {
  const file = join(out, `ours-batch-${label}.json`);
  await run([...OURS, "--command", CLIENT, ...scenarios.flatMap((s) => ["--scenario", s]), "--spec-version", "2026-07-28", "--jobs", "4", "--json", file], broken);
  return (JSON.parse(readFileSync(file, "utf8")) as { verdicts: OurVerdict[] }).verdicts;
}

const AUTH_2025 = CASES.map(([scenario]) => scenario).filter((s, i, all) => all.indexOf(s) === i);
/** The auth scenarios only 2026-07-28 has (the runner's draft suite holds them, with non-auth ones). */
const AUTH_2026_ONLY = scenarioNames({ suite: "official", specVersion: "2026-07-28" }).filter((n) => n.startsWith("auth/") && !AUTH_2025.includes(n));
/** Each breakage, and the one check it must fail. */
const BROKEN_2026: Record<string, string> = {
  "auth/resource-mismatch": "resource-mismatch-rejected",
  "auth/offline-access-not-supported": "sep-2207-offline-access-not-requested",
  "auth/iss-supported-missing": "sep-2468-client-reject-missing-iss",
  "auth/iss-wrong-issuer": "sep-2468-client-compare-iss-supported",
  "auth/iss-unexpected": "sep-2468-client-compare-iss-unadvertised",
  "auth/iss-normalized": "sep-2468-client-no-normalization",
  "auth/metadata-issuer-mismatch": "sep-2468-client-validate-metadata-issuer",
};

/**
 * The migration scenario lets initialize pass without a token: the everything-client's session-era
 * initialize is refused at once at 2026-07-28, in both runners, before any token, so the resource
 * never moves and re-registration fails for every client (the right one too).
 */
const MIGRATION_UNMOVED = "sep-2352-reregister-on-as-change";

describe("at 2026-07-28, batched, the official runner and mcpmock scenarios agree on the auth scenarios", () => {
  test("the 14 of the 2025-11-25 set, run at 2026-07-28: the same checks, scenario by scenario", async () => {
    const [theirs, mine] = await Promise.all([officialBatch(["--suite", "auth", "--spec-version", "2026-07-28"], "", "auth-2026"), oursBatch(AUTH_2025, "", "auth-2026")]);
    expect([...theirs.checks.keys()].sort()).toEqual([...AUTH_2025].sort());
    for (const verdict of mine) expect({ scenario: verdict.scenario, checks: scored(verdict.checks) }).toEqual({ scenario: verdict.scenario, checks: theirs.checks.get(verdict.scenario) });
    // The session-era initialize is refused once the client holds a token, in both: the client ends in an error.
    expect(mine.find((v) => v.scenario === "auth/metadata-default")?.clientError).toMatch(/Unsupported protocol version: 2025-11-25/);
    expect(theirs.exit).toBe(1);
  }, 180_000);

  test.each([
    ["a right client", ""],
    ["a client broken four ways", "any-resource,offline-access,no-iss-check,no-issuer-check"],
  ])("the auth scenarios only 2026-07-28 has, %s: the same checks, scenario by scenario", async (_, broken) => {
    const label = broken ? "draft-broken" : "draft";
    const [theirs, mine] = await Promise.all([officialBatch(["--suite", "draft"], broken, label), oursBatch(AUTH_2026_ONLY, broken, label)]);
    // Asking offline_access where it is not supported, the broken client is refused (invalid_scope) by the mock's authorization server, which the suite's lets through: FAILURE of the same check in both, with fewer checks here.
    const compared = AUTH_2026_ONLY.filter((n) => theirs.checks.has(n) && !(broken && n === "auth/offline-access-not-supported"));
    expect(compared.length).toBeGreaterThanOrEqual(broken ? 10 : 11);
    expect(compared).toContain(MIGRATION);
    for (const verdict of mine.filter((v) => compared.includes(v.scenario))) expect({ scenario: verdict.scenario, checks: scored(verdict.checks) }).toEqual({ scenario: verdict.scenario, checks: theirs.checks.get(verdict.scenario) });
    const failing = (v: OurVerdict): string[] => v.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => c.id);
    for (const verdict of mine) {
      const own = broken ? BROKEN_2026[verdict.scenario] : undefined;
      // A right client fails none of the scenarios' checks; a broken one fails exactly the check its breakage is about, saying what it did.
      expect({ scenario: verdict.scenario, failing: failing(verdict) }).toEqual({ scenario: verdict.scenario, failing: own ? [own] : verdict.scenario === MIGRATION ? [MIGRATION_UNMOVED] : [] });
      if (own) expect(verdict.checks.find((c) => c.id === own)?.errorMessage).toMatch(/^The client (made an authorization request|asked scope|exchanged the code|registered)/);
    }
  }, 180_000);
});
