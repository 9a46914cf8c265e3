/**
 * `hostile/malformed-json`: one answer is not JSON, another carries the wrong id. A robust
 * client fails those calls and keeps the connection: it still gets an answer to the next
 * request. Check `client-survives-malformed-answers`.
 * @module
 */
import { check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, servedRun } from "../scenario-mock.js";

export const malformedJson: Scenario = {
  name: "hostile/malformed-json",
  suite: "hostile",
  description: "Answers that are malformed JSON or carry a wrong id: does the client survive and go on?",
  specVersions: ["2025-11-25"],
  transports: ["http", "stdio", "memory"],
  async start(start) {
    const mock = await scenarioMock({
      tools: [
        { name: "garbled", inputSchema: { type: "object" } },
        { name: "misaddressed", inputSchema: { type: "object" } },
        { name: "healthy", inputSchema: { type: "object" } },
      ],
      protocolVersions: ["2025-11-25", "2025-06-18", "2025-03-26"],
    }, start);
    mock.toolsCall("garbled").withArgsMatching(() => true).fails("malformed-json");
    mock.toolsCall("misaddressed").withArgsMatching(() => true).streams((s) => s.send({ jsonrpc: "2.0", id: "not-your-request", result: { content: [{ type: "text", text: "lost" }] } }).delay(50).result("the real answer"));
    mock.toolsCall("healthy").withArgsMatching(() => true).respondsWith("fine");
    return servedRun(mock, start, () => {
      const calls = mock.requests().filter((e) => e.kind === "request" && e.method === "tools/call");
      const names = calls.map((e) => e.params?.["name"]);
      const broken = names.indexOf("garbled");
      const after = broken >= 0 && names.slice(broken + 1).includes("healthy");
      return [check("client-survives-malformed-answers", "After an answer that is not JSON (and one with a wrong id) the client still calls the next tool", after, broken < 0 ? "the client never called garbled" : "the client sent nothing after the malformed answer: call garbled, misaddressed, then healthy")];
    }, { tap: false });
  },
};
