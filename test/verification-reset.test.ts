/**
 * A failed verification after the journal was cleared says so, naming both ways a test clears
 * it (reset() and resetJournal(); POST /__admin/reset in the admin API's report).
 */
import { expect, test } from "vitest";
import { Journal } from "../src/journal/journal.js";
import { verifyCount } from "../src/journal/verification.js";
import { McpCall } from "../src/stubs/call.js";
import { atLeast, toolsCall } from "../src/index.js";
import { thrownMessage } from "./support/thrown.js";

/** A journal that received a ping, was cleared, then received another. */
function clearedJournal(): Journal {
  const journal = new Journal();
  for (const id of [1, 2]) {
    const init = { method: "ping", id, params: undefined, sessionId: "s-1", headers: {}, protocolVersion: "2025-11-25", body: "", transport: "http" as const };
    const entry = journal.record({ kind: "request", method: init.method, id, params: undefined, sessionId: init.sessionId, headers: init.headers, protocolVersion: init.protocolVersion, transport: init.transport, call: new McpCall(init) });
    journal.complete(entry, "default:ping", { jsonrpc: "2.0", id, result: {} }, undefined);
    if (id === 1) journal.clear();
  }
  return journal;
}

test("the report names reset() and resetJournal(), or POST /__admin/reset for the admin API", () => {
  const journal = clearedJournal();
  const pattern = toolsCall("add").pattern;
  expect(thrownMessage(() => verifyCount(journal, pattern, atLeast(1)))).toContain("Messages received in all: 2. The journal was reset (reset() or resetJournal()) after 1 message; verification sees the 1 received since.");
  expect(thrownMessage(() => verifyCount(journal, pattern, atLeast(1), "admin"))).toContain("Messages received in all: 2. The journal was reset (POST /__admin/reset) after 1 message; verification sees the 1 received since.");
});
