/**
 * The shape of one MCP method's descriptor: everything the mock knows about a method, in
 * one object. Each method has a file of its own in this folder; `index.ts` lists them, and
 * the tables the rest of the mock reads (entry points, key params, result schemas, client
 * capabilities, advertised capabilities, selection rules, report nouns) are derived from
 * that list once, at module load. A method's built-in answer plays a plan on a call, so it
 * lives above the stubs, keyed by the method: `engine/built-ins/`.
 * @module
 */

/**
 * Which way a method travels:
 * - `client-request`: a JSON-RPC request the client sends and the mock answers (stubbable);
 * - `server-request`: a JSON-RPC request the mock sends and the client answers;
 * - `notification`: a JSON-RPC notification (no answer);
 * - `http`: not JSON-RPC at all but an HTTP exchange a stub can answer (the GET stream, the
 *   DELETE that ends a session). They are named like methods so the registry, the journal
 *   and the reports treat them like the others; they are kept apart here so that nothing
 *   that walks "every MCP request" (result schemas, revisions) mistakes them for one.
 */
export type Direction = "client-request" | "server-request" | "notification" | "http";

/**
 * How the engine chooses the stub that answers a call of this method (the engine maps each
 * rule to its selection function; see `engine/selection.ts`):
 * - `plain`: the one ordering rule, then a `Method not found` miss with the report;
 * - `tool-tiers`: specified arguments, the declaration's inputSchema check, ANY, then the
 *   miss as an `isError` tool result;
 * - `prompt-tiers`: the same tiers for prompts (required arguments, declared messages);
 * - `resource-read`: stubs, then declared contents, then "resource not found".
 */
export type SelectionRule = "plain" | "tool-tiers" | "prompt-tiers" | "resource-read";

/** The declarations a capability can depend on. */
export type Catalog = "tools" | "resources" | "prompts";

/** What a stub of a method is keyed by, and how reports name it. */
export interface KeyParam {
  /** The request param (`params.name`, `params.uri`, or a task method's `params.taskId`). */
  readonly param: "name" | "uri" | "taskId";
  /** Its noun in near-miss tables: `tool name`, `prompt name`, `URI`. */
  readonly noun: string;
  /** How reports name a stub or pattern of this method without a key (default: the method). */
  readonly unkeyed?: string;
}

/** A server capability a method belongs to, as `initialize` advertises it. */
export interface AdvertisedCapability {
  /** The key in the initialize result's `capabilities`, e.g. `"tools"`. */
  readonly capability: string;
  /** Its value, e.g. `{ listChanged: true }` (copied into every answer). */
  readonly value: Readonly<Record<string, unknown>>;
  /**
   * When it is advertised: `"always"`, or when something is declared in `declared`, or (with
   * `stubbed`) when a user stub answers this method, or (with `taskTools`) when a declared
   * tool may run as a task. A capability several methods name is advertised when any of them says so.
   */
  readonly when: "always" | { readonly declared?: Catalog; readonly stubbed?: true; readonly taskTools?: true };
}

/**
 * One MCP method, as the mock knows it.
 *
 * @example
 * ```ts
 * export const ping: MethodDescriptor = {
 *   method: "ping",
 *   direction: "client-request",
 *   revisions: SUPPORTED_PROTOCOL_VERSIONS,
 *   entryPoint: "ping",
 *   pattern: true,
 *   resultSchema: "EmptyResultSchema",
 * };
 * ```
 */
export interface MethodDescriptor {
  /** The JSON-RPC method (or, for `http`, the name stubs and reports use). */
  readonly method: string;
  readonly direction: Direction;
  /** The protocol revisions the method exists in. */
  readonly revisions: readonly string[];
  /**
   * The extension the method belongs to (`io.modelcontextprotocol/skills`), when it is not the
   * core's: the SDKs need not know it, and its results have no SDK schema.
   */
  readonly extension?: string;
  /** The `McpMock` method that starts a stub chain for it (`toolsCall`); none: `mock.method(...)`. */
  readonly entryPoint?: string;
  /** `mcpmock` also exports a pattern function named like the entry point, for `verify()`. */
  readonly pattern?: true;
  /** What its stubs are keyed by (tool or prompt name, resource URI). */
  readonly key?: KeyParam;
  /** Stubs match `params.arguments` (`withArgs`), and reports show the arguments, not the params. */
  readonly arguments?: true;
  /** The SDK schema (an export of `@modelcontextprotocol/sdk/types.js`) its result must satisfy. */
  readonly resultSchema?: string;
  /** For a server-to-client request: the client capability it needs, declared at initialize. */
  readonly clientCapability?: string;
  /**
   * The part of that capability a request needs besides it, read from its params (2025-11-25:
   * `elicitation.url` for `mode: "url"`, `sampling.tools` for a request that offers tools).
   */
  readonly clientSubCapability?: (params: Readonly<Record<string, unknown>> | undefined) => string | undefined;
  /** The server capability it belongs to, and when the mock advertises it. */
  readonly advertises?: AdvertisedCapability;
  /** How the stub that answers it is chosen (default `plain`). */
  readonly selection?: SelectionRule;
  /**
   * The request that opens a session (`initialize`): a stub's answer is merged onto the
   * built-in one (never served as a constant), and tells the era what to open.
   */
  readonly opens?: true;
  /** A probe a client may send before it has a session (`server/discover`). */
  readonly beforeSession?: true;
  /** 2026-07-28: its results carry `ttlMs` and `cacheScope` (lists, reads, discover). */
  readonly cacheable?: true;
  /** The least result a client accepts (default `{}`): what a fault answers in place of the real one. */
  readonly emptyResult?: Readonly<Record<string, unknown>>;
}
