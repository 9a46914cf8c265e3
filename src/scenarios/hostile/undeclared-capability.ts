/**
 * `hostile/undeclared-capability`: during a tool call the server asks the client for
 * `sampling/createMessage` though the client declared no sampling. The client must refuse
 * (a JSON-RPC error) rather than answer or hang. Check `client-refuses-undeclared-request`.
 * @module
 */
import { check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, servedRun } from "../scenario-mock.js";

const REQUEST_ID = "hostile-sampling-1";

export const undeclaredCapability: Scenario = {
  name: "hostile/undeclared-capability",
  suite: "hostile",
  description: "A server request for a capability the client did not declare: does the client refuse it?",
  specVersions: ["2025-11-25"],
  transports: ["http", "stdio", "memory"],
  async start(start) {
    const mock = await scenarioMock({ tools: [{ name: "summarize", inputSchema: { type: "object" } }], clientTimeoutMs: 2_000, protocolVersions: ["2025-11-25", "2025-06-18", "2025-03-26"] }, start);
    mock.toolsCall("summarize").withArgsMatching(() => true).streams((s) =>
      s.send({ jsonrpc: "2.0", id: REQUEST_ID, method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "Summarize" } }], maxTokens: 50 } }).delay(300).result("done"),
    );
    return servedRun(mock, start, () => {
      const entries = mock.requests();
      const declared = entries.find((e) => e.method === "initialize")?.params?.["capabilities"] as Record<string, unknown> | undefined;
      const answer = entries.find((e) => e.kind === "response" && e.id === REQUEST_ID);
      const body = answer?.params as { error?: unknown; result?: unknown } | undefined;
      const refused = answer !== undefined && body?.error !== undefined;
      if (declared && "sampling" in declared) return [{ id: "client-refuses-undeclared-request", status: "SKIPPED", description: "A client refuses a server request for a capability it did not declare", errorMessage: "the client declared sampling, so the request was not undeclared" }];
      return [check("client-refuses-undeclared-request", "A client refuses a server request for a capability it did not declare", refused, answer === undefined ? "the client never answered sampling/createMessage (a server would wait for ever)" : `the client answered sampling/createMessage with a result though it declared no sampling: ${JSON.stringify(body?.result ?? body).slice(0, 200)}`)];
    }, { tap: false });
  },
};
