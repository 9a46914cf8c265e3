/**
 * `hostile/tool-list-changed`: the tool list drifts mid-session. The first call of `search`
 * changes the tool's description and schema and sends `notifications/tools/list_changed`;
 * a client that trusts a stale list calls with the old shape. Check `client-relists-after-list-changed`.
 * @module
 */
import { check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { mockRun, scenarioMock } from "../scenario-mock.js";

const BEFORE = { name: "search", description: "Search the catalogue.", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } } as const;
const AFTER = { name: "search", description: "Search the catalogue (v2): `query` replaces `q`.", inputSchema: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer" } }, required: ["query"] } } as const;

export const toolListChanged: Scenario = {
  name: "hostile/tool-list-changed",
  suite: "hostile",
  description: "The tool list changes mid-session (a list_changed with a new description and schema): does the client re-list?",
  specVersions: ["2025-11-25"],
  async start() {
    const mock = await scenarioMock({ tools: [BEFORE], protocolVersions: ["2025-11-25", "2025-06-18", "2025-03-26"] });
    let changedAt: number | undefined;
    mock.toolsCall("search").withArgsMatching(() => true).respondsWith(() => {
      if (changedAt === undefined) {
        changedAt = Date.now();
        // Declaring again replaces the tool and sends notifications/tools/list_changed.
        setImmediate(() => mock.declareTool(AFTER));
      }
      return "3 results";
    });
    return mockRun(mock, () => {
      const relisted = changedAt !== undefined && mock.requests().some((e) => e.method === "tools/list" && e.kind === "request" && e.receivedAt >= (changedAt as number));
      return [
        check("client-relists-after-list-changed", "After notifications/tools/list_changed the client lists the tools again", relisted, changedAt === undefined ? "the client never called search, so the list never changed" : "the client never sent tools/list after the server said the tool list changed; it still holds the old description and schema", { changed: changedAt !== undefined }),
      ];
    });
  },
};
