import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { include: ["vitest.spec.ts", "recipes/*.test.ts"], testTimeout: 30_000 },
});
