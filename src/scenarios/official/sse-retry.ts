/**
 * `sse-retry` (official, SEP-1699): the answer to a tool call is an SSE stream that sends a
 * priming event (an id and `retry: 500`) and closes; the client reconnects with a GET after
 * the retry time, with `Last-Event-ID`, and gets the answer there. Checks
 * `client-sse-graceful-reconnect`, `client-sse-retry-timing` and `client-sse-last-event-id`.
 * @module
 */
import type { Check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, tappedRun } from "../scenario-mock.js";
import { postsOf } from "../wire-tap.js";

const RETRY_MS = 500;
const EARLY_TOLERANCE = 50;
const LATE_TOLERANCE = 200;
const VERY_LATE_MULTIPLIER = 2;

export const sseRetry: Scenario = {
  name: "sse-retry",
  suite: "official",
  description: "Tests that client respects SSE retry field timing and reconnects properly (SEP-1699)",
  specVersions: ["2025-11-25"],
  async start() {
    const mock = await scenarioMock({
      serverInfo: { name: "sse-retry-test-server", version: "1.0.0" },
      tools: [{ name: "test_reconnection", description: "A tool that triggers SSE stream closure to test client reconnection behavior", inputSchema: { type: "object", properties: {}, required: [] } }],
      sseRetryMs: RETRY_MS,
      protocolVersions: ["2025-11-25"],
    });
    mock.toolsCall("test_reconnection").withArgsMatching(() => true).streams((s) => s.delay(100).result("Reconnection test completed successfully"), { dropAfter: 0 });
    return tappedRun(mock, (tap) => {
      const gets = tap.requests.filter((r) => r.method === "GET");
      const closedAt = postsOf(tap.requests, "tools/call")[0]?.answerEndedAt;
      if (gets.length === 0)
        return [{ id: "client-sse-graceful-reconnect", status: "FAILURE", description: "Client reconnects via GET after SSE stream is closed gracefully", errorMessage: "Client did not attempt GET reconnection after stream closure. Client should treat graceful stream close as reconnectable.", details: { getConnectionCount: 0 } }];
      const checks: Check[] = [{ id: "client-sse-graceful-reconnect", status: "SUCCESS", description: "Client reconnects via GET after SSE stream is closed gracefully", details: { getConnectionCount: gets.length } }];
      const reconnectedAt = gets[gets.length - 1]?.at;
      if (closedAt === undefined || reconnectedAt === undefined) {
        checks.push({ id: "client-sse-retry-timing", status: "WARNING", description: "Client MUST respect the retry field timing", errorMessage: "Could not measure timing - tool stream close time or GET reconnection time not recorded" });
      } else {
        const delay = reconnectedAt - closedAt;
        const early = delay < RETRY_MS - EARLY_TOLERANCE;
        const veryLate = delay > RETRY_MS * VERY_LATE_MULTIPLIER;
        const late = delay > RETRY_MS + LATE_TOLERANCE;
        const shown = delay.toFixed(0);
        const [status, errorMessage] = early
          ? (["FAILURE", `Client reconnected too early (${shown}ms instead of ${RETRY_MS}ms). Client MUST respect the retry field and wait the specified time.`] as const)
          : veryLate
            ? (["FAILURE", `Client reconnected very late (${shown}ms instead of ${RETRY_MS}ms). Client appears to be ignoring the retry field and using its own backoff strategy.`] as const)
            : late
              ? (["WARNING", `Client reconnected slightly late (${shown}ms instead of ${RETRY_MS}ms). This is acceptable but may indicate network delays.`] as const)
              : (["SUCCESS", undefined] as const);
        checks.push({ id: "client-sse-retry-timing", status, description: "Client MUST respect the retry field, waiting the given number of milliseconds before attempting to reconnect", ...(errorMessage ? { errorMessage } : {}), details: { expectedRetryMs: RETRY_MS, actualDelayMs: Math.round(delay) } });
      }
      const lastEventIds = gets.map((r) => r.headers["last-event-id"]).filter((id) => id !== undefined);
      checks.push({ id: "client-sse-last-event-id", status: lastEventIds.length ? "SUCCESS" : "WARNING", description: "Client SHOULD send Last-Event-ID header on reconnection for resumability", ...(lastEventIds.length ? {} : { errorMessage: "Client did not send Last-Event-ID header on reconnection. This is a SHOULD requirement for resumability." }), details: { lastEventIds } });
      return checks;
    });
  },
};
