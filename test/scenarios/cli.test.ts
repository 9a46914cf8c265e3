/**
 * `mcpmock scenarios` as a user runs it (dist/cli.js): the command gets the URL last and the
 * runner's variables, the JSON report, the last line and the exit codes, and mistakes on the
 * command line (exit 2) that say the fix.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runCli } from "../support/cli-run.js";

const dir = mkdtempSync(join(tmpdir(), "mcpmock-scenarios-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mcpmock scenarios", () => {
  test("runs the command with the URL last and the runner's variables; --json; exit 0 when all pass", async () => {
    const seen = join(dir, "seen.txt");
    // A shell client that records what it was given and lists nothing: initialize is never sent, which the official scenario does not score.
    const command = `node -e "require('fs').writeFileSync('${seen}', process.env.MCP_CONFORMANCE_SCENARIO + ' ' + process.env.MCP_CONFORMANCE_PROTOCOL_VERSION + ' ' + process.argv.at(-1))"`;
    const report = join(dir, "report.json");
    const run = await runCli(["scenarios", "--command", command, "--scenario", "initialize", "--json", report]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split("\n").at(-1)).toBe("scenarios: 1/1 passed");
    expect(readFileSync(seen, "utf8")).toMatch(/^initialize 2025-11-25 http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(JSON.parse(readFileSync(report, "utf8"))).toMatchObject({ verdicts: [{ scenario: "initialize", passed: true, checks: [] }] });
  });

  test("a client that fails: its checks and its output, exit 1", async () => {
    const run = await runCli(["scenarios", "--command", `node -e "console.error('cannot connect'); process.exit(3)"`, "--scenario", "tools_call"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("✗ tool-add-numbers: Validates that the add_numbers tool works correctly");
    expect(run.stdout).toContain("the client exited with code 3; its output ended with:");
    expect(run.stdout).toContain("cannot connect");
    expect(run.stdout.trim().split("\n").at(-1)).toBe("scenarios: 0/1 passed");
  });

  test.each([
    [["scenarios"], /needs the client to run: mcpmock scenarios --command "node my-client.js"/],
    [["scenarios", "--command", "x", "--scenario", "tools-call"], /no scenario is named "tools-call". Did you mean "tools_call"\?/],
    [["scenarios", "--command", "x", "--suite", "evil"], /--suite takes official, hostile or all; received "evil"/],
    [["scenarios", "--command", "x", "--timeout", "soon"], /--timeout takes milliseconds/],
  ])("%j is refused with exit 2", async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
