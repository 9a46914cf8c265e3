/**
 * `hostile/endless-cursor`: `tools/list` always answers a `nextCursor`. A client that follows
 * cursors must stop somewhere. Check `client-bounds-pagination` (fewer than 100 pages).
 * @module
 */
import { check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, servedRun } from "../scenario-mock.js";

const PAGE_LIMIT = 100;

export const endlessCursor: Scenario = {
  name: "hostile/endless-cursor",
  suite: "hostile",
  description: "A tools/list cursor that never ends: does the client stop paginating?",
  specVersions: ["2025-11-25", "2026-07-28"],
  transports: ["http", "stdio", "memory"],
  async start(start) {
    // One tool declared, so the tools capability is advertised; the stubbed list overrides it.
    const mock = await scenarioMock({ tools: [{ name: "tool_0", inputSchema: { type: "object" } }] }, start);
    let page = 0;
    mock.toolsList().respondsWith(() => {
      page += 1;
      return { tools: [{ name: `tool_${page}`, inputSchema: { type: "object" } }], nextCursor: `page-${page + 1}` };
    });
    return servedRun(mock, start, () => {
      const pages = mock.requests().filter((e) => e.kind === "request" && e.method === "tools/list").length;
      return [check("client-bounds-pagination", `The client stops following tools/list cursors before ${PAGE_LIMIT} pages`, pages > 0 && pages < PAGE_LIMIT, pages === 0 ? "the client never listed the tools" : `the client fetched ${pages} pages and would have gone on`, { pages })];
    }, { tap: false });
  },
};
