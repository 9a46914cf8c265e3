/**
 * `mcpmock/vitest`: the vitest integration. `mcpTest(options)` gives each test a fresh mock
 * that fails the test on unmatched requests; `installMatchers()` adds `toHaveReceived` and
 * `toHaveReceivedTimes`. vitest is an optional peer dependency: only this entry point needs it.
 *
 * ```ts
 * import { mcpTest, installMatchers } from "mcpmock/vitest";
 * ```
 * @module mcpmock/vitest
 */
export { mcpTest, type McpTestFixtures } from "./mcp-test.js";
export { installMatchers } from "./matchers.js";
