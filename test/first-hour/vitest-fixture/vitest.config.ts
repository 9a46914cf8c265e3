import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Runs failing.spec.ts in a vitest of its own (test/first-hour/vitest-integration.test.ts reads its report).
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  resolve: {
    alias: [
      { find: /^mcpmock\/vitest$/, replacement: fileURLToPath(new URL("../../../src/vitest/index.ts", import.meta.url)) },
      { find: /^mcpmock$/, replacement: fileURLToPath(new URL("../../../src/index.ts", import.meta.url)) },
    ],
  },
  test: { include: ["failing.spec.ts"], testTimeout: 15_000 },
});
