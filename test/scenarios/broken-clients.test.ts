/**
 * Clients broken on purpose fail exactly the scenario about what they broke: the runner's
 * client (clients/conformance-client.mjs) with one fault at a time, through
 * `mcpmock scenarios --command` over the scenarios added for the 2026-07-28 client set; every
 * other scenario passes, and the failed check says what the client did.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { CLI, ROOT } from "../support/build.js";

const SCENARIOS = ["json-schema-2020-12-preservation", "sep-2322-client-request-state", "http-custom-headers", "http-invalid-tool-headers"];
const out = mkdtempSync(join(tmpdir(), "mcpmock-broken-clients-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Report {
  verdicts: Array<{ scenario: string; passed: boolean; checks: Array<{ id: string; status: string; errorMessage?: string }> }>;
}

function verdicts(broken: string): Promise<{ exit: number | null; report: Report }> {
  const file = join(out, `${broken || "good"}.json`);
  const args = [CLI, "scenarios", "--command", "node test/scenarios/clients/conformance-client.mjs", ...SCENARIOS.flatMap((s) => ["--scenario", s]), "--json", file];
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, BROKEN: broken }, stdio: "ignore" });
    child.once("exit", (exit) => done({ exit, report: JSON.parse(readFileSync(file, "utf8")) as Report }));
  });
}

const CASES: Array<[broken: string, scenario: string, failed: { id: string; errorMessage: string }]> = [
  ["strip-defs", "json-schema-2020-12-preservation", { id: "json-schema-2020-12-client-$defs-preserved", errorMessage: "$defs missing from echoed inputSchema — client likely stripped it during parsing" }],
  ["alter-state", "sep-2322-client-request-state", { id: "sep-2322-client-request-state-echoed", errorMessage: "requestState was not echoed back exactly — clients MUST NOT inspect, parse, or modify it" }],
  ["same-id", "sep-2322-client-request-state", { id: "sep-2322-client-jsonrpc-id-different", errorMessage: "JSON-RPC id is the same on retry (2) — MUST be different" }],
  ["leak-state", "sep-2322-client-request-state", { id: "sep-2322-client-parallel-isolation", errorMessage: "Unrelated tool call included requestState from another tool's MRTR flow" }],
  ["retry-untyped", "sep-2322-client-request-state", { id: "sep-2322-default-result-type-complete", errorMessage: "Client retried with inputResponses even though the result had no resultType (should default to complete)" }],
  ["plain-unsafe", "http-custom-headers", { id: "sep-2243-client-base64-unsafe", errorMessage: "Value 'Hello, 世界' requires Base64 encoding but header was sent as plain: 'Hello%2C%20%E4%B8%96%E7%95%8C'" }],
  ["call-invalid", "http-invalid-tool-headers", { id: "sep-2243-x-mcp-header-charset", errorMessage: "Client called 'invalid_space_in_name' which has an invalid x-mcp-header. Clients MUST reject (exclude) such tools." }],
];

describe("clients broken on purpose", () => {
  test("the correct client passes all four", async () => {
    const { exit, report } = await verdicts("");
    expect(report.verdicts.map((v) => `${v.scenario} ${v.passed}`)).toEqual(SCENARIOS.map((s) => `${s} true`));
    expect(exit).toBe(0);
  }, 120_000);

  test.each(CASES)("broken as %j: fails %s only, saying what it did", async (broken, scenario, failed) => {
    const { exit, report } = await verdicts(broken);
    expect(report.verdicts.filter((v) => !v.passed).map((v) => v.scenario)).toEqual([scenario]);
    const failures = report.verdicts.flatMap((v) => v.checks.filter((c) => c.status === "FAILURE").map(({ id, errorMessage }) => ({ id, errorMessage })));
    expect(failures).toEqual([failed]);
    expect(exit).toBe(1);
  }, 120_000);
});
