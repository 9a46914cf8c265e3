/**
 * Issue 43, item 4: the admin API recipe for another language, examples/admin_api_test.py (the
 * official Python `mcp` client as the code under test, curl for stubbing and verifying), runs
 * here as in CI and passes. Never skipped: without the `mcp` package it fails saying how to get
 * it (.ci/run installs it).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

test("examples/admin_api_test.py passes with the official mcp client against npx mcpmock serve", () => {
  const probe = spawnSync("python3", ["-c", "import mcp"], { encoding: "utf8" });
  expect(probe.status, `the Python recipe needs python3 and the mcp package: run \`python3 -m pip install mcp\` (${probe.stderr || probe.error?.message})`).toBe(0);
  const run = spawnSync("python3", ["examples/admin_api_test.py", "-v"], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 90_000,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
  });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stderr).toContain("test_forecast_reads_the_temperature (__main__.ForecastTest.test_forecast_reads_the_temperature) ... ok");
  expect(run.stderr).toContain("test_forecast_survives_a_tool_error (__main__.ForecastTest.test_forecast_survives_a_tool_error) ... ok");
  expect(run.stderr).toMatch(/Ran 2 tests in [\d.]+s\n\nOK/);
}, 120_000);
