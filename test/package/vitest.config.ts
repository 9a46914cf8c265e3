/**
 * `npm run test:package`: the packed package, installed into a new project (tarball.test.ts).
 * Separate from `vitest run` because it installs from the npm registry and takes a while.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("../../", import.meta.url)),
  test: {
    include: ["test/package/**/*.test.ts"],
    // Builds dist/ first, as `npm run build` does.
    globalSetup: ["./test/support/build.ts"],
    env: { MCPMOCK_PACKAGE_TEST: "1" },
    reporters: ["default", "./test/support/summary-reporter.ts"],
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
