/**
 * HTTP rejections: the status, JSON-RPC code and message triples the SDK's transport uses,
 * so clients see errors they know. Where mcpmock can say more, `data` carries the fix.
 * @module
 */
import { ErrorCodes } from "../../protocol/revisions.js";

/** A JSON-RPC error body with `id: null`, as the SDK writes it on HTTP errors. */
export function rejection(status: number, code: number, message: string, data?: unknown, headers?: Record<string, string>): Response {
  const error = data === undefined ? { code, message } : { code, message, data };
  return new Response(JSON.stringify({ jsonrpc: "2.0", error, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

const T = ErrorCodes.TransportError;

export const Rejections = {
  notAcceptablePost: () =>
    rejection(406, T, "Not Acceptable: Client must accept both application/json and text/event-stream"),
  notAcceptableGet: () => rejection(406, T, "Not Acceptable: Client must accept text/event-stream"),
  unsupportedMediaType: () => rejection(415, T, "Unsupported Media Type: Content-Type must be application/json"),
  payloadTooLarge: (limit: number) => rejection(413, T, `Payload Too Large: Request body must not exceed ${limit} bytes`),
  invalidJson: (why?: string) => rejection(400, ErrorCodes.ParseError, "Parse error: Invalid JSON", why),
  invalidMessage: (why: string) => rejection(400, ErrorCodes.ParseError, "Parse error: Invalid JSON-RPC message", why),
  batchTooLarge: () => rejection(400, ErrorCodes.InvalidRequest, "Invalid Request: Batch must not exceed 100 messages"),
  emptyBatch: () =>
    rejection(400, ErrorCodes.InvalidRequest, "Invalid Request: Empty batch", "A batch must hold at least one message."),
  batchNotAllowed: (version: string) =>
    rejection(
      400,
      ErrorCodes.InvalidRequest,
      `Invalid Request: Batches are not allowed in protocol version ${version}`,
      "Only protocol version 2025-03-26 allows JSON-RPC batches. Send one message per POST.",
    ),
  alreadyInitialized: () => rejection(400, ErrorCodes.InvalidRequest, "Invalid Request: Server already initialized"),
  initializeInBatch: () => rejection(400, ErrorCodes.InvalidRequest, "Invalid Request: Only one initialization request is allowed"),
  sessionRequired: () => rejection(400, T, "Bad Request: Mcp-Session-Id header is required"),
  sessionNotFound: () => rejection(404, ErrorCodes.SessionNotFound, "Session not found"),
  unsupportedVersion: (version: string, supported: readonly string[]) =>
    rejection(400, T, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${supported.join(", ")})`),
  /** `initialize` at a mock that accepts only 2026-07-28 (`protocolVersions`): the revision's -32022. */
  sessionEraOff: (requested: unknown, supported: readonly string[]) =>
    rejection(400, ErrorCodes.UnsupportedProtocolVersion, `Unsupported protocol version: ${String(requested)}`, {
      supported: [...supported],
      requested,
      report: `[mcpmock] This mock accepts only ${supported.join(", ")} (protocolVersions), which have no initialize: send server/discover and stateless requests, or add a session-era version to protocolVersions.`,
    }),
  legacySessionRequired: () =>
    rejection(400, T, "Bad Request: sessionId query parameter is required", "POST to the URI of the endpoint event that GET /sse sent: /messages?sessionId=..."),
  legacySessionNotFound: (why: string) => rejection(404, ErrorCodes.SessionNotFound, "Session not found", `[mcpmock] ${why}`),
  methodNotAllowed: (allow: string) => rejection(405, T, "Method not allowed.", undefined, { allow }),
  streamConflict: () => rejection(409, T, "Conflict: Only one SSE stream is allowed per session"),
  resumeConflict: () => rejection(409, T, "Conflict: Stream already has an active connection"),
  invalidHost: (host: string) =>
    rejection(
      403,
      T,
      `Invalid Host header: ${host}`,
      `mcpmock answers loopback Host names only when it binds a loopback address (DNS-rebinding protection). To allow this one: McpMock.start({ allowedHosts: [${JSON.stringify(host)}] }).`,
    ),
  foreignHost: (host: string, allowed: readonly string[], bound: string) =>
    rejection(
      403,
      T,
      `Invalid Host header: ${host}`,
      `mcpmock answers this machine's own names only (${allowed.join(", ")}), as it binds ${bound} (DNS-rebinding protection). To allow this one: McpMock.start({ allowedHosts: [${JSON.stringify(host)}] }) or mcpmock serve --allowed-host ${host}.`,
    ),
  invalidOrigin: (origin: string) =>
    rejection(
      403,
      T,
      `Invalid Origin header: ${origin}`,
      `mcpmock allows loopback origins only by default. To allow this one: McpMock.start({ allowedOrigins: [${JSON.stringify(origin)}] }).`,
    ),
  sessionsFull: (max: number) =>
    rejection(
      503,
      T,
      `Service Unavailable: all ${max} sessions (maxSessions) hold an open GET stream`,
      "[mcpmock] no session can end to make room for a new one. Raise maxSessions (McpMock.start({ maxSessions: n })), or have clients close their GET streams or DELETE their sessions.",
    ),
  shuttingDown: () => rejection(503, T, "Service Unavailable: the mock is closing"),
  internal: (why: string) => rejection(500, ErrorCodes.InternalError, "Internal server error", `[mcpmock] ${why}`),
  notFound: (path: string, endpoint: string) =>
    rejection(404, T, `Not Found: ${path}`, `This is an mcpmock server; its MCP endpoint is ${endpoint} (POST, GET, DELETE).`),
} as const;
