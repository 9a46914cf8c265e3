/**
 * What a stub sees of a received request: the one shape that matchers, response functions
 * and the journal share.
 * @module
 */
import { canonicalJson } from "../values/json-value.js";
import { KEY_BY_METHOD } from "../protocol/methods/index.js";
import type { RequestId } from "../protocol/jsonrpc.js";
import { capabilitiesExtensions, requestExtensions } from "../protocol/extensions.js";

const NO_EXTENSIONS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Where a request came in.
 *
 * @example
 * ```ts
 * import { McpMock, toolsCall, type TransportKind } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "add", inputSchema: { type: "object" } }] });
 * mock.toolsCall("add").respondsWith((call) => (call.transport === "stdio" ? "from a child process" : "over a connection"));
 * // ... clients call add ...
 * const transports: TransportKind[] = mock.findRequests(toolsCall("add")).map((entry) => entry.transport);
 * ```
 * @category Stubbing
 */
export type TransportKind = "http" | "stdio" | "memory" | "sse";

/**
 * The parts of a received request a stub can match on or answer from.
 * @inline
 */
export interface McpCallInit {
  /** The JSON-RPC method, e.g. `"tools/call"`. */
  readonly method: string;
  /** The request's `params`; `undefined` when it has none. */
  readonly params: Record<string, unknown> | undefined;
  /** The JSON-RPC request id; `undefined` for a notification or an HTTP `DELETE`. */
  readonly id: RequestId | undefined;
  /** The `Mcp-Session-Id` the request carried; `undefined` when it carried none (as on `initialize`). */
  readonly sessionId: string | undefined;
  /** Request headers, names in lower case (empty over stdio). */
  readonly headers: Readonly<Record<string, string>>;
  /** The protocol version in effect for this request. */
  readonly protocolVersion: string;
  /** The raw text of the message (the whole HTTP body, or the stdio line). */
  readonly body: string;
  /** How the request arrived: over `"http"`, `"stdio"` or `"memory"` (`mock.clientTransport()`). */
  readonly transport: TransportKind;
}

/**
 * A received request as stubs and response functions see it.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({
 *   tools: [{ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } }],
 * });
 * mock.toolsCall("add").respondsWith((call) => ({
 *   sum: Number(call.args.a) + Number(call.args.b),
 *   session: call.sessionId,
 * }));
 * ```
 * @category Stubbing
 */
export class McpCall implements McpCallInit {
  /** The JSON-RPC method, e.g. `"tools/call"`. */
  readonly method: string;
  /** The request's `params`; `undefined` when it has none. */
  readonly params: Record<string, unknown> | undefined;
  /** The JSON-RPC request id; `undefined` for a notification or an HTTP `DELETE`. */
  readonly id: RequestId | undefined;
  /** The `Mcp-Session-Id` the request carried; `undefined` when it carried none (as on `initialize`). */
  readonly sessionId: string | undefined;
  /** Request headers, names in lower case (empty over stdio). */
  readonly headers: Readonly<Record<string, string>>;
  /** The protocol version in effect for this request. */
  readonly protocolVersion: string;
  /** How the request arrived: over `"http"`, `"stdio"` or `"memory"` (`mock.clientTransport()`). */
  readonly transport: TransportKind;
  /**
   * Aborted when the work answering this call must stop: a task's `tasks/cancel`, the
   * client's `notifications/cancelled` of a stream, or the mock closing. Set on the calls an
   * answer function sees while it runs as a task's work or in a stream; `undefined` elsewhere.
   */
  declare readonly signal?: AbortSignal;
  #argsKey: string | undefined;
  #body: string | undefined;
  /** The extensions the client declared at initialize, for a call in its session. */
  #sessionExtensions: Record<string, unknown> | undefined;

  constructor(init: McpCallInit) {
    this.method = init.method;
    this.params = init.params;
    this.id = init.id;
    this.sessionId = init.sessionId;
    this.headers = init.headers;
    this.protocolVersion = init.protocolVersion;
    this.#body = init.body;
    this.transport = init.transport;
  }

  /**
   * The raw text of the message (the whole HTTP body, or the stdio line). Once the call is
   * answered and journaled the text is not kept (the params are): it is then the message
   * written again as compact JSON.
   */
  get body(): string {
    if (this.#body !== undefined) return this.#body;
    const message = this.id === undefined ? { jsonrpc: "2.0", method: this.method, params: this.params } : { jsonrpc: "2.0", id: this.id, method: this.method, params: this.params };
    return JSON.stringify(message);
  }

  /** The raw text of the message while it is kept (until the call is journaled). @internal */
  get rawBody(): string | undefined {
    return this.#body;
  }

  /**
   * Lets go of what can be made again (the raw text, the canonical arguments), so a journaled
   * call holds its params once; `headers` replace its headers (redacted ones). @internal
   */
  compact(headers: Readonly<Record<string, string>> = this.headers): void {
    this.#body = undefined;
    this.#argsKey = undefined;
    (this as { headers: Readonly<Record<string, string>> }).headers = headers;
  }

  /**
   * This call as the journal shows it when its params or headers held a secret (proxy mode:
   * the upstream's credentials replaced): those given instead, and no raw text, which would
   * hold the secret still. @internal
   */
  shownAs(params: Record<string, unknown> | undefined, headers: Readonly<Record<string, string>>): McpCall {
    const call = new McpCall({ method: this.method, params, id: this.id, sessionId: this.sessionId, headers, protocolVersion: this.protocolVersion, body: "", transport: this.transport });
    call.#sessionExtensions = this.#sessionExtensions;
    call.compact(); // its body is then the message as shown, written again
    return call;
  }

  /** This call with its params dropped but its key (tool or prompt name, resource URI). @internal */
  withoutParams(headers: Readonly<Record<string, string>> = this.headers): McpCall {
    const param = KEY_BY_METHOD.get(this.method)?.param;
    const key = param === undefined ? undefined : this.params?.[param];
    const params = key === undefined || param === undefined ? undefined : { [param]: key };
    const call = new McpCall({ method: this.method, params, id: this.id, sessionId: this.sessionId, headers, protocolVersion: this.protocolVersion, body: "", transport: this.transport });
    call.#sessionExtensions = this.#sessionExtensions;
    call.compact(); // its body is then the message as kept, written again
    return call;
  }

  /**
   * The extensions the client declared (SEP-2133), by identifier with their settings: at
   * `initialize` for a call in a session, in the request's own client capabilities in
   * 2026-07-28. Empty when it declared none.
   */
  get clientExtensions(): Readonly<Record<string, unknown>> {
    return this.#sessionExtensions ?? requestExtensions(this.method, this.params) ?? NO_EXTENSIONS;
  }

  /** Sets the client capabilities the session declared, whose extensions this call then has. @internal */
  declaredExtensions(capabilities: unknown): void {
    this.#sessionExtensions = capabilitiesExtensions(capabilities);
  }

  /** The session's declared extensions, when the call has them from its session (what the journal keeps). @internal */
  get sessionExtensions(): Record<string, unknown> | undefined {
    return this.#sessionExtensions;
  }

  /** The tool or prompt name (`params.name`), if the request has one. */
  get name(): string | undefined {
    const name = this.params?.["name"];
    return typeof name === "string" ? name : undefined;
  }

  /** The resource URI (`params.uri`), if the request has one. */
  get uri(): string | undefined {
    const uri = this.params?.["uri"];
    return typeof uri === "string" ? uri : undefined;
  }

  /** What stubs for this method are keyed by: the tool or prompt name, or the resource URI. */
  get key(): string | undefined {
    const param = KEY_BY_METHOD.get(this.method)?.param;
    const value = param === undefined ? undefined : this.params?.[param];
    return typeof value === "string" ? value : undefined;
  }

  /** Tool or prompt arguments (`params.arguments`, `{}` when absent). */
  get args(): Record<string, unknown> {
    const args = this.params?.["arguments"];
    return args !== null && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  }

  /** The arguments in canonical JSON (computed once per call; used for exact matching). */
  get argsKey(): string {
    return (this.#argsKey ??= canonicalJson(this.args));
  }
}

/** The extensions a call's client declared, `undefined` when none (what journal entries show). @internal */
export function declaredExtensionsOf(call: McpCall | undefined): Readonly<Record<string, unknown>> | undefined {
  if (call === undefined) return undefined;
  const extensions = call.clientExtensions;
  for (const _ in extensions) return extensions;
  return undefined;
}
