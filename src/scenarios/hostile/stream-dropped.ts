/**
 * `hostile/stream-dropped`: the SSE stream of a tool's answer drops after two events (the
 * connection cut, events with ids and a `retry` sent first). A client that resumes sends a GET
 * with `Last-Event-ID` and gets the rest. Checks `client-resumes-with-last-event-id`.
 * @module
 */
import { check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, tappedRun } from "../scenario-mock.js";

export const streamDropped: Scenario = {
  name: "hostile/stream-dropped",
  suite: "hostile",
  description: "The SSE stream of an answer drops midway: does the client resume with Last-Event-ID?",
  specVersions: ["2025-11-25"],
  async start() {
    const mock = await scenarioMock({ tools: [{ name: "report", inputSchema: { type: "object" } }], sseRetryMs: 50, protocolVersions: ["2025-11-25", "2025-06-18", "2025-03-26"] });
    mock.toolsCall("report").withArgsMatching(() => true).streams((s) => s.log("info", "part 1 of 3").log("info", "part 2 of 3").delay(20).log("info", "part 3 of 3").result("report ready"), { dropAfter: 2 });
    return tappedRun(mock, (tap) => {
      const called = mock.requests().some((e) => e.method === "tools/call");
      const resumed = tap.requests.filter((r) => r.method === "GET" && r.headers["last-event-id"] !== undefined);
      return [
        check("client-resumes-with-last-event-id", "After the answer's stream drops the client reconnects with Last-Event-ID", called && resumed.length > 0, called ? "the client never reconnected with a Last-Event-ID header after the stream dropped; the answer was lost" : "the client never called report, so no stream dropped", { resumedFrom: resumed.map((r) => r.headers["last-event-id"]) }),
      ];
    });
  },
};
