/**
 * The closing line `vitest: N passed, N failed, N skipped` (test/support/summary-reporter.ts),
 * read from a real vitest run over three files: one passes (and skips one test), one fails to
 * load, one has a beforeAll that throws. Both broken files count as failed.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const FIXTURES = fileURLToPath(new URL("./fixtures/summary-reporter/", import.meta.url));

test("a file that failed to load, or whose beforeAll threw, counts as failed", async () => {
  const vitest = `${ROOT}node_modules/vitest/vitest.mjs`;
  const outcome = await run(process.execPath, [vitest, "run", "--config", `${FIXTURES}vitest.config.ts`], { cwd: FIXTURES, env: { ...process.env, CI: "true" } }).then(
    (done) => ({ code: 0, stdout: done.stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
  expect(outcome.code).toBe(1);
  expect(outcome.stdout.trim().split("\n").at(-1)).toBe("vitest: 1 passed, 2 failed, 2 skipped");
}, 60_000);
