/**
 * Protocol facts in one place. The pipeline asks a {@link ProtocolRevision} what a version
 * allows instead of comparing version strings, so a new revision is one more table row.
 * @module
 */

/**
 * The newest session-era revision: what `initialize` answers a client asking for one the mock does not know.
 *
 * @example
 * ```ts
 * import { LATEST_PROTOCOL_VERSION, McpMock } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "add", inputSchema: { type: "object" } }] });
 * mock.toolsCall("add").withProtocolVersion(LATEST_PROTOCOL_VERSION).respondsWith({ sum: 3 }); // "2025-11-25"
 * ```
 * @category Errors and protocol facts
 */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";

/**
 * The stateless revision (WIRE.md §10): no `initialize`, no session; every request carries its `_meta` envelope.
 *
 * @example
 * ```ts
 * import { McpMock, STATELESS_PROTOCOL_VERSION } from "mcpmock";
 * await using mock = await McpMock.start({ protocolVersions: [STATELESS_PROTOCOL_VERSION] }); // "2026-07-28" clients only
 * ```
 * @category Errors and protocol facts
 */
export const STATELESS_PROTOCOL_VERSION = "2026-07-28";

/** What the spec says a server assumes when an HTTP request carries no `MCP-Protocol-Version`. */
export const DEFAULT_NEGOTIATED_PROTOCOL_VERSION = "2025-03-26";


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
  /** The stateless era (2026-07-28): the version, capabilities and log level come with each request. */
  readonly stateless: boolean;
}

const REVISIONS: readonly ProtocolRevision[] = [
  { version: "2026-07-28", batching: false, structuredContent: true, primingEvents: false, resourceNotFoundCode: -32602, stateless: true },
  { version: "2025-11-25", batching: false, structuredContent: true, primingEvents: true, resourceNotFoundCode: -32002, stateless: false },
  { version: "2025-06-18", batching: false, structuredContent: true, primingEvents: false, resourceNotFoundCode: -32002, stateless: false },
  { version: "2025-03-26", batching: true, structuredContent: false, primingEvents: false, resourceNotFoundCode: -32002, stateless: false },
  { version: "2024-11-05", batching: false, structuredContent: false, primingEvents: false, resourceNotFoundCode: -32002, stateless: false },
  { version: "2024-10-07", batching: false, structuredContent: false, primingEvents: false, resourceNotFoundCode: -32002, stateless: false },
];

const BY_VERSION = new Map(REVISIONS.map((r) => [r.version, r]));

/**
 * Every version the mock speaks, newest first: the stateless 2026-07-28 and the session era's (the v1 SDK's list).
 *
 * @example
 * ```ts
 * import { test } from "vitest";
 * import { McpMock, SUPPORTED_PROTOCOL_VERSIONS, type ProtocolVersion } from "mcpmock";
 * for (const version of SUPPORTED_PROTOCOL_VERSIONS) { // "2026-07-28", "2025-11-25", ... "2024-10-07"
 *   test(`the client works at ${version}`, async () => {
 *     await using mock = await McpMock.start({ protocolVersions: [version as ProtocolVersion] });
 *     // ... connect the client under test to mock.url ...
 *   });
 * }
 * ```
 * @category Errors and protocol facts
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = REVISIONS.map((r) => r.version);

/** The session era's versions (2024-10-07 to 2025-11-25), newest first: the ones `initialize` negotiates. */
export const SESSION_PROTOCOL_VERSIONS: readonly string[] = REVISIONS.filter((r) => !r.stateless).map((r) => r.version);

/** The stateless era's versions, newest first. */
export const STATELESS_PROTOCOL_VERSIONS: readonly string[] = REVISIONS.filter((r) => r.stateless).map((r) => r.version);

/** The revision for a supported version, or `undefined`. */
export function revisionOf(version: string): ProtocolRevision | undefined {
  return BY_VERSION.get(version);
}

/** The revision for a version that is known to be supported. */
export function supportedRevision(version: string): ProtocolRevision {
  return BY_VERSION.get(version) ?? (BY_VERSION.get(LATEST_PROTOCOL_VERSION) as ProtocolRevision);
}

/**
 * Version negotiation at `initialize`, as the spec says: echo a version the mock accepts, else
 * answer the newest it accepts (`accepted`: session-era versions, newest first). Never an error.
 */
export function negotiateVersion(requested: unknown, accepted: readonly string[] = SESSION_PROTOCOL_VERSIONS): string {
  return typeof requested === "string" && accepted.includes(requested) ? requested : (accepted[0] ?? LATEST_PROTOCOL_VERSION);
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
  /** 2026-07-28: the headers and the body disagree (`Mcp-Method`, `Mcp-Name`, `MCP-Protocol-Version`, `Mcp-Param-*`). */
  HeaderMismatch: -32020,
  /** 2026-07-28: the answer needs a client capability the request did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the request's protocol version is not one the server speaks. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** The `_meta` keys of the 2026-07-28 envelope and results. */
export const MetaKeys = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** Header names, lower-case as they arrive through the Fetch API. */
export const HeaderNames = {
  sessionId: "mcp-session-id",
  protocolVersion: "mcp-protocol-version",
  lastEventId: "last-event-id",
  /** 2026-07-28: the request's method, repeated as a header. */
  method: "mcp-method",
  /** 2026-07-28: the request's `params.name` or `params.uri`, repeated as a header. */
  name: "mcp-name",
  /** 2026-07-28: the prefix of the headers that repeat `x-mcp-header` tool arguments. */
  paramPrefix: "mcp-param-",
} as const;
