/**
 * Issue 32, item 5: `verify()` after `reset()` says that the journal was reset, and does not
 * send the user to tune `journalSize`: the entries before the reset are gone on purpose.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect, test } from "vitest";
import { McpMock, toolsCall, VerificationError } from "mcpmock";

test("a failed verify after reset() names the reset, not the journal's size", async () => {
  await using mock = await McpMock.start({ transport: "none", onUnmatched: "silent", tools: [{ name: "add" }, { name: "other" }] });
  const client = new Client({ name: "first-hour", version: "1.0.0" });
  await client.connect(mock.clientTransport());
  await client.callTool({ name: "add", arguments: {} });
  mock.reset();
  await client.callTool({ name: "other", arguments: {} });
  let error: unknown;
  try {
    mock.verify(toolsCall("add"));
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(VerificationError);
  const message = (error as Error).message;
  expect(message).not.toMatch(/journalSize|journalBytes/);
  expect(message).toMatch(/The journal was reset \(reset\(\) or resetJournal\(\)\) after \d+ messages?; verification sees the 1 received since\./);
  await client.close();
});

test("without a reset, a journal that dropped entries still says how to keep more", async () => {
  await using mock = await McpMock.start({ transport: "none", onUnmatched: "silent", journalSize: 2, tools: [{ name: "add" }] });
  const client = new Client({ name: "first-hour", version: "1.0.0" });
  await client.connect(mock.clientTransport());
  for (let i = 0; i < 3; i++) await client.callTool({ name: "add", arguments: { i } });
  expect(() => mock.verify(toolsCall("add").withArgs({ i: 0 }))).toThrow(/The journal keeps the last 2 \(journalSize, journalBytes\)/);
  expect(() => mock.verify(toolsCall("add").withArgs({ i: 0 }))).not.toThrow(/was reset/);
  await client.close();
});
