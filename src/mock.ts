/**
 * McpMock: the entry points of the stubbing DSL, declarations, and the server's lifetime.
 * @module
 */
import { DeleteSessionBuilder, draft, InitializeBuilder, RequestBuilder, ToolCallBuilder } from "./builder.js";
import { MockCore } from "./core.js";
import type { ToolDeclaration } from "./declarations.js";
import { McpMockError } from "./errors.js";
import { closestNames, stubSentence } from "./explain.js";
import { HttpTransport } from "./app.js";
import type { McpMockOptions } from "./options.js";
import { listen, type Listening } from "./server.js";
import { HTTP_DELETE } from "./stub.js";
import type { ToolArgs, ToolName, ToolPayload } from "./typed.js";

/**
 * A mock MCP server for tests: stub what it answers, point a client at {@link McpMock.url},
 * and close it when done (or let `await using` close it).
 *
 * @example
 * ```ts
 * import { McpMock, ANY, text } from "mcpmock";
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
 *
 * const tools = [{ name: "add", inputSchema: { type: "object",
 *   properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }] as const;
 * await using mock = await McpMock.start({ tools });
 * mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
 * mock.toolsCall("add").withArgs(ANY).respondsWith(text("fallback"));
 *
 * const client = new Client({ name: "test", version: "1.0.0" });
 * await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
 * const result = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
 * // result.content: [{ type: "text", text: '{"sum":3}' }]
 * await client.close();
 * ```
 */
export class McpMock<Tools extends readonly ToolDeclaration[] = readonly ToolDeclaration[]> {
  readonly #core: MockCore;
  readonly #transport: HttpTransport;
  readonly #server: Listening;
  #closing: Promise<void> | undefined;
  /** The MCP endpoint: `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;

  private constructor(core: MockCore, transport: HttpTransport, server: Listening) {
    this.#core = core;
    this.#transport = transport;
    this.#server = server;
    const host = server.host.includes(":") ? `[${server.host}]` : server.host;
    this.url = `http://${host}:${server.port}${core.options.path ?? "/mcp"}`;
  }

  /**
   * Starts a mock on a free loopback port (unless options say otherwise). Declarations are
   * checked here, so a broken tool schema fails at this call.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * await using mock = await McpMock.start({ tools: [{ name: "echo", inputSchema: { type: "object" } }] });
   * console.log(mock.url); // http://127.0.0.1:53211/mcp
   * ```
   */
  static async start<const T extends readonly ToolDeclaration[] = readonly ToolDeclaration[]>(
    options: McpMockOptions<T> = {},
  ): Promise<McpMock<T>> {
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
    const core = new MockCore(options);
    const transport = new HttpTransport(core);
    const server = await listen((req) => transport.app.fetch(req), options.port ?? 0, options.host ?? "127.0.0.1");
    return new McpMock<T>(core, transport, server);
  }

  /** The port the mock listens on. */
  get port(): number {
    return this.#server.port;
  }

  /**
   * Stops the server: ends open streams, cancels pending delays, closes every connection.
   * Safe to call twice.
   *
   * @example
   * ```ts
   * const mock = await McpMock.start();
   * await mock.close();
   * ```
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#core.closing.abort();
      this.#transport.closeStreams();
      this.#core.sessions.clear();
      await this.#server.close();
    })();
    return this.#closing;
  }

  /** `await using mock = await McpMock.start()` closes the mock at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * Declares a tool while the mock runs (or replaces the one with the same name).
   *
   * @example
   * ```ts
   * mock.declareTool({ name: "late", inputSchema: { type: "object" } });
   * mock.toolsCall("late").respondsWith("here now");
   * ```
   */
  declareTool(tool: ToolDeclaration): void {
    this.#core.tools.declare(tool, `declareTool(${JSON.stringify(tool?.name)})`);
  }

  /**
   * Removes a declared tool and its stubs; a later call to it gets `Unknown tool`.
   *
   * @example
   * ```ts
   * mock.removeTool("late");
   * ```
   */
  removeTool(name: string): boolean {
    this.#core.registry.removeWhere((s) => s.method === "tools/call" && s.key === name);
    return this.#core.tools.remove(name);
  }

  /**
   * Stubs `tools/call`, for one declared tool or (without a name) for any tool.
   *
   * @example
   * ```ts
   * mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
   * mock.toolsCall().respondsWith("any tool, any arguments");
   * ```
   */
  toolsCall(): ToolCallBuilder;
  toolsCall<N extends ToolName<Tools>>(name: N): ToolCallBuilder<ToolArgs<Tools, N>, ToolPayload<Tools, N>>;
  toolsCall(name?: string): ToolCallBuilder<any, any> { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (name === undefined) return new ToolCallBuilder(draft("tools/call", "toolsCall()"), this.#core);
    const written = `toolsCall(${JSON.stringify(name)})`;
    if (typeof name !== "string") throw new McpMockError(`toolsCall takes a tool name (a string), received ${typeof name}.`);
    if (!this.#core.tools.has(name)) {
      const declared = this.#core.tools.names();
      const similar = closestNames(name, declared);
      throw new McpMockError(
        `${written}: no tool "${name}" is declared, so no client could call it. ` +
          (declared.length ? `Declared tools: ${declared.join(", ")}.` : "No tools are declared.") +
          (similar.length ? ` Did you mean "${similar[0]}"?` : "") +
          ` Declare it first: McpMock.start({ tools: [{ name: ${JSON.stringify(name)}, inputSchema: { type: "object" } }] }) or mock.declareTool({ ... }).`,
      );
    }
    return new ToolCallBuilder(draft("tools/call", written, name), this.#core);
  }

  /**
   * Stubs `initialize`. A partial result is completed from the default answer.
   *
   * @example
   * ```ts
   * mock.initialize().respondsWith({ instructions: "Be brief" }, { sessionId: "s-1" });
   * ```
   */
  initialize(): InitializeBuilder {
    return new InitializeBuilder(draft("initialize", "initialize()"), this.#core);
  }

  /**
   * Stubs `ping` (answered `{}` by default).
   *
   * @example
   * ```ts
   * mock.ping().withDelay(100).respondsWith({});
   * ```
   */
  ping(): RequestBuilder<Record<string, never>> {
    return new RequestBuilder(draft("ping", "ping()"), this.#core);
  }

  /**
   * Stubs `tools/list` (answered from the declarations by default).
   *
   * @example
   * ```ts
   * mock.toolsList().respondsWith({ tools: [] });
   * ```
   */
  toolsList(): RequestBuilder<Record<string, unknown>> {
    return new RequestBuilder(draft("tools/list", "toolsList()"), this.#core);
  }

  /**
   * Stubs `resources/list`.
   *
   * @example
   * ```ts
   * mock.resourcesList().respondsWith({ resources: [{ uri: "test://a", name: "a" }] });
   * ```
   */
  resourcesList(): RequestBuilder<Record<string, unknown>> {
    return this.method("resources/list", "resourcesList()");
  }

  /**
   * Stubs `resources/templates/list`.
   *
   * @example
   * ```ts
   * mock.resourcesTemplatesList().respondsWith({ resourceTemplates: [] });
   * ```
   */
  resourcesTemplatesList(): RequestBuilder<Record<string, unknown>> {
    return this.method("resources/templates/list", "resourcesTemplatesList()");
  }

  /**
   * Stubs `prompts/list`.
   *
   * @example
   * ```ts
   * mock.promptsList().respondsWith({ prompts: [{ name: "greet" }] });
   * ```
   */
  promptsList(): RequestBuilder<Record<string, unknown>> {
    return this.method("prompts/list", "promptsList()");
  }

  /**
   * Stubs `completion/complete`.
   *
   * @example
   * ```ts
   * mock.completionComplete().respondsWith({ completion: { values: ["Ada"] } });
   * ```
   */
  completionComplete(): RequestBuilder<Record<string, unknown>> {
    return this.method("completion/complete", "completionComplete()");
  }

  /**
   * Stubs `logging/setLevel`.
   *
   * @example
   * ```ts
   * mock.loggingSetLevel().respondsWith({});
   * ```
   */
  loggingSetLevel(): RequestBuilder<Record<string, unknown>> {
    return this.method("logging/setLevel", "loggingSetLevel()");
  }

  /**
   * Stubs any JSON-RPC method, including ones MCP does not define.
   *
   * @example
   * ```ts
   * mock.method("custom/thing").withParams({ id: 7 }).respondsWith({ ok: true });
   * ```
   */
  method(name: string, written = `method(${JSON.stringify(name)})`): RequestBuilder<Record<string, unknown>> {
    if (typeof name !== "string" || name === "") throw new McpMockError(`method takes a JSON-RPC method name, like "custom/thing".`);
    return new RequestBuilder(draft(name, written), this.#core);
  }

  /**
   * Stubs the HTTP DELETE that ends a session (default: 204, and the session ends).
   *
   * @example
   * ```ts
   * mock.deleteSession().respondsWithStatus(405);
   * ```
   */
  deleteSession(): DeleteSessionBuilder {
    return new DeleteSessionBuilder(draft(HTTP_DELETE, "deleteSession()"), this.#core);
  }

  /**
   * Every stub as one sentence, best first per method, built-in answers included.
   *
   * @example
   * ```ts
   * console.log(mock.explain().join("\n"));
   * ```
   */
  explain(): string[] {
    return this.#core.registry.all().map((e) => `${e.stub.id}: ${stubSentence(e.stub, e.hits)}`);
  }

  /**
   * Removes every stub (the built-in answers stay) and clears the journal. Sessions stay open.
   *
   * @example
   * ```ts
   * afterEach(() => mock.reset());
   * ```
   */
  reset(): void {
    this.#core.resetStubs();
    this.#core.journal.clear();
  }
}
