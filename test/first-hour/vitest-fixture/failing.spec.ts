// Tests that must fail (and two that must pass), run by test/first-hour/vitest-integration.test.ts.
import { expect } from "vitest";
import { toolsCall } from "mcpmock";
import { mcpTest } from "mcpmock/vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";

const test = mcpTest({ transport: "none", tools: [{ name: "search" }] });

async function call(mock: { clientTransport(): never }, q: string): Promise<void> {
  const client = new Client({ name: "fixture", version: "1.0.0" });
  await client.connect(mock.clientTransport());
  await client.callTool({ name: "search", arguments: { q } });
  await client.close();
}

test("unmatched fails the test", async ({ mock }) => {
  mock.toolsCall("search").withArgs({ q: "cats" }).respondsWith("cats");
  await call(mock as never, "dogs");
});

test("allowed unmatched passes", async ({ mock }) => {
  mock.allowUnmatched();
  await call(mock as never, "dogs");
});

test("toHaveReceived fails with the diff", async ({ mock }) => {
  mock.toolsCall("search").respondsWith("any");
  await call(mock as never, "dogs");
  expect(mock).toHaveReceived(toolsCall("search").withArgs({ q: "cats" }));
});

test("toHaveReceivedTimes fails with the count", async ({ mock }) => {
  mock.toolsCall("search").respondsWith("any");
  await call(mock as never, "dogs");
  expect(mock).toHaveReceivedTimes(toolsCall("search"), 2);
});

test(".not.toHaveReceived fails listing the matching request", async ({ mock }) => {
  mock.toolsCall("search").respondsWith("any");
  await call(mock as never, "dogs");
  expect(mock).not.toHaveReceived(toolsCall("search"));
});

test.concurrent("concurrent tests each have their own mock (a)", async ({ mock }) => {
  mock.toolsCall("search").respondsWith("a");
  await call(mock as never, "a");
  expect(mock).toHaveReceivedTimes(toolsCall("search"), 1);
});

test.concurrent("concurrent tests each have their own mock (b)", async ({ mock }) => {
  mock.toolsCall("search").respondsWith("b");
  await call(mock as never, "b");
  expect(mock).toHaveReceivedTimes(toolsCall("search"), 1);
});
