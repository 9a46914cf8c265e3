/**
 * `hostile/session-expired`: the server forgets the session. The client's second request is
 * answered 404 (as a server answers an expired `Mcp-Session-Id`); the client must start a new
 * session with `initialize` and go on. Checks `client-reinitializes-after-404` and
 * `client-recovers-after-404`.
 * @module
 */
import { check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, tappedRun } from "../scenario-mock.js";

export const sessionExpired: Scenario = {
  name: "hostile/session-expired",
  suite: "hostile",
  description: "The session expires (404 on its id): does the client start a new session?",
  specVersions: ["2025-11-25"],
  async start() {
    const mock = await scenarioMock({ tools: [{ name: "echo", inputSchema: { type: "object" } }], protocolVersions: ["2025-11-25", "2025-06-18", "2025-03-26"] });
    mock.toolsCall("echo").withArgsMatching(() => true).respondsWith("echo");
    let expiredSession: string | undefined;
    let expiredAt: number | undefined;
    return tappedRun(
      mock,
      (tap) => {
        const after = tap.requests.filter((r) => expiredAt !== undefined && r.at > expiredAt && r.method === "POST");
        const reinit = after.some((r) => (r.json as { method?: string } | undefined)?.method === "initialize");
        const recovered = after.some((r) => (r.json as { method?: string } | undefined)?.method === "tools/call" && r.headers["mcp-session-id"] !== expiredSession);
        if (expiredAt === undefined) return [{ id: "client-reinitializes-after-404", status: "FAILURE", description: "After a 404 on its session the client starts a new one with initialize", errorMessage: "the client sent no request after initializing, so its session never expired; call a tool (twice) in the driver" }];
        return [
          check("client-reinitializes-after-404", "After a 404 on its session the client starts a new one with initialize", reinit, `after the 404 on session ${expiredSession} the client sent no initialize`),
          check("client-recovers-after-404", "The client calls the tool again on its new session", recovered, "the client did not call the tool again on a new session after the 404"),
        ];
      },
      {
        intercept: (request, response) => {
          const method = (request.json as { method?: string } | undefined)?.method;
          const session = request.headers["mcp-session-id"];
          if (expiredAt !== undefined || request.method !== "POST" || method !== "tools/call" || !session) return false;
          expiredSession = session;
          expiredAt = request.at;
          response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }));
          return true;
        },
      },
    );
  },
};
