/**
 * Options for {@link McpMock.start}.
 * @module
 */
import type { AppDeclaration } from "./stubs/app-catalog.js";
import type { SkillDeclaration } from "./stubs/skill-catalog.js";
import { McpMockError } from "./values/errors.js";
import { assertAuthOptions, type AuthOptions } from "./auth/auth-options.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "./protocol/revisions.js";
import type { ToolDeclaration } from "./stubs/tool-catalog.js";
import type { JournalEntry } from "./journal/entry.js";
import type { PromptDeclaration } from "./stubs/prompt-catalog.js";
import type { AnyResourceDeclaration } from "./stubs/resource-catalog.js";
import { proxyTargetProblems, type ProxyTarget } from "./proxy-target.js";
import { assertIcons, type Icon } from "./protocol/icons.js";
import { extensionProblems, type ExtensionSettings } from "./protocol/extensions.js";
import { serverCardProblems, type ServerCardOverrides } from "./protocol/server-card.js";

/**
 * The server's identity, as `initialize` answers it.
 *
 * @example
 * ```ts
 * import { McpMock, type ServerInfo } from "mcpmock";
 * const serverInfo: ServerInfo = { name: "weather", version: "1.0.0", title: "Weather", websiteUrl: "https://example.com" };
 * await using mock = await McpMock.start({ serverInfo, instructions: "Ask for one city at a time" });
 * ```
 * @category Starting
 */
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
  /** Icons a client may show for the server (2025-11-25), checked at start. */
  readonly icons?: readonly Icon[];
  readonly [key: string]: unknown;
}

/**
 * A protocol version the mock speaks: the stateless `"2026-07-28"` or a session-era one.
 *
 * @example
 * ```ts
 * import { McpMock, type ProtocolVersion } from "mcpmock";
 * const versions: ProtocolVersion[] = ["2026-07-28", "2025-11-25"];
 * await using mock = await McpMock.start({ protocolVersions: versions });
 * ```
 * @category Starting
 */
export type ProtocolVersion = "2026-07-28" | "2025-11-25" | "2025-06-18" | "2025-03-26" | "2024-11-05" | "2024-10-07";

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
 * @category Starting
 */
export interface McpMockOptions<Tools extends readonly ToolDeclaration[] = readonly ToolDeclaration[]> {
  /**
   * Serve the admin REST API under `/__admin` (as `mcpmock serve` does): loopback clients
   * only, unless `{ remote: true, token }`.
   */
  readonly admin?:
    | boolean
    | {
        /** Also accept admin requests from non-loopback clients (they must send the token). */
        readonly remote?: boolean;
        /** With `remote`, required: clients beyond loopback send `Authorization: Bearer <token>`. */
        readonly token?: string;
      };
  /**
   * Protect the MCP endpoint with OAuth 2.1 and serve an authorization server beside it
   * ({@link AuthOptions}): a request without a valid bearer token gets 401 with
   * `WWW-Authenticate: Bearer resource_metadata="..."`, one without a `required` scope 403
   * `insufficient_scope`. `mock.auth` issues, revokes and lists tokens. HTTP only.
   */
  readonly auth?: boolean | AuthOptions;
  /**
   * `"http"` (default): listen for Streamable HTTP. `"none"`: no listener and no port; clients
   * connect in memory (`mock.clientTransport()`), or the mock is served another way (the
   * `mcpmock stdio` command).
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
   * Host headers allowed (DNS-rebinding protection), besides loopback names; a name without a
   * port allows any port. Not given, a mock bound to loopback answers loopback names only, and
   * one bound beyond it (`0.0.0.0`, a LAN address) the machine's own names: `os.hostname()`,
   * the bound address and its interfaces' addresses. A request with another Host gets 403
   * (naming what is allowed); `mcpmock serve` prints the list when it starts.
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
  /** MCP Apps: `ui://` views a host renders for the tools that name them (`ui: { resourceUri }`); declaring one advertises the ui extension. */
  readonly apps?: readonly AppDeclaration[];
  /** Skills (the Skills extension): `SKILL.md` and its files served under `skill://`, with `skills/list`, `skills/get` and `resources/directory/read`; declaring one advertises the extension. */
  readonly skills?: readonly SkillDeclaration[];
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
  /**
   * Milliseconds an SSE client may leave the socket's buffer full (reading nothing) before it
   * is dropped; 30000 by default. Streams wait while the buffer is full, so a slow client slows
   * its stream down instead of filling memory. The dropped request's journal entry says why.
   */
  readonly sseStallMs?: number;
  /**
   * Bytes of events one SSE stream keeps for `Last-Event-ID` resuming (the oldest go first),
   * and the most a client may leave unread on it before it is dropped; 4 MiB by default.
   */
  readonly maxStreamBytes?: number;
  /** Bytes of events one session keeps for resuming, all its streams together; 16 MiB by default. */
  readonly maxSessionStreamBytes?: number;
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
   * The journal's byte budget, 64 MiB by default: the text of the messages it keeps (a message
   * in a batch counts its share of the batch's text) and the answers they got (about their JSON size; a
   * constant answer is one object all its entries share and counts nothing; an answer larger
   * than the whole budget is kept as `{ truncated: true, bytes }`). Past it the oldest entries are dropped, as past
   * `journalSize`; a message larger than the whole budget is kept without its params once it is
   * answered (all but the tool or prompt name or the resource URI; the entry's `truncated`
   * says its size), and verification reports how many were. A journaled call keeps its params
   * once: its raw text is not kept after it is answered (`call.body` is then written again).
   */
  readonly journalBytes?: number;
  /**
   * Refuse every answer that SDK clients would reject: the SDK's result schemas, and for a tool
   * with an `outputSchema`, `structuredContent` present and valid. A constant answer is refused
   * at the stub (it throws); an answer made by a call, at call time (a -32603 error saying why).
   * Off by default, so a test can send a broken answer on purpose.
   */
  readonly strict?: boolean;
  /** Milliseconds the mock waits for a client's answer to a server-to-client request; 10000 by default. */
  readonly clientTimeoutMs?: number;
  /**
   * Tasks (2025-11-25) of tools declared with `execution: { taskSupport }`: the default ttl and
   * `pollInterval`, how many tasks and result bytes are kept, and how ids are made.
   */
  readonly tasks?: TaskOptions;
  /** The `retry:` (ms) the mock advises on SSE streams before a client reconnects; 1000 by default. */
  readonly sseRetryMs?: number;
  /** Seed for random delays (`withDelay({ distribution })`) and fault rates (`fails(kind, { rate })`); the same seed waits and fails the same way. Default 1. */
  readonly seed?: number;
  /**
   * Proxy mode: what no stub answers goes to this real server (Streamable HTTP `target`, or a
   * stdio `command`), one upstream session per client session, and its answer comes back.
   * Stubs win; `.proxies()` forwards a pattern explicitly. `start` resolves even when the
   * upstream is down (a warning on stderr); its calls then answer errors naming it.
   */
  readonly proxy?: ProxyTarget;
  /**
   * What the test process sees when a request matches no stub (the client always gets the
   * miss answer): `"warn"` (default) prints the report with `console.warn` (on stderr; a test
   * runner shows it under the test that made the miss); `"error"` makes `close()` reject
   * listing every unmatched request's report (and prints nothing before, so each miss is shown
   * once); `"silent"`; or a function `(entry, report) => void` that receives the journal entry
   * (`entry.method`, `entry.call?.name`, `entry.params`) and the report (a string).
   */
  readonly onUnmatched?: "warn" | "error" | "silent" | ((entry: JournalEntry, report: string) => void);
  /**
   * The definition file a mock is served from (`mcpmock serve` and `stdio` set it): its miss
   * reports say what to add to that file, as JSON, instead of DSL calls.
   */
  readonly hintsFile?: string;
  /**
   * Browser origins allowed besides loopback ones (`http://localhost:*`, `http://127.0.0.1:*`).
   * A request with any other `Origin` gets 403, as the 2025-11-25 spec requires.
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * Request headers whose values the journal keeps as `"[redacted]"` (`mock.requests()`,
   * `GET /__admin/requests`, verification): `authorization` and `cookie` by default. Stubs
   * still match on the real values while a request is answered. `false` keeps every value (for
   * tests that verify a header); a list names the headers to redact instead.
   */
  readonly redactHeaders?: false | readonly string[];
  /**
   * The protocol versions the mock accepts; every one it knows by default
   * (`SUPPORTED_PROTOCOL_VERSIONS`: 2026-07-28 and the session era's). A 2026-07-28 request
   * (no session, the version in its `_meta`) is served statelessly; `initialize` opens a
   * session-era session, negotiating among the session versions listed. Without
   * `"2026-07-28"`, its requests get 400 (-32022, naming what the mock accepts) and v2 clients
   * in `auto` mode fall back to `initialize`; with only it, `initialize` is refused the same way.
   */
  readonly protocolVersions?: readonly ProtocolVersion[];
  /**
   * 2026-07-28: the cache hints put on list, read and discover results that do not carry
   * their own (a stub's result may set `ttlMs` and `cacheScope` itself): `ttlMs` 0 and
   * `cacheScope` `"private"` by default.
   */
  readonly cacheHints?: {
    /** Milliseconds a client may reuse the result (a whole number, 0 or more). */
    readonly ttlMs?: number;
    /** Who may share the cached result: `"private"` (this client) or `"public"` (any). */
    readonly cacheScope?: "public" | "private";
  };
  /**
   * Extensions the mock advertises (SEP-2133), by identifier with their settings:
   * `capabilities.extensions` at `initialize` and in 2026-07-28's `server/discover`. An
   * identifier is `{vendor-prefix}/{extension-name}`, like `"com.example/feature"`.
   */
  readonly extensions?: ExtensionSettings;
  /**
   * The server card (SEP-2127) served at `<path>/server-card` and listed by
   * `/.well-known/mcp/catalog.json`, made from the declarations by default. `false` serves
   * neither (404); an object replaces fields of the card (a card that disagrees with
   * `server/discover` on purpose).
   */
  readonly serverCard?: boolean | ServerCardOverrides;
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
  const admin = options.admin;
  if (typeof admin === "object" && admin.remote === true && !(typeof admin.token === "string" && admin.token.length > 0)) {
    throw new McpMockError(
      'admin: { remote: true } needs a token, which clients beyond loopback send as "Authorization: Bearer <token>": admin: { remote: true, token: "..." } (mcpmock serve --admin-host makes one and prints it).',
    );
  }
  for (const name of ["journalBytes", "sseStallMs", "maxStreamBytes", "maxSessionStreamBytes"] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
      throw new McpMockError(`${name} must be a positive whole number, received ${JSON.stringify(value)}.`);
    }
  }
  assertTaskOptions(options.tasks);
  const versions = options.protocolVersions;
  if (versions !== undefined) {
    const unknown: unknown[] = Array.isArray(versions) ? versions.filter((v) => !SUPPORTED_PROTOCOL_VERSIONS.includes(v)) : [versions];
    if (!Array.isArray(versions) || versions.length === 0 || unknown.length > 0) {
      throw new McpMockError(
        `protocolVersions must list versions the mock knows (${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}); received ${JSON.stringify(versions)}${unknown.length ? `, and ${unknown.map((v) => JSON.stringify(v)).join(", ")} is not one of them` : ""}.`,
      );
    }
  }
  const hints = options.cacheHints;
  if (hints !== undefined) {
    if (hints.ttlMs !== undefined && !(Number.isSafeInteger(hints.ttlMs) && hints.ttlMs >= 0)) throw new McpMockError(`cacheHints.ttlMs must be a whole number of milliseconds, 0 or more; received ${JSON.stringify(hints.ttlMs)}.`);
    if (hints.cacheScope !== undefined && hints.cacheScope !== "public" && hints.cacheScope !== "private") throw new McpMockError(`cacheHints.cacheScope must be "public" or "private"; received ${JSON.stringify(hints.cacheScope)}.`);
  }
  if (options.auth !== undefined && options.auth !== false) assertAuthOptions(options.auth === true ? {} : options.auth);
  const proxyProblems = options.proxy === undefined ? [] : proxyTargetProblems(options.proxy);
  if (proxyProblems.length > 0) throw new McpMockError(proxyProblems.join(" "));
  const redact = options.redactHeaders;
  if (redact !== undefined && redact !== false && !(Array.isArray(redact) && redact.every((h) => typeof h === "string"))) {
    throw new McpMockError(`redactHeaders must be false or a list of header names, received ${JSON.stringify(redact)}.`);
  }
  assertIcons(options.serverInfo?.icons, "serverInfo");
  const extensionMistakes = options.extensions === undefined ? [] : extensionProblems(options.extensions, "extensions");
  if (extensionMistakes.length > 0) throw new McpMockError(extensionMistakes.join(" "));
  const cardMistakes = options.serverCard === undefined ? [] : serverCardProblems(options.serverCard, "serverCard");
  if (cardMistakes.length > 0) throw new McpMockError(cardMistakes.join(" "));
}

function assertTaskOptions(tasks: TaskOptions | undefined): void {
  if (tasks === undefined) return;
  if (tasks === null || typeof tasks !== "object" || Array.isArray(tasks)) throw new McpMockError(`tasks must be an object like { ttl: 60000, pollInterval: 100 }, received ${JSON.stringify(tasks)}.`);
  const known = ["ttl", "pollInterval", "maxTasks", "maxBytes", "maxTasksPerSession", "ids"];
  const unknown = Object.keys(tasks).filter((k) => !known.includes(k));
  if (unknown.length) throw new McpMockError(`tasks: unknown option ${unknown.map((k) => JSON.stringify(k)).join(", ")}; the options are ${known.join(", ")}.`);
  const ms = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v) && v >= 0;
  if (tasks.ttl !== undefined && tasks.ttl !== null && !ms(tasks.ttl)) throw new McpMockError(`tasks.ttl must be milliseconds (0 or more) or null (kept until close), received ${JSON.stringify(tasks.ttl)}.`);
  if (tasks.pollInterval !== undefined && !ms(tasks.pollInterval)) throw new McpMockError(`tasks.pollInterval must be milliseconds (0 or more), received ${JSON.stringify(tasks.pollInterval)}.`);
  for (const name of ["maxTasks", "maxBytes", "maxTasksPerSession"] as const) {
    const value = tasks[name];
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) throw new McpMockError(`tasks.${name} must be a positive whole number, received ${JSON.stringify(value)}.`);
  }
  const ids = tasks.ids;
  if (ids !== undefined && ids !== "sequential" && ids !== "uuid" && typeof ids !== "function") throw new McpMockError(`tasks.ids must be "sequential", "uuid" or a function that returns a fresh id, received ${JSON.stringify(ids)}.`);
}

/**
 * How stateful session ids are made: deterministic (`session-1`, ...) by default.
 *
 * @example
 * ```ts
 * import { McpMock, type SessionIdGenerator } from "mcpmock";
 * let n = 0;
 * const sessionIds: SessionIdGenerator = () => `tenant-a-${++n}`; // or "sequential" (the default), "uuid"
 * await using mock = await McpMock.start({ sessionIds });
 * ```
 * @category Starting
 */
export type SessionIdGenerator = "sequential" | "uuid" | (() => string);

/**
 * How task ids are made: deterministic (`task-1`, ...) by default.
 *
 * @example
 * ```ts
 * import { McpMock, type TaskIdGenerator } from "mcpmock";
 * const ids: TaskIdGenerator = "uuid"; // or "sequential" (task-1, task-2: the default), or () => string
 * await using mock = await McpMock.start({ tools: [{ name: "build", execution: { taskSupport: "optional" } }], tasks: { ids } });
 * ```
 * @category Starting
 */
export type TaskIdGenerator = "sequential" | "uuid" | (() => string);

/**
 * The `tasks` option of `McpMock.start`.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({
 *   tools: [{ name: "build", execution: { taskSupport: "optional" } }],
 *   tasks: { ttl: 5_000, pollInterval: 10, maxTasks: 100, ids: "uuid" },
 * });
 * ```
 * @category Starting
 */
export interface TaskOptions {
  /** The ttl of a task whose client asked for none, in ms (`null`: until the mock closes); default 60000. */
  readonly ttl?: number | null;
  /** The `pollInterval` tasks suggest, in ms; default 100. */
  readonly pollInterval?: number;
  /** At most this many tasks are kept (default 1000); past it the oldest finished one goes. */
  readonly maxTasks?: number;
  /** At most this many bytes of stored task results (default 16 MiB). */
  readonly maxBytes?: number;
  /**
   * At most this many running tasks per session (a request without one: per token's client and
   * user; without `auth`, all such requests together); default three quarters of `maxTasks`,
   * so one client cannot take every slot.
   */
  readonly maxTasksPerSession?: number;
  /** How task ids are made: `"sequential"` (`task-1`, ..., the default), `"uuid"`, or a function. */
  readonly ids?: TaskIdGenerator;
}
