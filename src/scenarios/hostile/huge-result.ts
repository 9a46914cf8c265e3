/**
 * `hostile/huge-result`: one tool answers 8 MB of text. The client may refuse it, but must
 * stay usable: the next call goes through. Check `client-survives-huge-result`.
 * @module
 */
import { check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, servedRun } from "../scenario-mock.js";

const HUGE_BYTES = 8 * 1024 * 1024;

export const hugeResult: Scenario = {
  name: "hostile/huge-result",
  suite: "hostile",
  description: "A tool result of 8 MB: does the client stay usable?",
  specVersions: ["2025-11-25", "2026-07-28"],
  transports: ["http", "stdio", "memory"],
  async start(start) {
    const mock = await scenarioMock({ tools: [{ name: "dump", inputSchema: { type: "object" } }, { name: "healthy", inputSchema: { type: "object" } }], maxStreamBytes: 2 * HUGE_BYTES }, start);
    mock.toolsCall("dump").withArgsMatching(() => true).respondsWith({ content: [{ type: "text", text: "x".repeat(HUGE_BYTES) }] });
    mock.toolsCall("healthy").withArgsMatching(() => true).respondsWith("fine");
    return servedRun(mock, start, () => {
      const names = mock.requests().filter((e) => e.kind === "request" && e.method === "tools/call").map((e) => e.params?.["name"]);
      const at = names.indexOf("dump");
      return [check("client-survives-huge-result", "After an 8 MB result the client still calls the next tool", at >= 0 && names.slice(at + 1).includes("healthy"), at < 0 ? "the client never called dump" : "the client sent nothing after the 8 MB result: call dump, then healthy")];
    }, { tap: false });
  },
};
