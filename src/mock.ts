/**
 * McpMock: the entry points of the stubbing DSL, declarations, and the server's lifetime.
 * @module
 */
import type { StubBuilder } from "./dsl/stub-builder.js";
import { CompletionBuilder, DeleteSessionBuilder, OpenStreamBuilder, InitializeBuilder, PromptGetBuilder, RequestBuilder, ResourceReadBuilder, ToolCallBuilder } from "./dsl/method-builders.js";
import type { JournalEntry } from "./journal/journal.js";
import type { CountExpectation } from "./journal/verification.js";
import { allowUnmatched, assertAllStubsUsed, assertNoUnmatched, findRequests, unmatchedRequests, verifyRequests, verifyRequestsInOrder, waitForRequest } from "./dsl/verify.js";
import { MockCore } from "./engine/core.js";
import type { ToolDeclaration } from "./stubs/tool-catalog.js";
import { StubBaseline } from "./stubs/baseline.js";
import type { DefinitionInput } from "./dsl/typed.js";
import type { PromptDeclaration } from "./stubs/prompt-catalog.js";
import { entryDraft, readDraft, taskDraft } from "./dsl/patterns.js";
import { completionCompleteOn, initializeOn, methodOn, openStreamOn, promptsGetOn, toolsCallOn } from "./dsl/bound-entry-points.js";
import { loadDefinition, type MockDefinition } from "./definition/load.js";
import { applyDefinition, definitionOptions, reapplyDefinition } from "./definition/apply.js";
import type { AnyResourceDeclaration } from "./stubs/resource-catalog.js";
import { McpMockError } from "./values/errors.js";
import { assertJsonCarriable } from "./values/json-value.js";
import { stubSentence } from "./journal/explain.js";
import { assertValidOptions, type McpMockOptions } from "./options.js";
import type { StdioStreams } from "./transports/stdio.js";
import { Served, type MockAuth } from "./served.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { adminApp, inspectorSource } from "./admin/admin-api.js";
import { reloadFile, type Baseline, type ReloadChanges } from "./definition/reload.js";
import { HTTP_DELETE } from "./protocol/entry-points.js";
import type { ToolArgs, ToolName, ToolPayload } from "./dsl/typed.js";
import type { ScenarioHandle, SessionInfo } from "./mock-views.js";

export type { ScenarioHandle, SessionInfo } from "./mock-views.js";

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
 * @category Starting
 */
export class McpMock<Tools extends readonly ToolDeclaration[] = readonly ToolDeclaration[]> {
  readonly #core: MockCore;
  readonly #served: Served;
  #closing: Promise<void> | undefined;
  #unmatchedReported = false;
  /** A mock started from a definition goes back to its stubs on reset(). */
  #baseline: Baseline | undefined;
  /** The stubs `baseline()` took, which `reset({ keepBaseline: true })` keeps. */
  readonly #kept = new StubBaseline();

  private constructor(core: MockCore, served: Served) {
    this.#core = core;
    this.#served = served;
  }

  /**
   * The MCP endpoint: `http://127.0.0.1:<port>/mcp`. A mock started with `transport: "none"`
   * has none (no port is open): it throws, and says to connect with {@link McpMock.clientTransport}.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * await using mock = await McpMock.start();
   * console.log(mock.url); // http://127.0.0.1:53211/mcp
   * ```
   */
  get url(): string {
    const url = this.#served.url;
    if (url === undefined) {
      throw new McpMockError(
        `mock.url: this mock was started with transport: "none", so it listens on no port and has no URL. ` +
          `Connect a client in memory instead: await client.connect(mock.clientTransport()); or start it without transport: "none" to get an HTTP URL.`,
      );
    }
    return url;
  }

  /**
   * A new SDK `Transport` connected to this mock in memory, with no socket (it works with
   * `transport: "none"`, and beside HTTP too). Each call is a new connection, and a new session
   * at `initialize`; messages cross as copies, one microtask later, as through a pipe.
   * `close()` of the mock closes every one (the client's `onclose`). Journal entries say
   * `transport: "memory"`.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
   *
   * await using mock = await McpMock.start({ transport: "none", tools: [{ name: "echo", inputSchema: { type: "object" } }] });
   * mock.toolsCall("echo").respondsWith("hi");
   * const client = new Client({ name: "test", version: "1.0.0" });
   * await client.connect(mock.clientTransport());
   * await client.callTool({ name: "echo", arguments: {} }); // { content: [{ type: "text", text: "hi" }] }
   * ```
   */
  clientTransport(): Transport {
    if (this.#closing) throw new McpMockError("clientTransport(): this mock is closed; start a new one.");
    return this.#served.clientTransport();
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
    assertValidOptions(options);
    const core = new MockCore(options);
    const served = await Served.start(core, options as McpMockOptions);
    const mock = new McpMock<T>(core, served);
    const admin = typeof options.admin === "object" ? options.admin : {};
    // The admin API's verify() reports point at its own routes, not at mock.requests().
    const verify = (pattern: StubBuilder, count?: CountExpectation): JournalEntry[] => verifyRequests(core, pattern, count, "admin");
    if (options.admin) served.http?.mountAdmin(adminApp(mock as McpMock, admin.remote === true, options.allowedOrigins, admin.token, inspectorSource(core), verify));
    return mock;
  }

  /**
   * @internal Serves this mock over stdio (newline-delimited JSON-RPC); for a mock started
   * with `transport: "none"`. Resolves when the input closes.
   */
  serveStdio(io: StdioStreams, onCrash: () => void = () => undefined): Promise<void> {
    return this.#served.serveStdio(io, onCrash);
  }

  /**
   * Starts a mock from a definition: a JSON file's path, or the object itself (one imported
   * with `with { type: "json" }` too). The file is checked first, and a mistake is reported
   * with the file, the JSON path, what was expected and an example. Options given here win
   * over the file's `options`. Typed from an `as const` definition's tools, or from a tools
   * tuple given as the type argument: `McpMock.fromDefinition<typeof tools>(definition)`.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * await using mock = await McpMock.fromDefinition("examples/weather.mock.json");
   * await using inline = await McpMock.fromDefinition({
   *   tools: [{ name: "add" }],
   *   responses: [{ tool: "add", args: { a: 1 }, result: { sum: 1 } }],
   * });
   * ```
   */
  static async fromDefinition<const T extends readonly ToolDeclaration[] = readonly ToolDeclaration[]>(
    fileOrObject: string | MockDefinition | DefinitionInput<T>,
    options: McpMockOptions = {},
  ): Promise<McpMock<T>> {
    const { definition, source } = loadDefinition(fileOrObject as string | MockDefinition);
    const mock = await McpMock.start({ ...definitionOptions(definition), ...options });
    try {
      const ids = applyDefinition(mock as McpMock, definition, source, false);
      (mock as McpMock).#baseline = { definition, source, ids };
    } catch (error) {
      await mock.close();
      throw error;
    }
    return mock as unknown as McpMock<T>;
  }

  /**
   * @internal For `mcpmock serve --watch`: reads the definition file again and moves this mock
   * to it (changed declarations announced with `list_changed`; the journal, sessions and
   * stubs from code or the admin API stay). A file with mistakes throws them all, and the
   * mock keeps serving the definition it had.
   */
  reloadDefinition(file: string): ReloadChanges {
    return reloadFile(this, file, this.#baseline, (next) => (this.#baseline = next));
  }

  /**
   * The SSE endpoint of the 2024-11-05 HTTP+SSE transport, served beside {@link url} unless
   * `legacySse: false`: for clients that speak the old wire or fall back to it.
   *
   * @example
   * ```ts
   * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
   * import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
   * await using mock = await McpMock.start();
   * console.log(mock.sseUrl); // "http://127.0.0.1:PORT/sse"
   * const client = new Client({ name: "test", version: "1.0.0" });
   * await client.connect(new SSEClientTransport(new URL(mock.sseUrl)));
   * ```
   */
  get sseUrl(): string {
    return this.#served.sseUrl();
  }

  /**
   * Authorization mocking, for a mock started with `auth`: issue tokens without the flow,
   * expire or revoke them mid-test, change the required scopes (step-up), and read what the
   * gate and the authorization server answered. Without `auth` it throws, naming the option.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * await using mock = await McpMock.start({ auth: { scopes: ["read", "write"], required: ["read"] } });
   * const token = mock.auth.issueToken({ scopes: ["read"] });
   * // fetch(mock.url, { method: "POST", headers: { authorization: `Bearer ${token}`, ... }, body })
   * ```
   */
  get auth(): MockAuth { return this.#served.auth; }

  /** The port the mock listens on (0 with `transport: "none"`: no port is open). */
  get port(): number {
    return this.#served.port;
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
      await this.#served.close();
    })();
    const closed = this.#closing;
    if (this.#unmatchedReported || this.#core.options.onUnmatched !== "error") return closed;
    // With onUnmatched: "error", the first close() also fails the test on unmatched requests.
    this.#unmatchedReported = true;
    return closed.then(() => this.assertNoUnmatched());
  }

  /**
   * `await using mock = await McpMock.start()` closes the mock at the end of the scope.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * {
   *   await using mock = await McpMock.start();
   *   // ... point a client at mock.url ...
   * } // closed here, as by close()
   * ```
   */
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
    this.#core.push.listChanged("tools");
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
    const removed = this.#core.tools.remove(name);
    if (removed) this.#core.push.listChanged("tools");
    return removed;
  }

  /**
   * Declares a resource or a resource template while the mock runs; clients with an open GET
   * stream get `notifications/resources/list_changed`.
   *
   * @example
   * ```ts
   * mock.declareResource({ uri: "test://new", name: "new", text: "fresh" });
   * mock.declareResource({ uriTemplate: "test://items/{id}", name: "item" });
   * ```
   */
  declareResource(resource: AnyResourceDeclaration): void {
    this.#core.resources.declare(resource, "declareResource(...)");
    this.#core.push.listChanged("resources");
  }

  /**
   * Removes a declared resource (by URI) or template (by its template text).
   *
   * @example
   * ```ts
   * mock.removeResource("test://new");
   * ```
   */
  removeResource(uriOrTemplate: string): boolean {
    const removed = this.#core.resources.remove(uriOrTemplate);
    if (removed) this.#core.push.listChanged("resources");
    return removed;
  }

  /**
   * Declares a prompt while the mock runs; clients with an open GET stream get
   * `notifications/prompts/list_changed`.
   *
   * @example
   * ```ts
   * mock.declarePrompt({ name: "summarize", arguments: [{ name: "text", required: true }] });
   * ```
   */
  declarePrompt(prompt: PromptDeclaration): void {
    this.#core.prompts.declare(prompt, `declarePrompt(${JSON.stringify(prompt?.name)})`);
    this.#core.push.listChanged("prompts");
  }

  /**
   * Removes a declared prompt and its stubs.
   *
   * @example
   * ```ts
   * mock.removePrompt("summarize");
   * ```
   */
  removePrompt(name: string): boolean {
    this.#core.registry.removeWhere((s) => s.method === "prompts/get" && s.key === name);
    const removed = this.#core.prompts.remove(name);
    if (removed) this.#core.push.listChanged("prompts");
    return removed;
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
    return toolsCallOn(this.#core, name);
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
    return initializeOn(this.#core);
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
    return new RequestBuilder(entryDraft("ping"), this.#core);
  }

  /**
   * Stubs `tasks/get` of one task (by id) or of any (answered from the mock's tasks by default).
   *
   * @example
   * ```ts
   * mock.tasksGet("task-9").respondsWithError(-32602, "Failed to retrieve task: Task not found");
   * ```
   */
  tasksGet(taskId?: string): RequestBuilder<Record<string, unknown>> { return new RequestBuilder(taskDraft("tasks/get", taskId), this.#core); }

  /**
   * Stubs `tasks/result` of one task or of any (by default it waits for the task's end and
   * answers what its request answered).
   *
   * @example
   * ```ts
   * mock.tasksResult("task-9").respondsWith({ content: [] });
   * ```
   */
  tasksResult(taskId?: string): RequestBuilder<Record<string, unknown>> { return new RequestBuilder(taskDraft("tasks/result", taskId), this.#core); }

  /**
   * Stubs `tasks/list` (the live tasks by default).
   *
   * @example
   * ```ts
   * mock.tasksList().respondsWith({ tasks: [] });
   * ```
   */
  tasksList(): RequestBuilder<Record<string, unknown>> { return new RequestBuilder(entryDraft("tasks/list"), this.#core); }

  /**
   * Stubs `tasks/cancel` of one task or of any (by default it cancels a running task).
   *
   * @example
   * ```ts
   * mock.tasksCancel().respondsWithError(-32602, "Cannot cancel task: already in terminal status 'completed'");
   * ```
   */
  tasksCancel(taskId?: string): RequestBuilder<Record<string, unknown>> { return new RequestBuilder(taskDraft("tasks/cancel", taskId), this.#core); }

  /**
   * Stubs `tools/list` (answered from the declarations by default).
   *
   * @example
   * ```ts
   * mock.toolsList().respondsWith({ tools: [] });
   * ```
   */
  toolsList(): RequestBuilder<Record<string, unknown>> {
    return new RequestBuilder(entryDraft("tools/list"), this.#core);
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
    return new RequestBuilder(entryDraft("resources/list"), this.#core);
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
    return new RequestBuilder(entryDraft("resources/templates/list"), this.#core);
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
    return new RequestBuilder(entryDraft("prompts/list"), this.#core);
  }

  /**
   * Stubs `resources/read`: for one URI, for the URIs a template (RFC 6570) matches, for
   * the URIs a predicate accepts, or (without an argument) for any URI.
   *
   * @example
   * ```ts
   * mock.resourcesRead("test://hello").respondsWith({ text: "Hello, world" });
   * mock.resourcesRead("test://items/{id}").respondsWith((call) => ({ text: `item ${call.variables.id}` }));
   * ```
   */
  resourcesRead(uri?: string | ((uri: string) => boolean)): ResourceReadBuilder {
    return new ResourceReadBuilder(readDraft(uri), this.#core);
  }

  /**
   * Stubs `resources/subscribe` (answered `{}` by default), for one URI or any.
   *
   * @example
   * ```ts
   * mock.resourcesSubscribe("test://hello").respondsWithError(-32602, "not subscribable");
   * ```
   */
  resourcesSubscribe(uri?: string): RequestBuilder<Record<string, unknown>> {
    return new RequestBuilder(entryDraft("resources/subscribe", uri), this.#core);
  }

  /**
   * Stubs `resources/unsubscribe` (answered `{}` by default), for one URI or any.
   *
   * @example
   * ```ts
   * mock.resourcesUnsubscribe().respondsWith({});
   * ```
   */
  resourcesUnsubscribe(uri?: string): RequestBuilder<Record<string, unknown>> {
    return new RequestBuilder(entryDraft("resources/unsubscribe", uri), this.#core);
  }

  /**
   * Stubs `prompts/get`, for one declared prompt or (without a name) for any.
   *
   * @example
   * ```ts
   * mock.promptsGet("greet").withArgs({ name: "Ada" }).respondsWith("Hello, Ada");
   * ```
   */
  promptsGet(name?: string): PromptGetBuilder {
    return promptsGetOn(this.#core, name);
  }

  /**
   * Stubs `server/discover` (2026-07-28), answered by default with the stateless versions the
   * mock accepts, the capabilities it serves and `serverInfo` in `_meta`; a partial result
   * replaces the default one (the era adds `resultType`, `ttlMs` and `cacheScope`).
   *
   * @example
   * ```ts
   * mock.serverDiscover().respondsWithError(-32603, "discovery is down");
   * ```
   */
  serverDiscover(): RequestBuilder<Record<string, never>> {
    return new RequestBuilder(entryDraft("server/discover"), this.#core);
  }

  /**
   * Stubs `subscriptions/listen` (2026-07-28): refuse the subscription
   * (`respondsWithError`, `respondsWithStatus`), or script its stream after the
   * acknowledgement (`streams`). Without a stub the stream opens and carries what its filter
   * lets through.
   *
   * @example
   * ```ts
   * mock.subscriptionsListen().respondsWithError(-32603, "Subscription limit reached");
   * ```
   */
  subscriptionsListen(): RequestBuilder<Record<string, unknown>> {
    return new RequestBuilder(entryDraft("subscriptions/listen"), this.#core);
  }

  /**
   * Stubs `completion/complete` (answered with no values by default).
   *
   * @example
   * ```ts
   * mock.completionComplete().forPrompt("greet").withArgument("name").respondsWith(["Ada", "Alan"]);
   * ```
   */
  completionComplete(): CompletionBuilder {
    return completionCompleteOn(this.#core);
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
    return new RequestBuilder(entryDraft("logging/setLevel"), this.#core);
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
    return methodOn(this.#core, name, written);
  }

  /**
   * Scripts the GET stream a client opens for server-initiated messages (per session with
   * `withSessionId`): notifications and requests, played when the stream opens.
   *
   * @example
   * ```ts
   * mock.openStream().sends((s) => s.delay(100).notify("notifications/tools/list_changed"));
   * ```
   */
  openStream(): OpenStreamBuilder {
    return openStreamOn(this.#core);
  }

  /**
   * Pushes a notification on the GET streams: of one session, or of every session with an
   * open stream. Waits up to `timeout` ms (1000) for a stream to open, since clients open it
   * just after initializing; resolves with the sessions it reached. Without `sessionId` it also
   * reaches the 2026-07-28 `subscriptions/listen` streams whose filter lets it through (named
   * `subscription:<id>` in the result), and then waits for no session.
   *
   * @example
   * ```ts
   * await mock.notify("notifications/message", { level: "info", data: "hello" });
   * await mock.notify("notifications/resources/updated", { uri: "test://x" }, { sessionId: "session-1" });
   * ```
   */
  async notify(method: string, params?: Record<string, unknown>, options: { sessionId?: string; timeout?: number } = {}): Promise<string[]> {
    if (typeof method !== "string" || method === "") throw new McpMockError(`notify takes a method name, like "notifications/message".`);
    if (params !== undefined) assertJsonCarriable(params, `notify(${JSON.stringify(method)}, ...)`, "params");
    return this.#core.push.notify(method, params, options.sessionId, options.timeout ?? 1000);
  }

  /**
   * Sends a server-to-client request (`roots/list`, `sampling/createMessage`,
   * `elicitation/create`, ...) on a session's GET stream and resolves with the client's
   * result; rejects on a JSON-RPC error, on timeout, or at once when the client did not
   * declare the capability the request needs. Without `sessionId`, the only session.
   *
   * @example
   * ```ts
   * const { roots } = (await mock.request("roots/list")) as { roots: Array<{ uri: string }> };
   * ```
   */
  async request(method: string, params?: Record<string, unknown>, options: { sessionId?: string; timeout?: number } = {}): Promise<unknown> {
    if (typeof method !== "string" || method === "") throw new McpMockError(`request takes a method name, like "roots/list".`);
    if (params !== undefined) assertJsonCarriable(params, `request(${JSON.stringify(method)}, ...)`, "params");
    return this.#core.push.ask(method, params, options.sessionId, options.timeout);
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
    return new DeleteSessionBuilder(entryDraft(HTTP_DELETE), this.#core);
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
   * Every stub as data for listings: id, sentence, calls answered.
   *
   * @example
   * ```ts
   * for (const stub of mock.stubs()) console.log(stub.id, stub.sentence, stub.calls);
   * ```
   */
  stubs(): Array<{
    /** The stub's id, for `removeStub` (built-in answers have ids like `default:ping`). */
    id: string;
    /** What the stub matches and answers, in one sentence (as in `explain()`). */
    sentence: string;
    /** How many calls it has answered. */
    calls: number;
    /** Where it was written: `"dsl"` (code), `"default"` (a built-in answer), or a definition file and JSON path. */
    source: string;
  }> {
    return this.#core.registry.all().map((e) => ({
      id: e.stub.id,
      sentence: stubSentence(e.stub, e.hits),
      calls: e.hits,
      source: typeof e.stub.source === "object" ? `${e.stub.source.file} ${e.stub.source.path}` : e.stub.source,
    }));
  }

  /**
   * Removes one stub by id (built-in answers cannot be removed; override them instead).
   *
   * @example
   * ```ts
   * const stub = mock.toolsCall("add").respondsWith({ sum: 3 });
   * mock.removeStub(stub.id);
   * ```
   */
  removeStub(id: string): boolean {
    if (id.startsWith("default:")) return false;
    return this.#core.registry.remove(id);
  }

  /**
   * Removes every stub (the built-in answers stay), clears the journal and puts every
   * scenario back to `"Started"`. A mock started from a definition gets the definition's
   * stubs back. Sessions stay open. With `auth`, the auth events are cleared and the required
   * scopes are the configured ones again; issued tokens stay valid. With
   * `{ keepBaseline: true }`, the stubs {@link McpMock.baseline} took are put back (counted
   * from 0); a plain `reset()` drops them and the baseline.
   *
   * @example
   * ```ts
   * afterEach(() => mock.reset());
   * afterEach(() => mock.reset({ keepBaseline: true })); // after mock.baseline() in beforeAll
   * ```
   */
  reset(options: { keepBaseline?: boolean } = {}): void {
    this.#core.resetStubs();
    this.#core.journal.clear();
    this.#core.resetScenarios();
    this.#core.reseed();
    this.#core.journal.missesExpected = false;
    this.#served.http?.auth?.reset();
    if (this.#baseline) reapplyDefinition(this, this.#baseline, this.#core.registry);
    if (options.keepBaseline === true) this.#kept.restore(this.#core.registry);
    else this.#kept.clear();
  }

  /**
   * Marks the stubs set so far (in `beforeAll`, say) as the baseline, like MSW's initial
   * handlers: `reset({ keepBaseline: true })` after each test keeps them, with fresh counts,
   * and removes the test's own. A definition's stubs are put back by every `reset()` anyway.
   * Calling it again takes the stubs as they are then. Returns the baseline's stub ids.
   *
   * @example
   * ```ts
   * beforeAll(() => {
   *   mock.toolsCall("weather").respondsWith("sunny");
   *   mock.baseline();
   * });
   * afterEach(() => mock.reset({ keepBaseline: true }));
   * ```
   */
  baseline(): string[] {
    return this.#kept.take(this.#core.registry, new Set(this.#baseline?.ids ?? []));
  }

  /**
   * The names of the declared tools.
   *
   * @example
   * ```ts
   * console.log(mock.toolNames()); // ["add", "get_weather"]
   * ```
   */
  toolNames(): string[] {
    return this.#core.tools.names();
  }

  /**
   * Clears the journal only; stubs and their counts stay.
   *
   * @example
   * ```ts
   * mock.resetJournal();
   * mock.verify(toolsCall("add"), never());
   * ```
   */
  resetJournal(): void {
    this.#core.journal.clear();
  }

  /**
   * Checks how often requests matching a pattern arrived: at least once by default, exactly
   * `n` for a number, or a count helper (`exactly`, `atLeast`, `atMost`, `never`). Throws a
   * {@link VerificationError} that shows the closest requests field by field; returns the
   * matching journal entries.
   *
   * @example
   * ```ts
   * import { toolsCall, atLeast } from "mcpmock";
   * mock.verify(toolsCall("add").withArgs({ a: 1, b: 2 }));
   * mock.verify(toolsCall("add"), 2);
   * mock.verify(toolsCall("add"), atLeast(1));
   * ```
   */
  verify(pattern: StubBuilder, count?: number | CountExpectation): JournalEntry[] {
    return verifyRequests(this.#core, pattern, count);
  }

  /**
   * The journal entries a pattern matches, oldest first.
   *
   * @example
   * ```ts
   * const calls = mock.findRequests(toolsCall("add"));
   * console.log(calls.map((e) => e.params));
   * ```
   */
  findRequests(pattern: StubBuilder): JournalEntry[] {
    return findRequests(this.#core, pattern);
  }

  /**
   * Every message received and kept (requests, notifications, client responses), oldest first.
   * An answered entry is kept packed outside the heap; the first read makes it an object again
   * (equal to the entry as answered, not the object a listener or `waitFor()` had).
   *
   * @example
   * ```ts
   * for (const entry of mock.requests()) console.log(entry.seq, entry.method, entry.stubId);
   * ```
   */
  requests(): JournalEntry[] {
    return this.#core.journal.entries();
  }

  /**
   * Resolves with the first request matching a pattern, already received or arriving within
   * `timeout` ms (default 1000); rejects with the near misses otherwise.
   *
   * @example
   * ```ts
   * const entry = await mock.waitFor(toolsCall("add"), { timeout: 2000 });
   * console.log(entry.params);
   * ```
   */
  waitFor(pattern: StubBuilder, options: { timeout?: number } = {}): Promise<JournalEntry> {
    return waitForRequest(this.#core, pattern, options);
  }

  /**
   * Checks that requests matching the patterns arrived in this order (others may come between).
   *
   * @example
   * ```ts
   * mock.verifyInOrder(toolsList(), toolsCall("add"));
   * ```
   */
  verifyInOrder(...patterns: StubBuilder[]): JournalEntry[] {
    return verifyRequestsInOrder(this.#core, patterns);
  }

  /**
   * The requests no stub answered (they got the mock's miss answer).
   *
   * @example
   * ```ts
   * console.log(mock.unmatched().map((e) => e.missReport).join("\n\n"));
   * ```
   */
  unmatched(): JournalEntry[] {
    return unmatchedRequests(this.#core);
  }

  /**
   * Throws if any request matched no stub, with each one's report.
   *
   * @example
   * ```ts
   * afterEach(() => mock.assertNoUnmatched());
   * ```
   */
  assertNoUnmatched(): void {
    assertNoUnmatched(this.#core);
  }

  /**
   * Says that this test expects requests no stub answers: until `reset()`, misses are not
   * reported (`onUnmatched`), `assertNoUnmatched()` passes, and `mcpTest` (`mcpmock/vitest`)
   * does not fail the test for them. The clients still get the miss answers.
   *
   * @example
   * ```ts
   * mock.allowUnmatched(); // this test calls a tool that is not stubbed, on purpose
   * ```
   */
  allowUnmatched(): void {
    allowUnmatched(this.#core);
  }

  /**
   * Throws if a stub was never called (or fewer than its `times(n)`), like nock's
   * `isDone()`. Stubs marked `optional()` and the built-in answers are skipped.
   *
   * @example
   * ```ts
   * afterEach(() => mock.assertAllStubsUsed());
   * ```
   */
  assertAllStubsUsed(): void {
    assertAllStubsUsed(this.#core);
  }

  /**
   * The open sessions: what each client declared at initialize, the version negotiated, and
   * the log level it set.
   *
   * @example
   * ```ts
   * const [session] = mock.sessions();
   * console.log(session?.clientInfo, session?.clientCapabilities, session?.logLevel);
   * ```
   */
  sessions(): SessionInfo[] {
    return this.#core.sessions.all().map((s) => ({
      id: s.id,
      protocolVersion: s.protocolVersion,
      clientInfo: s.clientInfo,
      clientCapabilities: s.clientCapabilities,
      logLevel: s.logLevel,
      initialized: s.initialized,
      streamOpen: s.stream?.attached === true,
      resumableBytes: s.streams.bytes,
    }));
  }

  /**
   * A scenario's state, to read, set or reset (WireMock's state machine).
   *
   * @example
   * ```ts
   * mock.toolsCall("cart").inScenario("checkout").whenState("Started").willSetState("Paid").respondsWith("ok");
   * console.log(mock.scenario("checkout").state); // "Started"
   * mock.scenario("checkout").set("Paid");
   * mock.scenario("checkout").reset();
   * ```
   */
  scenario(name: string): ScenarioHandle {
    const core = this.#core;
    return {
      name,
      get state() {
        return core.scenarioState(name);
      },
      set: (state: string) => core.setScenarioState(name, state),
      reset: () => core.resetScenarios(name),
    };
  }
}
