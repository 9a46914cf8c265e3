/**
 * Issue 32, "Beyond": a baseline like MSW's. Stubs set in `beforeAll` and marked with
 * `mock.baseline()` stay across `mock.reset({ keepBaseline: true })` (with fresh call counts),
 * while the stubs a test added go; a plain `reset()` removes them all, as before.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { McpMock, toolsCall } from "mcpmock";

let mock: McpMock;
let client: Client;
const text = async (name: string): Promise<string> => {
  const result = await client.callTool({ name, arguments: {} });
  return (result.content as Array<{ text: string }>)[0]?.text ?? "";
};

beforeAll(async () => {
  mock = await McpMock.start({ transport: "none", onUnmatched: "silent", tools: [{ name: "weather" }, { name: "news" }] });
  mock.toolsCall("weather").times(1).respondsWith("sunny");
  expect(mock.baseline()).toHaveLength(1);
  client = new Client({ name: "first-hour", version: "1.0.0" });
  await client.connect(mock.clientTransport());
});
afterAll(async () => {
  await client.close();
  await mock.close();
});

test("reset({ keepBaseline: true }) keeps the baseline's stubs, with fresh counts, and drops the test's own", async () => {
  mock.toolsCall("news").respondsWith("headlines");
  expect(await text("weather")).toBe("sunny");
  expect(await text("news")).toBe("headlines");
  mock.reset({ keepBaseline: true });
  expect(mock.requests()).toEqual([]);
  expect(mock.stubs().filter((s) => !s.id.startsWith("default:")).map((s) => s.sentence)).toEqual([expect.stringContaining('tools/call "weather"')]);
  expect(await text("weather")).toBe("sunny"); // times(1) counts again from 0
  expect(await text("news")).toContain("No stub answers");
  mock.verify(toolsCall("weather"), 1);
});

test("a plain reset() removes the baseline too", async () => {
  mock.reset();
  expect(mock.stubs().filter((s) => !s.id.startsWith("default:"))).toEqual([]);
  expect(await text("weather")).toContain("No stub answers");
});
