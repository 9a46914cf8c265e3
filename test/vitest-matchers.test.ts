/**
 * mcpmock/vitest's matchers, in this process: a failure states the expectation that failed,
 * plain or negated, with the count received.
 */
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpMock, toolsCall } from "../src/index.js";
import { installMatchers } from "../src/vitest/matchers.js";
import { thrownMessage } from "./support/thrown.js";

let mock: McpMock | undefined;
beforeAll(() => installMatchers());
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** A mock that received `calls` calls of the tool "search". */
async function searched(calls: number): Promise<McpMock> {
  mock = await McpMock.start({ transport: "none", tools: [{ name: "search", inputSchema: { type: "object" } }] });
  mock.toolsCall("search").respondsWith("found");
  const client = new Client({ name: "matchers", version: "1.0.0" });
  await client.connect(mock.clientTransport());
  for (let i = 0; i < calls; i++) await client.callTool({ name: "search", arguments: { q: `q${i}` } });
  await client.close();
  return mock;
}

describe("a failed matcher says what was expected and what was received", () => {
  test(".not.toHaveReceivedTimes(pattern, 0): at least once was expected, none received", async () => {
    const m = await searched(0);
    const message = thrownMessage(() => expect(m).not.toHaveReceivedTimes(toolsCall("search"), 0));
    expect(message).toContain('Expected tools/call "search" at least once, but received it never.');
    expect(message).not.toMatch(/exactly/);
  });

  test(".not.toHaveReceivedTimes(pattern, 2): not exactly twice was expected, twice received", async () => {
    const m = await searched(2);
    const message = thrownMessage(() => expect(m).not.toHaveReceivedTimes(toolsCall("search"), 2));
    expect(message).toContain('Expected tools/call "search" not exactly twice, but received it twice.');
    expect(message).toMatch(/Matching requests:\n\s+#\d+ tools\/call "search" \{"q":"q0"\}/);
  });

  test(".not.toHaveReceived(pattern): never was expected", async () => {
    const m = await searched(1);
    expect(thrownMessage(() => expect(m).not.toHaveReceived(toolsCall("search")))).toContain('Expected tools/call "search" never, but received it once.');
  });

  test("toHaveReceivedTimes and toHaveReceived, plain: the count expected and the count received", async () => {
    const m = await searched(1);
    expect(thrownMessage(() => expect(m).toHaveReceivedTimes(toolsCall("search"), 2))).toContain('Expected tools/call "search" exactly twice, but received it once.');
    expect(thrownMessage(() => expect(m).toHaveReceivedTimes(toolsCall("search"), 0))).toContain('Expected tools/call "search" never, but received it once.');
    expect(thrownMessage(() => expect(m).toHaveReceived(toolsCall("search").withArgs({ q: "cats" })))).toMatch(/Expected tools\/call "search" with arguments .* at least once, but received it never\./);
  });
});
