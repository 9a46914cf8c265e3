/**
 * The Python `mcp` client (ClientSession over streamable HTTP) through `mcpmock scenarios
 * --command`, every scenario of 2025-11-25 (an extension's scenarios are off the spec timeline, as
 * in the official runner: a listing by revision leaves them out): the verdicts are pinned, as for the SDK's JS clients
 * in hostile.test.ts. Skipped where Python has no `mcp` package (`pip install mcp`).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { startCli } from "../support/cli-run.js";
import { readmeVerdicts } from "./hostile-work.js";

function hasPythonMcp(): boolean {
  try {
    execFileSync("python3", ["-c", "import mcp"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const EXPECTED: Readonly<Record<string, boolean>> = {
  initialize: true,
  tools_call: true,
  "sse-retry": true,
  // ClientSession does not fill in the defaults of an elicitation form the application left empty.
  "elicitation-sep1034-client-defaults": false,
  "hostile/tool-list-changed": false,
  "hostile/canary-tool": true,
  "hostile/session-expired": false,
  "hostile/stream-dropped": true,
  "hostile/slow-answer": true,
  "hostile/malformed-json": true,
  "hostile/endless-cursor": true,
  "hostile/undeclared-capability": true,
  "hostile/list-changed-storm": true,
  "hostile/huge-result": true,
  // The recipe client has no OAuth flow and does not keep 2020-12 schema keywords it does not know.
  "auth/basic-cimd": false,
  "auth/metadata-default": false,
  "auth/metadata-var1": false,
  "auth/metadata-var2": false,
  "auth/metadata-var3": false,
  "auth/pre-registration": false,
  "auth/scope-from-scopes-supported": false,
  "auth/scope-from-www-authenticate": false,
  "auth/scope-omitted-when-undefined": false,
  "auth/scope-retry-limit": false,
  "auth/scope-step-up": false,
  "auth/token-endpoint-auth-basic": false,
  "auth/token-endpoint-auth-none": false,
  "auth/token-endpoint-auth-post": false,
  "json-schema-2020-12-preservation": false,
};

test("the README's table says what this test finds", () => {
  const readme = readmeVerdicts();
  const hostile = Object.entries(EXPECTED).filter(([name]) => name.startsWith("hostile/"));
  expect(hostile.map(([name]) => [name, readme.get(name)?.get("Python")])).toEqual(hostile.map(([name, passed]) => [name, passed ? "SUCCESS" : "FAILURE"]));
});

test.skipIf(!hasPythonMcp())("the Python mcp client through mcpmock scenarios --command", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpmock-python-"));
  try {
    const report = join(dir, "verdicts.json");
    // Twenty-nine scenarios, each a Python start: longer than runCli's 10 s.
    // Three at once (--jobs): a Python start is most of each scenario's time.
    const cli = startCli(["scenarios", "--command", "python3 test/scenarios/clients/python-client.py", "--spec-version", "2025-11-25", "--jobs", "3", "--json", report]);
    const run = await cli.exited;
    const { verdicts } = JSON.parse(readFileSync(report, "utf8")) as { verdicts: Array<{ scenario: string; passed: boolean }> };
    expect(Object.fromEntries(verdicts.map((v) => [v.scenario, v.passed]))).toEqual(EXPECTED);
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split("\n").at(-1)).toBe(`scenarios: 11/29 passed`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);

test.skipIf(!hasPythonMcp())("the Python mcp client over stdio: --transport stdio appends the server's command line, which it spawns", async () => {
  const names = ["initialize", "tools_call", "hostile/canary-tool", "hostile/tool-list-changed", "hostile/slow-answer"];
  const cli = startCli(["scenarios", "--command", "python3 test/scenarios/clients/python-client.py", "--transport", "stdio", ...names.flatMap((n) => ["--scenario", n])]);
  const run = await cli.exited;
  expect(run.stdout.trim().split("\n").at(-1)).toBe(`scenarios: ${names.filter((n) => EXPECTED[n]).length}/${names.length} passed`);
  for (const name of names) expect(run.stdout).toContain(`${EXPECTED[name] ? "✓" : "✗"} ${name}`);
}, 120_000);
