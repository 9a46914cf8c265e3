/**
 * `mcpTest(options)`: vitest's `test.extend` with a fresh mock per test, closed after it, that
 * fails the test on requests no stub answered (each miss report once, in the failure) unless
 * the test says `mock.allowUnmatched()`. Built on the public API only.
 * @module
 */
import { test as base, type TestAPI } from "vitest";
import { McpMock, type McpMockOptions, type ToolDeclaration } from "../index.js";
import { installMatchers } from "./matchers.js";

/**
 * What a test made by {@link mcpTest} receives besides vitest's own context.
 *
 * @example
 * ```ts
 * import { mcpTest, type McpTestFixtures } from "mcpmock/vitest";
 * const tools = [{ name: "search" }] as const;
 * const test = mcpTest({ tools });
 * const stubSearch = ({ mock }: McpTestFixtures<typeof tools>) => mock.toolsCall("search").respondsWith("found");
 * test("searches", async ({ mock }) => {
 *   stubSearch({ mock });
 *   // ... point the code under test at mock.url ...
 * });
 * ```
 * @category Test runners
 */
export interface McpTestFixtures<Tools extends readonly ToolDeclaration[] = readonly ToolDeclaration[]> {
  /** A mock of its own, started for this test (over HTTP on a free port unless `transport` says otherwise) and closed after it. */
  mock: McpMock<Tools>;
}

/**
 * A vitest `test` whose tests get a fresh `mock`, started with `options` and closed after the
 * test; the test fails if a request matched no stub (the failure lists each miss report),
 * unless it called `mock.allowUnmatched()`. Works with `test.concurrent` (each test has its
 * own mock). Also installs the matchers (`toHaveReceived`, `toHaveReceivedTimes`).
 *
 * @example
 * ```ts
 * import { mcpTest } from "mcpmock/vitest";
 * const test = mcpTest({ tools: [{ name: "search" }] });
 * test("searches", async ({ mock }) => {
 *   mock.toolsCall("search").respondsWith("found");
 *   // ... point the code under test at mock.url ...
 * });
 * ```
 * @category Test runners
 */
export function mcpTest<const Tools extends readonly ToolDeclaration[] = readonly ToolDeclaration[]>(
  options: McpMockOptions<Tools> = {},
): TestAPI<McpTestFixtures<Tools>> {
  installMatchers();
  // Misses are reported once, by the failure at the end of the test (unless a handler is given).
  const onUnmatched = typeof options.onUnmatched === "function" || options.onUnmatched === "warn" ? options.onUnmatched : "silent";
  return base.extend<McpTestFixtures<Tools>>({
    // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern: none
    mock: async ({}, use) => {
      const mock = await McpMock.start<Tools>({ ...options, onUnmatched });
      try {
        await use(mock);
      } finally {
        await mock.close();
      }
      mock.assertNoUnmatched();
    },
  });
}
