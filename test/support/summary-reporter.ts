/**
 * Prints one plain closing line that any CI reads: `vitest: N passed, N failed, N skipped`.
 * A test file that failed without a failed test (it failed to load, or a `beforeAll` threw, so
 * its tests never ran) counts as one failure, and so does an error outside any test: a run
 * that vitest calls failed never closes with "0 failed".
 */
import type { Reporter, SerializedError, TestModule } from "vitest/node";

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = []): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failedHere++;
        else skipped++;
      }
      if (failedHere === 0 && (module.state() === "failed" || module.errors().length > 0)) failedHere = 1;
      failed += failedHere;
    }
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
