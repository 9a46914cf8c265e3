/**
 * Issue 32, "Beyond": `mcpmock/vitest`. The passing side runs as a recipe
 * (test/recipes/vitest-integration.test.ts, shown in the README); here a vitest of its own
 * runs tests that must fail: a test with an unmatched request fails with the miss report
 * (unless it called `mock.allowUnmatched()`), and the matchers' failures show vitest's
 * Expected/Received diff and the near-miss report.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CONFIG = fileURLToPath(new URL("./vitest-fixture/vitest.config.ts", import.meta.url));

interface Assertion {
  title: string;
  status: string;
  failureMessages: string[];
}
let results: Assertion[] = [];
let output = "";

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), "mcpmock-vitest-"));
  const json = join(dir, "report.json");
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^VITEST/.test(k)));
  const run = spawnSync(process.execPath, [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", CONFIG, "--reporter=default", "--reporter=json", `--outputFile.json=${json}`], {
    cwd: ROOT,
    env: { ...env, NO_COLOR: "1", FORCE_COLOR: "0" },
    encoding: "utf8",
    timeout: 90_000,
  });
  output = `${run.stdout}${run.stderr}`;
  results = (JSON.parse(readFileSync(json, "utf8")) as { testResults: Array<{ assertionResults: Assertion[] }> }).testResults.flatMap((r) => r.assertionResults);
  rmSync(dir, { recursive: true, force: true });
}, 100_000);

const result = (title: string): Assertion => {
  const found = results.find((r) => r.title === title);
  if (!found) throw new Error(`no result for ${title}:\n${output}`);
  return found;
};

test("a test with a request no stub answered fails, with the miss report in the failure", () => {
  const r = result("unmatched fails the test");
  expect(r.status).toBe("failed");
  expect(r.failureMessages.join("\n")).toContain("1 request(s) matched no stub:");
  expect(r.failureMessages.join("\n")).toContain('No stub answers tools/call "search" with arguments {"q":"dogs"}');
});

test("mock.allowUnmatched() lets it pass; concurrent tests each have their own mock", () => {
  expect(result("allowed unmatched passes").status).toBe("passed");
  expect(result("concurrent tests each have their own mock (a)").status).toBe("passed");
  expect(result("concurrent tests each have their own mock (b)").status).toBe("passed");
});

test("toHaveReceived fails with the near-miss report and vitest's Expected/Received diff", () => {
  const r = result("toHaveReceived fails with the diff");
  expect(r.status).toBe("failed");
  expect(r.failureMessages.join("\n")).toContain("Closest requests received:");
  expect(output).toMatch(/- Expected\s*\n\+ Received/);
  expect(output).toMatch(/- args\.q: "cats"/);
  expect(output).toMatch(/\+ args\.q: "dogs"/);
});

test("toHaveReceivedTimes and .not fail with the counts and the matching requests", () => {
  expect(result("toHaveReceivedTimes fails with the count").failureMessages.join("\n")).toMatch(/exactly twice, but received it once/);
  expect(result(".not.toHaveReceived fails listing the matching request").failureMessages.join("\n")).toMatch(/Matching requests:\n\s+#\d+ tools\/call "search" \{"q":"dogs"\}/);
});
