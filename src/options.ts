/**
 * Options for {@link McpMock.start}.
 * @module
 */
import { McpMockError } from "./values/errors.js";
import type { ToolDeclaration } from "./stubs/tool-catalog.js";
import type { JournalEntry } from "./journal/journal.js";
import type { PromptDeclaration } from "./stubs/prompt-catalog.js";
import type { AnyResourceDeclaration } from "./stubs/resource-catalog.js";
import type { SessionIdGenerator } from "./engine/session-store.js";

/** The server's identity, as `initialize` answers it. */
export interface ServerInfo {
  /** The server's name (required), e.g. `"weather"`. */
  readonly name: string;
  /** The server's version (required), e.g. `"1.0.0"`. */
  readonly version: string;
  /** A human-readable display name (2025-06-18). */
  readonly title?: string;
  /** What the server does (2025-11-25). */
  readonly description?: string;
  /** The URL of the server's website (2025-11-25). */
  readonly websiteUrl?: string;
  readonly [key: string]: unknown;
}

/**
 * How a mock starts. Every field is optional.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({
 *   sessions: "stateless",
 *   responseMode: "sse",
 *   serverInfo: { name: "weather", version: "1.0.0" },
 *   tools: [{ name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "string" } } } }],
 * });
 * ```
 */
export interface McpMockOptions<Tools extends readonly ToolDeclaration[] = readonly ToolDeclaration[]> {
  /**
   * Serve the admin REST API under `/__admin` (as `mcpmock serve` does): loopback clients
   * only, unless `{ remote: true }`.
   */
  readonly admin?:
    | boolean
    | {
        /** Also accept admin requests from non-loopback clients. */
        readonly remote?: boolean;
      };
  /**
   * `"http"` (default): listen for Streamable HTTP. `"none"`: no listener; the mock is
   * served another way (the `mcpmock stdio` command).
   */
  readonly transport?: "http" | "none";
  /** TCP port; 0 (the default) picks a free one, so parallel tests never clash. */
  readonly port?: number;
  /** Interface to bind; loopback (`127.0.0.1`) by default. */
  readonly host?: string;
  /** The MCP endpoint path; `/mcp` by default. */
  readonly path?: string;
  /**
   * `"stateful"` (default): `initialize` issues an `Mcp-Session-Id` and later requests must
   * carry it. `"stateless"`: no sessions; every request stands alone.
   */
  readonly sessions?: "stateful" | "stateless";
  /** Open sessions kept at most; past it the least recently used ends (its id then gets 404). 1000 by default. */
  readonly maxSessions?: number;
  /** Milliseconds a session may idle before it expires (its id then gets 404). 30 minutes by default. */
  readonly sessionIdleMs?: number;
  /**
   * Host headers allowed (DNS-rebinding protection), besides loopback names when the mock
   * binds a loopback address. A request with another Host gets 403.
   */
  readonly allowedHosts?: readonly string[];
  /** Stateful session ids: `"sequential"` (`session-1`, `session-2`; the default), `"uuid"`, or a function. */
  readonly sessionIds?: SessionIdGenerator;
  /** `serverInfo` in the initialize result; `{ name: "mcpmock", version }` by default. */
  readonly serverInfo?: ServerInfo;
  /** `instructions` in the initialize result. */
  readonly instructions?: string;
  /** One line per request and its answer on stderr. */
  readonly verbose?: boolean;
  /** Declared tools, listed by `tools/list`; stubs may only name declared tools. */
  readonly tools?: Tools;
  /** Declared resources and resource templates, listed by `resources/list` and `resources/templates/list`. */
  readonly resources?: readonly AnyResourceDeclaration[];
  /** Declared prompts, listed by `prompts/list`. */
  readonly prompts?: readonly PromptDeclaration[];
  /** Items per page of list answers (`tools/list` and the like); longer lists are paged with opaque cursors. 100 by default. */
  readonly pageSize?: number;
  /**
   * The JSON-RPC code for a read of an unknown resource: -32002 (the spec up to 2025-11-25,
   * the default) or -32602 (what the v2 SDK sends).
   */
  readonly resourceNotFoundCode?: number;
  /**
   * How a POST carrying requests is answered: `"json"` (default: one `application/json`
   * body) or `"sse"` (a `text/event-stream` that carries the answer and closes).
   */
  readonly responseMode?: "json" | "sse";
  /**
   * Serve the 2024-11-05 HTTP+SSE transport beside the MCP endpoint (default `true`): `GET /sse`
   * opens a session's stream and sends `event: endpoint` with its POST URI
   * (`/messages?sessionId=...`); every answer comes on that stream. `false`: `GET /sse` is 404,
   * and `mock.sseUrl` throws.
   */
  readonly legacySse?: boolean;
  /** Answer GET with a held-open SSE stream (default, stateful only); `false` answers 405. */
  readonly getStream?: boolean;
  /** Milliseconds between keep-alive comments on idle streams; 15000 by default, 0 turns them off. */
  readonly keepAliveMs?: number;
  /** Largest accepted POST body in bytes; 4 MiB by default (413 above). */
  readonly maxBodyBytes?: number;
  /**
   * Journal entries kept, 10000 by default: the oldest are dropped first, and verification
   * sees the kept ones (the total received stays exact and is reported). An entry for a
   * `tools/call` over HTTP takes about 0.85 KiB; `0` keeps none (for load runs that never
   * verify: resident memory then stays near a bare server's).
   */
  readonly journalSize?: number;
  /**
   * Refuse, at the stub, an answer that SDK clients would reject (checked with the SDK's
   * result schemas). Off by default, so a test can send a broken answer on purpose.
   */
  readonly strict?: boolean;
  /** Milliseconds the mock waits for a client's answer to a server-to-client request; 10000 by default. */
  readonly clientTimeoutMs?: number;
  /** The `retry:` (ms) the mock advises on SSE streams before a client reconnects; 1000 by default. */
  readonly sseRetryMs?: number;
  /** Seed for random delays (`withDelay({ distribution })`); the same seed waits the same way. Default 1. */
  readonly seed?: number;
  /**
   * What the test process sees when a request matches no stub (the client always gets the
   * miss answer): `"warn"` (default) prints the report on stderr; `"error"` prints it and
   * makes `close()` reject listing every unmatched request; `"silent"`; or a function that
   * receives the journal entry and the report.
   */
  readonly onUnmatched?: "warn" | "error" | "silent" | ((entry: JournalEntry, report: string) => void);
  /**
   * Browser origins allowed besides loopback ones (`http://localhost:*`, `http://127.0.0.1:*`).
   * A request with any other `Origin` gets 403, as the 2025-11-25 spec requires.
   */
  readonly allowedOrigins?: readonly string[];
}

/** Refuses options that cannot work, with the fix (the rest are checked where they are used). */
export function assertValidOptions(options: McpMockOptions): void {
  const path = options.path ?? "/mcp";
  if (typeof path !== "string" || !path.startsWith("/")) {
    throw new McpMockError(`path must start with "/", like "/mcp"; received ${JSON.stringify(path)}.`);
  }
  if (options.sessions !== undefined && options.sessions !== "stateful" && options.sessions !== "stateless") {
    throw new McpMockError(`sessions must be "stateful" or "stateless", received ${JSON.stringify(options.sessions)}.`);
  }
  if (options.responseMode !== undefined && options.responseMode !== "json" && options.responseMode !== "sse") {
    throw new McpMockError(`responseMode must be "json" or "sse", received ${JSON.stringify(options.responseMode)}.`);
  }
}
