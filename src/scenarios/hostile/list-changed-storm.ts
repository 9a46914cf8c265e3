/**
 * `hostile/list-changed-storm`: after the first tool call the server sends 200
 * `notifications/tools/list_changed` at once. A client that re-lists should coalesce them,
 * not answer each with a `tools/list`. Check `client-coalesces-list-changed` (at most 10 lists).
 * @module
 */
import { check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { mockRun, scenarioMock } from "../scenario-mock.js";

const STORM = 200;
const ALLOWED_LISTS = 10;

export const listChangedStorm: Scenario = {
  name: "hostile/list-changed-storm",
  suite: "hostile",
  description: "A storm of tools/list_changed notifications: does the client coalesce its re-lists?",
  specVersions: ["2025-11-25"],
  async start() {
    const mock = await scenarioMock({ tools: [{ name: "ping_tool", inputSchema: { type: "object" } }], protocolVersions: ["2025-11-25", "2025-06-18", "2025-03-26"] });
    let stormAt: number | undefined;
    mock.toolsCall("ping_tool").withArgsMatching(() => true).respondsWith((call) => {
      if (stormAt === undefined) {
        stormAt = Date.now();
        const sessionId = call.sessionId;
        setImmediate(() => {
          for (let i = 0; i < STORM; i++) mock.notify("notifications/tools/list_changed", undefined, sessionId ? { sessionId } : {}).catch(() => undefined);
        });
      }
      return "pong";
    });
    return mockRun(mock, () => {
      const lists = mock.requests().filter((e) => e.kind === "request" && e.method === "tools/list" && stormAt !== undefined && e.receivedAt >= stormAt).length;
      return [check("client-coalesces-list-changed", `After ${STORM} list_changed notifications the client lists the tools at most ${ALLOWED_LISTS} times`, stormAt !== undefined && lists <= ALLOWED_LISTS, stormAt === undefined ? "the client never called ping_tool, so no storm came" : `the client listed the tools ${lists} times during the storm`, { lists })];
    });
  },
};
