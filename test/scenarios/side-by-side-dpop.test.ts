/**
 * Fidelity of the DPoP scenarios (`auth/dpop`, `auth/dpop-nonce`): the suite's DPoP client
 * (helpers/dpopClientFlow.ts, copied in clients/conformance-auth-client.mjs) run by the official
 * conformance runner's client mode and by `mcpmock scenarios --command` gets the same scored
 * checks (id and status, as many of each) and the same exit code, right and broken the ways the
 * suite's auth-test-dpop-*.ts clients are: the bound token sent as Bearer, one proof reused, no
 * proof at the token endpoint, each server's nonce challenge ignored. The runner plays an
 * extension's scenario at 2025-11-25 unless told another revision with `--force`: one case at
 * 2026-07-28, where both servers, stateless, refuse the client's session-era `initialize`.
 * The mock's servers refuse what the suite's let through (a Bearer-presented bound token, a
 * replayed proof): the client then ends in an error, which changes no check. The runs go four
 * at a time (the runner's own wait dominates each, not its work).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { CLI } from "../support/build.js";
import { limiter, run, scored, started, type Scored } from "./side-by-side-support.js";

const CLIENT = "node test/scenarios/clients/conformance-auth-client.mjs";
const SUITE = ["--import", "./scripts/conformance/glob-sync-shim.mjs", "node_modules/@modelcontextprotocol/conformance/dist/index.js", "client"];
const OURS = [CLI, "scenarios"];
const out = mkdtempSync(join(tmpdir(), "mcpmock-side-by-side-dpop-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

type Case = [scenario: string, broken: string, specVersion: string | undefined, failing: readonly string[]];

const CASES: Case[] = [
  ["auth/dpop", "", undefined, []],
  ["auth/dpop", "dpop-bearer", undefined, ["sep-1932-client-dpop-auth-scheme"]],
  ["auth/dpop", "dpop-replay", undefined, ["sep-1932-client-fresh-proof"]],
  ["auth/dpop", "dpop-no-token-proof", undefined, ["sep-1932-client-token-request-proof", "sep-1932-client-fresh-proof"]],
  ["auth/dpop-nonce", "", undefined, []],
  ["auth/dpop-nonce", "dpop-no-as-nonce", undefined, ["sep-1932-client-dpop-auth-scheme", "sep-1932-client-fresh-proof", "sep-1932-client-as-nonce", "sep-1932-client-rs-nonce"]],
  ["auth/dpop-nonce", "dpop-no-rs-nonce", undefined, ["sep-1932-client-rs-nonce"]],
  ["auth/dpop-nonce", "", "2026-07-28", []],
];

const label = ([scenario, broken, specVersion]: Case): string => `${scenario.replace(/\W/g, "_")}-${broken || "good"}-${specVersion ?? "default"}`;

async function official(c: Case): Promise<Scored> {
  const [scenario, broken, specVersion] = c;
  const dir = join(out, `official-${label(c)}`);
  const exit = await run([...SUITE, "--command", CLIENT, "--scenario", scenario, ...(specVersion ? ["--spec-version", specVersion, "--force"] : []), "-o", dir], broken);
  // The runner writes <dir>/auth/<name>-<time>/checks.json.
  const [result] = readdirSync(join(dir, "auth"));
  return { exit, checks: scored(JSON.parse(readFileSync(join(dir, "auth", result as string, "checks.json"), "utf8"))) };
}

interface Ours extends Scored {
  failing: Array<{ id: string; errorMessage?: string }>;
  specVersion: string;
}

async function ours(c: Case): Promise<Ours> {
  const [scenario, broken, specVersion] = c;
  const file = join(out, `ours-${label(c)}.json`);
  const exit = await run([...OURS, "--command", CLIENT, "--scenario", scenario, ...(specVersion ? ["--spec-version", specVersion] : []), "--json", file], broken);
  const [verdict] = (JSON.parse(readFileSync(file, "utf8")) as { verdicts: Array<{ specVersion: string; checks: Array<{ id: string; status: string; errorMessage?: string }> }> }).verdicts;
  const checks = verdict?.checks ?? [];
  return { exit, checks: scored(checks), failing: checks.filter((x) => x.status === "FAILURE" || x.status === "WARNING"), specVersion: verdict?.specVersion ?? "" };
}

/** Every case's two verdicts, started now, four runs at a time; each test awaits its own. */
const queue = limiter(4);
const results = new Map(CASES.map((c) => [label(c), started(Promise.all([queue(() => official(c)), queue(() => ours(c))]))]));

describe("the official runner and mcpmock scenarios agree on the DPoP scenarios", () => {
  test.each(CASES)("%s, client broken as %j, at %s: the same checks and exit code; it fails exactly %j", async (...c) => {
    const [theirs, mine] = await (results.get(label(c)) as Promise<[Scored, Ours]>);
    expect(mine.checks).toEqual(theirs.checks);
    expect(mine.checks.length).toBeGreaterThanOrEqual(c[0] === "auth/dpop" ? 12 : 14);
    expect(mine.exit).toBe(theirs.exit);
    expect(mine.specVersion).toBe(c[2] ?? "2025-11-25");
    expect(mine.failing.map((f) => f.id)).toEqual(c[3]);
    // At 2025-11-25 the exit code is the verdict; at 2026-07-28 the client's refused initialize fails both runs.
    expect(theirs.exit).toBe(c[3].length === 0 && c[2] === undefined ? 0 : 1);
    for (const f of mine.failing) expect(f.errorMessage).toMatch(/^(Client|DPoP proof)/);
  });
});
