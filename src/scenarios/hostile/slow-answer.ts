/**
 * `hostile/slow-answer`: a tool answers only after 10 seconds. A client that gives up (a
 * timeout, the user cancels) must tell the server with `notifications/cancelled` naming the
 * request. Check `client-cancels-slow-request`.
 * @module
 */
import { check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, servedRun } from "../scenario-mock.js";

/** Longer than any sensible client timeout in a test. */
const SLOW_MS = 10_000;

export const slowAnswer: Scenario = {
  name: "hostile/slow-answer",
  suite: "hostile",
  description: "A tool answers very slowly: does the client's cancellation reach the server?",
  specVersions: ["2025-11-25", "2026-07-28"],
  transports: ["http", "stdio", "memory"],
  async start(start) {
    const mock = await scenarioMock({ tools: [{ name: "slow_search", inputSchema: { type: "object" } }] }, start);
    mock.toolsCall("slow_search").withArgsMatching(() => true).withDelay(SLOW_MS).respondsWith("finally");
    return servedRun(mock, start, () => {
      const entries = mock.requests();
      const call = entries.find((e) => e.kind === "request" && e.method === "tools/call");
      const cancel = entries.find((e) => e.method === "notifications/cancelled" && call !== undefined && e.params?.["requestId"] === call.id);
      return [check("client-cancels-slow-request", "A client that stops waiting sends notifications/cancelled with the request's id", cancel !== undefined, call ? `the client sent no notifications/cancelled for request ${JSON.stringify(call.id)}; the server would work on for nothing` : "the client never called slow_search", { requestId: call?.id })];
    }, { tap: false });
  },
};
