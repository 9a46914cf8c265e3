/**
 * `initialize` (official): the client's `initialize` request names a protocol version the
 * server can negotiate and the client's name and version. Checks `mcp-client-initialization`
 * and `server-info`, as the official suite writes them.
 * @module
 */
import type { Check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, servedRun } from "../scenario-mock.js";

/** The revisions the official suite lets a client offer (its NEGOTIABLE_PROTOCOL_VERSIONS). */
export const NEGOTIABLE_PROTOCOL_VERSIONS: readonly string[] = ["2025-06-18", "2025-11-25", "2026-07-28"];
const EXPECTED_VERSION = "2025-11-25";
const SERVER_INFO = { name: "test-server", version: "1.0.0" };

/** The official suite's `mcp-client-initialization` check of one `initialize` request's params. */
export function initializationCheck(params: Record<string, unknown> | undefined): Check {
  const version = params?.["protocolVersion"];
  const clientInfo = params?.["clientInfo"] as { name?: unknown; version?: unknown } | undefined;
  const errors: string[] = [];
  if (!version) errors.push("Protocol version not provided");
  if (!NEGOTIABLE_PROTOCOL_VERSIONS.includes(version as string)) errors.push(`Version mismatch: expected ${EXPECTED_VERSION}, got ${String(version)}`);
  if (!clientInfo?.name) errors.push("Client name missing");
  if (!clientInfo?.version) errors.push("Client version missing");
  return {
    id: "mcp-client-initialization",
    status: errors.length === 0 ? "SUCCESS" : "FAILURE",
    description: "Validates that MCP client properly initializes with server",
    ...(errors.length ? { errorMessage: errors.join("; ") } : {}),
    details: { protocolVersionSent: version, expectedSpecVersion: EXPECTED_VERSION, clientName: clientInfo?.name, clientVersion: clientInfo?.version },
  };
}

export const initialize: Scenario = {
  name: "initialize",
  suite: "official",
  description: "Tests MCP client initialization handshake",
  specVersions: ["2025-11-25", "2025-06-18"],
  transports: ["http", "stdio", "memory"],
  async start(start) {
    const mock = await scenarioMock({ serverInfo: SERVER_INFO, protocolVersions: ["2025-11-25", "2025-06-18", "2025-03-26"] }, start);
    return servedRun(mock, start, () =>
      // The official scenario checks every initialize it receives, and none when there was none.
      mock
        .requests()
        .filter((e) => e.kind === "request" && e.method === "initialize")
        .flatMap((e): Check[] => [
          initializationCheck(e.params),
          { id: "server-info", status: "INFO", description: "Test server info returned to client", details: { serverName: SERVER_INFO.name, serverVersion: SERVER_INFO.version } },
        ]),
      { tap: false },
    );
  },
};
