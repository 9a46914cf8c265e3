/**
 * `hostile/tool-list-changed`: the tool list drifts mid-session. The first call of `search`
 * changes the tool's description and schema and sends `notifications/tools/list_changed`;
 * a client that trusts a stale list calls with the old shape. Check `client-relists-after-list-changed`.
 * @module
 */
import { check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, servedRun } from "../scenario-mock.js";

const BEFORE = { name: "search", description: "Search the catalogue.", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } } as const;
const AFTER = { name: "search", description: "Search the catalogue (v2): `query` replaces `q`.", inputSchema: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer" } }, required: ["query"] } } as const;

export const toolListChanged: Scenario = {
  name: "hostile/tool-list-changed",
  suite: "hostile",
  description: "The tool list changes mid-session (a list_changed with a new description and schema): does the client re-list?",
  specVersions: ["2025-11-25"],
  transports: ["http", "stdio", "memory"],
  async start(start) {
    const mock = await scenarioMock({ tools: [BEFORE], protocolVersions: ["2025-11-25", "2025-06-18", "2025-03-26"] }, start);
    // How many tools/list the client had sent when the list changed (a count, not a time: in
    // memory a list and the call after it can arrive within the same millisecond).
    let listsBefore: number | undefined;
    const lists = (): number => mock.requests().filter((e) => e.method === "tools/list" && e.kind === "request").length;
    mock.toolsCall("search").withArgsMatching(() => true).respondsWith(() => {
      if (listsBefore === undefined) {
        listsBefore = lists();
        // Declaring again replaces the tool and sends notifications/tools/list_changed.
        setImmediate(() => mock.declareTool(AFTER));
      }
      return "3 results";
    });
    return servedRun(mock, start, () => {
      const changed = listsBefore !== undefined;
      const relisted = changed && lists() > (listsBefore as number);
      return [
        check("client-relists-after-list-changed", "After notifications/tools/list_changed the client lists the tools again", relisted, !changed ? "the client never called search, so the list never changed" : "the client never sent tools/list after the server said the tool list changed; it still holds the old description and schema", { changed }),
      ];
    }, { tap: false });
  },
};
