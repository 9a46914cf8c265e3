/**
 * Push on its own: what it holds for a session whose push stream is not open yet is dropped
 * when that session ends, so sessions that never open a GET stream cost nothing after they end.
 */
import { expect, test } from "vitest";
import { ClientRequests } from "../src/engine/client-requests.js";
import { Push } from "../src/engine/push.js";
import { SessionStore } from "../src/engine/session-store.js";

const init = { protocolVersion: "2025-11-25", clientCapabilities: {}, clientInfo: undefined } as const;

test("held messages go when their session ends without ever opening a push stream", () => {
  const sessions = new SessionStore("sequential", { maxSessions: 10 });
  const push = new Push(sessions, new ClientRequests(), true, new AbortController().signal);
  const ended: string[] = [];
  sessions.onEnd((id) => ended.push(id)); // a second listener: both are called
  for (let i = 0; i < 50; i++) {
    const session = sessions.open(init);
    push.deliverWhenOpen(session.id, JSON.stringify({ jsonrpc: "2.0", method: "notifications/tasks/status" }));
    if (i % 2 === 0) sessions.end(session.id); // DELETE; the others end by the cap or at reset
  }
  sessions.clear();
  expect(push.heldSessions).toBe(0);
  expect(ended).toHaveLength(50);
});

test("a session that opens its push stream gets what was held for it, in order", () => {
  const sessions = new SessionStore();
  const push = new Push(sessions, new ClientRequests(), true, new AbortController().signal);
  const session = sessions.open(init);
  for (const n of [1, 2]) push.deliverWhenOpen(session.id, String(n));
  expect(push.heldSessions).toBe(1);
  const emitted: string[] = [];
  session.stream = { emit: (json) => emitted.push(json), attached: true };
  push.streamOpened();
  expect(emitted).toEqual(["1", "2"]);
  expect(push.heldSessions).toBe(0);
});
