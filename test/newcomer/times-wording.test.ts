/**
 * Issue 43, item 6: a failed toHaveReceivedTimes compares like with like: `Expected: "exactly
 * twice"` beside `Received: "once"`, not beside `"1"` (the count's words on both sides).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect, test } from "vitest";
import { McpMock, toolsCall, VerificationError } from "../../src/index.js";

test("the received side of a count mismatch is worded like the expected side", async () => {
  await using mock = await McpMock.start({ transport: "none", tools: [{ name: "search", inputSchema: { type: "object" } }] });
  mock.toolsCall("search").respondsWith("ok");
  const client = new Client({ name: "times", version: "1.0.0" });
  await client.connect(mock.clientTransport());
  await client.callTool({ name: "search", arguments: {} });
  let failure: VerificationError | undefined;
  try {
    mock.verify(toolsCall("search"), 2);
  } catch (error) {
    failure = error as VerificationError;
  }
  expect([failure?.expected, failure?.actual]).toEqual(["exactly twice", "once"]);
  await client.close();
});
