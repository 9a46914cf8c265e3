import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Examples and README snippets import "mcpmock" as a user would; tests run them against src/.
    alias: [
      { find: /^mcpmock\/vitest$/, replacement: fileURLToPath(new URL("./src/vitest/index.ts", import.meta.url)) },
      { find: /^mcpmock\/recording$/, replacement: fileURLToPath(new URL("./src/recording/index.ts", import.meta.url)) },
      { find: /^mcpmock\/scenarios$/, replacement: fileURLToPath(new URL("./src/scenarios/index.ts", import.meta.url)) },
      { find: /^mcpmock$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Builds dist/ once: the CLI tests spawn the built command.
    // Also unpacks the @sparticuz/chromium browser once where no system Chromium is installed.
    globalSetup: ["./test/support/build.ts", "./test/support/chromium-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // At least two files at once: vitest's default (one less than the cores) is one on a 2-core
    // machine, where most files spend their time waiting on child processes, sockets and
    // browsers, not on the CPU (2026-12-07, 2 cores: 14.1 minutes with one, 11.3 with two).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 15_000,
    hookTimeout: 15_000,
    // test/typed.test-d.ts is type-checked by `npm run typecheck` (tsc, which npm test runs first;
    // tsconfig.json includes test/): vitest's typecheck mode would add nothing but its notice.
  },
});
