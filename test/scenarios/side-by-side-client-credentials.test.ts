/**
 * Fidelity of the client credentials extension's scenarios (`auth/client-credentials-jwt`,
 * `auth/client-credentials-basic`, SEP-1046): the suite's everything-client (its
 * runClientCredentialsJwt / runClientCredentialsBasic, copied in
 * clients/conformance-auth-client.mjs) gets the same scored checks from the official runner and
 * from `mcpmock scenarios --command`, right and broken on purpose. The runner plays extension
 * scenarios at 2025-11-25 unless forced. One run of each runner for each client and scenario (the
 * runner's suite mode would play every extension scenario: more time, not less), the two runners
 * side by side in parallel; each breakage (a wrong secret, an assertion for another audience,
 * signed by another key, or with another `iss`) touches one scenario.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { CLI } from "../support/build.js";
import { limiter, run, scored, started } from "./side-by-side-support.js";

const CLIENT = "node test/scenarios/clients/conformance-auth-client.mjs";
const SUITE = ["--import", "./scripts/conformance/glob-sync-shim.mjs", "node_modules/@modelcontextprotocol/conformance/dist/index.js", "client"];
const out = mkdtempSync(join(tmpdir(), "mcpmock-side-by-side-cc-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface OurVerdict {
  scenario: string;
  passed: boolean;
  checks: Array<{ id: string; status: string; errorMessage?: string }>;
}

/** The runner's verdicts, by scenario: its scored checks (it writes <dir>/auth/<name>-<time>/checks.json). */
async function official(args: string[], broken: string, label: string): Promise<{ exit: number | null; checks: Map<string, string[]> }> {
  const dir = join(out, `official-${label}`);
  const exit = await run([...SUITE, "--command", CLIENT, ...args, "-o", dir], broken);
  const checks = new Map<string, string[]>();
  for (const result of readdirSync(join(dir, "auth"))) checks.set(`auth/${result.replace(/-\d{4}-\d\d-\d\dT.*$/, "")}`, scored(JSON.parse(readFileSync(join(dir, "auth", result, "checks.json"), "utf8"))));
  return { exit, checks };
}

async function ours(scenarios: readonly string[], broken: string, label: string): Promise<{ exit: number | null; verdicts: OurVerdict[] }> {
  const file = join(out, `ours-${label}.json`);
  const exit = await run([CLI, "scenarios", "--command", CLIENT, ...scenarios.flatMap((s) => ["--scenario", s]), "--json", file], broken);
  return { exit, verdicts: (JSON.parse(readFileSync(file, "utf8")) as { verdicts: OurVerdict[] }).verdicts };
}

const failing = (v: OurVerdict): string[] => [...new Set(v.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => c.id))];

describe("the official runner and mcpmock scenarios agree on the client credentials scenarios", () => {
  // Each client (right, or broken one way), the scenario, the checks it must fail (and nothing else), and what the message says the client did.
  const cases: Array<[string, string, string, string[], RegExp | undefined]> = [
    ["a right client", "", "auth/client-credentials-basic", [], undefined],
    ["a right client", "", "auth/client-credentials-jwt", [], undefined],
    ["a wrong secret", "wrong-secret", "auth/client-credentials-basic", ["client-credentials-basic-auth"], /^The Basic credentials named client conformance-test-client with the wrong secret\.$/],
    ["an assertion for another audience", "jwt-wrong-audience", "auth/client-credentials-jwt", ["client-credentials-jwt-verified"], /^The client's assertion named an aud other than the authorization server's issuer http:\/\/127\.0\.0\.1:\d+ \(jose: unexpected "aud" claim value\)\.$/],
    ["an assertion signed by another key", "jwt-other-key", "auth/client-credentials-jwt", ["client-credentials-jwt-verified"], /^The client's assertion was not signed with the private key the scenario gave it \(jose: signature verification failed\)\.$/],
    ["an assertion with another iss", "jwt-wrong-iss", "auth/client-credentials-jwt", ["client-credentials-jwt-iss", "client-credentials-jwt-verified"], /^The client's assertion said iss "someone-else"; RFC 7523 section 3 asks the client_id, conformance-test-client\.$/],
  ];
  // Every case's two runs start now, four at a time (each starts its own servers on port 0, and its own client); each test awaits its own.
  const queue = limiter(4);
  const verdicts = cases.map(([, broken, scenario]) => {
    const label = `${scenario.replace(/\W/g, "_")}-${broken || "good"}`;
    return started(Promise.all([queue(() => official(["--scenario", scenario], broken, label)), queue(() => ours([scenario], broken, label))]));
  });
  test.each(cases.map((c, i) => [...c, i] as const))("%s (BROKEN=%j), on %s: the same checks and exit code in both", async (_, _broken, scenario, fails, message, i) => {
    const [theirs, mine] = await (verdicts[i] as (typeof verdicts)[number]);
    const [verdict] = mine.verdicts as [OurVerdict];
    expect(scored(verdict.checks)).toEqual(theirs.checks.get(scenario));
    expect(failing(verdict)).toEqual(fails);
    if (message) expect(verdict.checks.find((c) => c.id === fails[0])?.errorMessage).toMatch(message);
    // A right client held a token the resource server took; a broken one was refused at the token endpoint.
    expect(verdict.checks.some((c) => c.id === "valid-bearer-token")).toBe(fails.length === 0);
    expect(theirs.exit).toBe(fails.length === 0 ? 0 : 1);
    expect(mine.exit).toBe(theirs.exit);
  }, 60_000);
});
