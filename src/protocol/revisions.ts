/**
 * Protocol facts in one place. The pipeline asks a {@link ProtocolRevision} what a version
 * allows instead of comparing version strings, so a new revision is one more table row.
 * @module
 */

/** The revision the mock answers when a client asks for one it does not know. @category Errors and protocol facts */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";

/** What the spec says a server assumes when an HTTP request carries no `MCP-Protocol-Version`. */
export const DEFAULT_NEGOTIATED_PROTOCOL_VERSION = "2025-03-26";

/** The revision whose clients probe with `server/discover` (not served yet; see WIRE.md §10). */
export const DISCOVERY_PROTOCOL_VERSION = "2026-07-28";

/** What one protocol revision allows on the wire. */
export interface ProtocolRevision {
  readonly version: string;
  /** JSON-RPC batches (arrays) are allowed in a POST body or on a stdio line. */
  readonly batching: boolean;
  /** Tool results may carry `structuredContent` (and tools an `outputSchema`). */
  readonly structuredContent: boolean;
  /** SSE responses start with a priming event (an id and empty data). */
  readonly primingEvents: boolean;
  /** The JSON-RPC code for "resource not found". */
  readonly resourceNotFoundCode: number;
}

const REVISIONS: readonly ProtocolRevision[] = [
  { version: "2025-11-25", batching: false, structuredContent: true, primingEvents: true, resourceNotFoundCode: -32002 },
  { version: "2025-06-18", batching: false, structuredContent: true, primingEvents: false, resourceNotFoundCode: -32002 },
  { version: "2025-03-26", batching: true, structuredContent: false, primingEvents: false, resourceNotFoundCode: -32002 },
  { version: "2024-11-05", batching: false, structuredContent: false, primingEvents: false, resourceNotFoundCode: -32002 },
  { version: "2024-10-07", batching: false, structuredContent: false, primingEvents: false, resourceNotFoundCode: -32002 },
];

const BY_VERSION = new Map(REVISIONS.map((r) => [r.version, r]));

/** Every version the mock speaks, newest first (the same list as the SDK's). @category Errors and protocol facts */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = REVISIONS.map((r) => r.version);

/** The revision for a supported version, or `undefined`. */
export function revisionOf(version: string): ProtocolRevision | undefined {
  return BY_VERSION.get(version);
}

/** The revision for a version that is known to be supported. */
export function supportedRevision(version: string): ProtocolRevision {
  return BY_VERSION.get(version) ?? (BY_VERSION.get(LATEST_PROTOCOL_VERSION) as ProtocolRevision);
}

/** Version negotiation as the spec says: echo a supported version, else answer the latest. Never an error. */
export function negotiateVersion(requested: unknown): string {
  return typeof requested === "string" && BY_VERSION.has(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** JSON-RPC and MCP error codes the mock emits. */
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** SDK convention for transport-level rejections. */
  TransportError: -32000,
  /** SDK convention for an unknown session. */
  SessionNotFound: -32001,
  ResourceNotFound: -32002,
} as const;

/** Header names, lower-case as they arrive through the Fetch API. */
export const HeaderNames = {
  sessionId: "mcp-session-id",
  protocolVersion: "mcp-protocol-version",
  lastEventId: "last-event-id",
} as const;
