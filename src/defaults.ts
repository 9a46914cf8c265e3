/**
 * The answers a server gives by itself (initialize, ping, tools/list), as ordinary stubs at
 * the lowest priority: they show up in explanations, and any user stub overrides them.
 * @module
 */
import type { McpCall } from "./call.js";
import {
  DISCOVERY_PROTOCOL_VERSION,
  ErrorCodes,
  negotiateVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
  supportedRevision,
} from "./protocol.js";
import { FALLBACK_PRIORITY, type Stub } from "./stub.js";

/** What the built-in answers read from the mock. */
export interface DefaultsSource {
  serverInfo(): Record<string, unknown>;
  instructions(): string | undefined;
  capabilities(): Record<string, unknown>;
  listedTools(withOutputSchema: boolean): Record<string, unknown>[];
}

function fallback(method: string, label: string, result: (call: McpCall) => unknown): Stub {
  return {
    id: `default:${method}`,
    method,
    matchers: [],
    responses: [{ kind: "result", result, label }],
    priority: FALLBACK_PRIORITY,
    source: "default",
  };
}

/** The default initialize result for a call (also the base a user's partial result is merged onto). */
export function defaultInitializeResult(source: DefaultsSource, call: McpCall): Record<string, unknown> {
  const result: Record<string, unknown> = {
    protocolVersion: negotiateVersion(call.params?.["protocolVersion"]),
    capabilities: source.capabilities(),
    serverInfo: source.serverInfo(),
  };
  const instructions = source.instructions();
  if (instructions !== undefined) result["instructions"] = instructions;
  return result;
}

/** The built-in stubs. */
export function defaultStubs(source: DefaultsSource): Stub[] {
  return [
    fallback("initialize", "the negotiated version, the declared capabilities and serverInfo", (call) => defaultInitializeResult(source, call)),
    fallback("ping", "{}", () => ({})),
    {
      id: "default:server/discover",
      method: "server/discover",
      matchers: [],
      responses: [
        {
          kind: "error",
          code: ErrorCodes.MethodNotFound,
          message: "Method not found",
          data: `mcpmock speaks MCP ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}; a client probing for ${DISCOVERY_PROTOCOL_VERSION} should fall back to initialize.`,
        },
      ],
      priority: FALLBACK_PRIORITY,
      source: "default",
    },
    fallback("tools/list", "the declared tools", (call) => ({
      tools: source.listedTools(supportedRevision(call.protocolVersion).structuredContent),
    })),
  ];
}
