/**
 * The answers a server gives by itself (initialize, ping, the lists, completion, log level,
 * subscriptions), as ordinary stubs at the lowest priority: they show up in explanations,
 * and any user stub overrides them.
 * @module
 */
import type { McpCall } from "../stubs/call.js";
import type { ToolCatalog } from "../stubs/tool-catalog.js";
import { JsonRpcFailure } from "../protocol/jsonrpc.js";
import { InvalidCursorError, page } from "../protocol/pagination.js";
import type { PromptCatalog } from "../stubs/prompt-catalog.js";
import {
  DISCOVERY_PROTOCOL_VERSION,
  ErrorCodes,
  negotiateVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
  supportedRevision,
} from "../protocol/revisions.js";
import type { ResourceCatalog } from "../stubs/resource-catalog.js";
import type { SessionStore } from "./session-store.js";
import { FALLBACK_PRIORITY, type ResponsePlan, type Stub } from "../stubs/stub.js";

/** The log levels of `logging/setLevel`, least severe first. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** What the built-in answers read from the mock. */
export interface DefaultsSource {
  readonly tools: ToolCatalog;
  readonly resources: ResourceCatalog;
  readonly prompts: PromptCatalog;
  readonly sessions: SessionStore;
  serverInfo(): Record<string, unknown>;
  instructions(): string | undefined;
  capabilities(): Record<string, unknown>;
  pageSize(): number;
}

function fallback(method: string, label: string, result: (call: McpCall) => unknown): Stub {
  return fallbackPlan(method, { kind: "result", result, label });
}

function fallbackPlan(method: string, plan: ResponsePlan): Stub {
  return { id: `default:${method}`, method, matchers: [], responses: [plan], priority: FALLBACK_PRIORITY, source: "default" };
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

/** A paged list answer: `{ [field]: items, nextCursor? }`; an invalid cursor is -32602. */
function pagedList(source: DefaultsSource, method: string, field: string, items: (call: McpCall) => unknown[]): Stub {
  return fallback(method, `the declared ${field}, ${source.pageSize()} a page`, (call) => {
    try {
      const { items: pageItems, nextCursor } = page(items(call), call.params?.["cursor"], source.pageSize(), method);
      return nextCursor === undefined ? { [field]: pageItems } : { [field]: pageItems, nextCursor };
    } catch (error) {
      if (error instanceof InvalidCursorError) throw new JsonRpcFailure(ErrorCodes.InvalidParams, `Invalid params: invalid cursor`, `[mcpmock] ${error.message}.`);
      throw error;
    }
  });
}

/** The built-in stubs. */
export function defaultStubs(source: DefaultsSource): Stub[] {
  return [
    fallback("initialize", "the negotiated version, the declared capabilities and serverInfo", (call) => defaultInitializeResult(source, call)),
    fallback("ping", "{}", () => ({})),
    fallbackPlan("server/discover", {
      kind: "error",
      code: ErrorCodes.MethodNotFound,
      message: "Method not found",
      data: `mcpmock speaks MCP ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}; a client probing for ${DISCOVERY_PROTOCOL_VERSION} should fall back to initialize.`,
    }),
    pagedList(source, "tools/list", "tools", (call) => source.tools.listed(supportedRevision(call.protocolVersion).structuredContent)),
    pagedList(source, "resources/list", "resources", () => source.resources.listed()),
    pagedList(source, "resources/templates/list", "resourceTemplates", () => source.resources.listedTemplates()),
    pagedList(source, "prompts/list", "prompts", () => source.prompts.listed()),
    fallback("completion/complete", "no completions", () => ({ completion: { values: [], hasMore: false } })),
    fallback("logging/setLevel", "{} (the level is kept per session)", (call) => {
      const level = call.params?.["level"];
      if (!LOG_LEVELS.includes(level as (typeof LOG_LEVELS)[number])) {
        throw new JsonRpcFailure(ErrorCodes.InvalidParams, `Invalid params: level must be one of ${LOG_LEVELS.join(", ")}`);
      }
      const session = call.sessionId === undefined ? undefined : source.sessions.get(call.sessionId);
      if (session) session.logLevel = level as (typeof LOG_LEVELS)[number];
      return {};
    }),
    fallback("resources/subscribe", "{}", () => ({})),
    fallback("resources/unsubscribe", "{}", () => ({})),
  ];
}
