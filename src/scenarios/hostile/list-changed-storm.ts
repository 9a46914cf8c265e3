/**
 * `hostile/list-changed-storm`: after the first tool call the server sends 200
 * `notifications/tools/list_changed` at once. A client that re-lists should coalesce them,
 * not answer each with a `tools/list`. Check `client-coalesces-list-changed` (at most 10 lists).
 * @module
 */
import { check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, servedRun } from "../scenario-mock.js";

const STORM = 200;
const ALLOWED_LISTS = 10;

export const listChangedStorm: Scenario = {
  name: "hostile/list-changed-storm",
  suite: "hostile",
  description: "A storm of tools/list_changed notifications: does the client coalesce its re-lists?",
  specVersions: ["2025-11-25"],
  transports: ["http", "stdio", "memory"],
  async start(start) {
    const mock = await scenarioMock({ tools: [{ name: "ping_tool", inputSchema: { type: "object" } }], protocolVersions: ["2025-11-25", "2025-06-18", "2025-03-26"] }, start);
    // tools/list sent before the storm, counted (a time in ms cannot tell apart a list and the call right after it).
    let listsBefore: number | undefined;
    const allLists = (): number => mock.requests().filter((e) => e.kind === "request" && e.method === "tools/list").length;
    mock.toolsCall("ping_tool").withArgsMatching(() => true).respondsWith((call) => {
      if (listsBefore === undefined) {
        listsBefore = allLists();
        const sessionId = call.sessionId;
        setImmediate(() => {
          for (let i = 0; i < STORM; i++) mock.notify("notifications/tools/list_changed", undefined, sessionId ? { sessionId } : {}).catch(() => undefined);
        });
      }
      return "pong";
    });
    return servedRun(mock, start, () => {
      const lists = listsBefore === undefined ? 0 : allLists() - listsBefore;
      return [check("client-coalesces-list-changed", `After ${STORM} list_changed notifications the client lists the tools at most ${ALLOWED_LISTS} times`, listsBefore !== undefined && lists <= ALLOWED_LISTS, listsBefore === undefined ? "the client never called ping_tool, so no storm came" : `the client listed the tools ${lists} times during the storm`, { lists })];
    }, { tap: false });
  },
};
