/**
 * McpMock: the entry points of the stubbing DSL, declarations, and the server's lifetime.
 * @module
 */
import type { AppDeclaration } from "./stubs/app-catalog.js";
import type { SkillDeclaration } from "./stubs/skill-catalog.js";
import type { AppEvent } from "./journal/app-events.js";
import { verifyAppEvents, waitForAppEvent, type AppEventPattern } from "./journal/app-event-checks.js";
import type { StubBuilder } from "./dsl/stub-builder.js";
import { CompletionBuilder, DeleteSessionBuilder, OpenStreamBuilder, InitializeBuilder, PromptGetBuilder, RequestBuilder, ResourceReadBuilder, ToolCallBuilder } from "./dsl/method-builders.js";
import type { JournalEntry } from "./journal/entry.js";
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
import { MockOperations } from "./engine/operations.js";
import type { MockEntryPoints } from "./dsl/mock-entry-points.js";
import type { MockControl } from "./dsl/mock-control.js";
import { explainStubs, listStubs, type StubListing } from "./journal/stub-views.js";
import { assertValidOptions, type McpMockOptions } from "./options.js";
import type { StdioStreams } from "./transports/stdio.js";
import { Served, type MockAuth } from "./served.js";
import type { AnyValue } from "./values/any.js";
import { snapshotOf, type SnapshotOptions } from "./recording/snapshot.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { adminFor } from "./admin/admin-api.js";
import { reloadFile, type Baseline, type ReloadChanges } from "./definition/reload.js";
import { HTTP_DELETE } from "./protocol/entry-points.js";
import type { ToolArgs, ToolName, ToolPayload } from "./dsl/typed.js";
import { scenarioHandle, sessionInfos, type ScenarioHandle, type SessionInfo } from "./engine/views.js";

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
export class McpMock<Tools extends readonly ToolDeclaration[] = readonly ToolDeclaration[]> implements MockEntryPoints, MockControl {
  readonly #core: MockCore;
  readonly #served: Served;
  readonly #ops: MockOperations;
  #closing: Promise<void> | undefined;
  #unmatchedReported = false;
  /** A mock started from a definition goes back to its stubs on reset(). */
  #baseline: Baseline | undefined;
  /** The stubs `baseline()` took, which `reset({ keepBaseline: true })` keeps. */
  readonly #kept = new StubBaseline();

  private constructor(core: MockCore, served: Served) {
    this.#core = core;
    this.#served = served;
    this.#ops = new MockOperations(core);
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
    return this.#served.endpointUrl();
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
    // Proxy mode's code (and the SDK client it runs on) loads only for a mock that proxies.
    const upstream = options.proxy === undefined ? undefined : await (await import("./upstream/upstream.js")).startUpstream(options);
    const core = new MockCore(options, upstream);
    const served = await Served.start(core, options as McpMockOptions).catch(async (error: unknown) => {
      await upstream?.close(); // a port in use, say: the upstream's child processes end too
      throw error;
    });
    const mock = new McpMock<T>(core, served);
    const admin = adminFor(mock as McpMock, core, options as McpMockOptions, (request) => mock.snapshot(request));
    if (admin) served.http?.mountAdmin(admin);
    return mock;
  }

  /**
   * @internal Serves this mock over stdio (newline-delimited JSON-RPC); for a mock started
   * with `transport: "none"`. Resolves when the input closes; then it may serve stdio again.
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
    const { definition, source } = loadDefinition(fileOrObject as string | MockDefinition, { proxied: options.proxy !== undefined });
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
    return reloadFile(this, file, this.#baseline, (next) => (this.#baseline = next), { proxied: this.#core.proxied !== undefined });
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
      await this.#core.proxied?.close();
    })();
    const closed = this.#closing;
    if (this.#unmatchedReported || this.#core.options.onUnmatched !== "error") return closed;
    // With onUnmatched: "error", the first close() also fails the test on unmatched requests.
    this.#unmatchedReported = true;
    return closed.then(() => this.assertNoUnmatched());
  }

  /**
   * Proxy mode: what the upstream answered so far, as a definition (the recorder's writer:
   * `redact` and `ignore` take JSON Pointers as `mcpmock record --redact/--ignore` does),
   * which replays without the upstream. Upstream credentials never reach it.
   *
   * @example
   * ```ts
   * import { writeFileSync } from "node:fs";
   * const definition = mock.snapshot({ ignore: ["/arguments/timestamp"] });
   * writeFileSync("real-server.mock.json", JSON.stringify(definition, null, 2));
   * await using replay = await McpMock.fromDefinition(definition);
   * ```
   */
  snapshot(options: SnapshotOptions = {}): MockDefinition {
    return snapshotOf(this.#core.journal.entries(), this.#core.journal.shown(this.#core.proxied?.upstreamInfo()), options);
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

  declareTool(tool: ToolDeclaration): void {
    this.#ops.declareTool(tool);
  }

  removeTool(name: string): boolean {
    return this.#ops.removeTool(name);
  }

  declareResource(resource: AnyResourceDeclaration): void {
    this.#ops.declareResource(resource);
  }

  removeResource(uriOrTemplate: string): boolean {
    return this.#ops.removeResource(uriOrTemplate);
  }

  declareApp(app: AppDeclaration): void {
    this.#ops.declareApp(app);
  }

  declareSkill(skill: SkillDeclaration): void {
    this.#ops.declareSkill(skill);
  }

  /**
   * What the probe views saw pass between a host and themselves, oldest first (bounded by
   * bytes: the oldest go first). See {@link AppEvent}.
   *
   * @example
   * ```ts
   * const methods = mock.appEvents().map((e) => `${e.from} ${e.method}`);
   * ```
   */
  appEvents(): AppEvent[] {
    return this.#core.apps.events.all();
  }

  /**
   * Checks that app events fitting the patterns arrived in this order (others may come
   * between); with `times`, that each fits exactly that many. Throws a report that says which
   * event was missing or out of order, and lists the events that did arrive.
   *
   * @example
   * ```ts
   * import { appEvent } from "mcpmock";
   * mock.verifyAppEvents([
   *   appEvent("ui/initialize", { from: "host", answer: true }),
   *   appEvent("ui/notifications/tool-input", { from: "host" }),
   *   appEvent("ui/notifications/tool-result", { from: "host" }),
   * ]);
   * mock.verifyAppEvents([appEvent("ui/notifications/tool-result", { from: "host" })], { times: 1 });
   * ```
   */
  verifyAppEvents(patterns: readonly AppEventPattern[], options: { times?: number } = {}): void {
    verifyAppEvents(this.#core.apps.events.all(), patterns, options);
  }

  /**
   * Resolves with the first app event fitting the pattern, already received or arriving
   * within `timeout` ms (default 1000); rejects with the events that did arrive.
   *
   * @example
   * ```ts
   * import { appEvent } from "mcpmock";
   * const teardown = await mock.waitForAppEvent(appEvent("ui/resource-teardown", { from: "host" }), { timeout: 5000 });
   * ```
   */
  waitForAppEvent(pattern: AppEventPattern, options: { timeout?: number } = {}): Promise<AppEvent> {
    return waitForAppEvent(this.#core.apps.events, pattern, options);
  }

  declarePrompt(prompt: PromptDeclaration): void {
    this.#ops.declarePrompt(prompt);
  }

  removePrompt(name: string): boolean {
    return this.#ops.removePrompt(name);
  }

  declareExtension(id: string, settings: Readonly<Record<string, unknown>> = {}): void {
    this.#ops.declareExtension(id, settings);
  }

  /**
   * Sends `notifications/elicitation/complete` (SEP-1036) for a URL elicitation the mock sent
   * (`elicitUrl` in a stream, or `mock.request`), on the session's GET stream; resolves with
   * the sessions it reached. An id the mock never sent is refused with the ids it did.
   *
   * @example
   * ```ts
   * await mock.completeElicitation("login-1", { sessionId: "session-1" });
   * ```
   */
  completeElicitation(elicitationId: string, options: { sessionId?: string; timeout?: number } = {}): Promise<string[]> {
    return this.#ops.completeElicitation(elicitationId, options);
  }

  /**
   * Stubs `tools/call`, for one declared tool or (without a name) for any tool.
   *
   * @example
   * ```ts
   * mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
   * mock.toolsCall().respondsWith("any tool, any arguments");
   * mock.toolsCall(ANY).withDelay({ min: 50, max: 500 }).proxies(); // the same: any tool
   * ```
   */
  toolsCall(name?: AnyValue): ToolCallBuilder;
  toolsCall<N extends ToolName<Tools>>(name: N): ToolCallBuilder<ToolArgs<Tools, N>, ToolPayload<Tools, N>>;
  toolsCall(name?: string | AnyValue): ToolCallBuilder<any, any> { // eslint-disable-line @typescript-eslint/no-explicit-any
    return toolsCallOn(this.#core, name);
  }

  initialize(): InitializeBuilder {
    return initializeOn(this.#core);
  }

  ping(): RequestBuilder<Record<string, never>> {
    return new RequestBuilder(entryDraft("ping"), this.#core);
  }

  tasksGet(taskId?: string): RequestBuilder<Record<string, unknown>> { return new RequestBuilder(taskDraft("tasks/get", taskId), this.#core); }

  tasksResult(taskId?: string): RequestBuilder<Record<string, unknown>> { return new RequestBuilder(taskDraft("tasks/result", taskId), this.#core); }

  tasksList(): RequestBuilder<Record<string, unknown>> { return new RequestBuilder(entryDraft("tasks/list"), this.#core); }

  tasksCancel(taskId?: string): RequestBuilder<Record<string, unknown>> { return new RequestBuilder(taskDraft("tasks/cancel", taskId), this.#core); }

  toolsList(): RequestBuilder<Record<string, unknown>> {
    return new RequestBuilder(entryDraft("tools/list"), this.#core);
  }

  resourcesList(): RequestBuilder<Record<string, unknown>> {
    return new RequestBuilder(entryDraft("resources/list"), this.#core);
  }

  resourcesTemplatesList(): RequestBuilder<Record<string, unknown>> {
    return new RequestBuilder(entryDraft("resources/templates/list"), this.#core);
  }

  promptsList(): RequestBuilder<Record<string, unknown>> {
    return new RequestBuilder(entryDraft("prompts/list"), this.#core);
  }

  resourcesRead(uri?: string | ((uri: string) => boolean)): ResourceReadBuilder {
    return new ResourceReadBuilder(readDraft(uri), this.#core);
  }

  resourcesSubscribe(uri?: string): RequestBuilder<Record<string, unknown>> {
    return new RequestBuilder(entryDraft("resources/subscribe", uri), this.#core);
  }

  resourcesUnsubscribe(uri?: string): RequestBuilder<Record<string, unknown>> {
    return new RequestBuilder(entryDraft("resources/unsubscribe", uri), this.#core);
  }

  promptsGet(name?: string): PromptGetBuilder {
    return promptsGetOn(this.#core, name);
  }

  serverDiscover(): RequestBuilder<Record<string, never>> {
    return new RequestBuilder(entryDraft("server/discover"), this.#core);
  }

  subscriptionsListen(): RequestBuilder<Record<string, unknown>> {
    return new RequestBuilder(entryDraft("subscriptions/listen"), this.#core);
  }

  completionComplete(): CompletionBuilder {
    return completionCompleteOn(this.#core);
  }

  loggingSetLevel(): RequestBuilder<Record<string, unknown>> {
    return new RequestBuilder(entryDraft("logging/setLevel"), this.#core);
  }

  method(name: string, written = `method(${JSON.stringify(name)})`): RequestBuilder<Record<string, unknown>> {
    return methodOn(this.#core, name, written);
  }

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
    return this.#ops.notify(method, params, options);
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
    return this.#ops.request(method, params, options);
  }

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
    return explainStubs(this.#core.registry);
  }

  /**
   * Every stub as data for listings: id, sentence, calls answered.
   *
   * @example
   * ```ts
   * for (const stub of mock.stubs()) console.log(stub.id, stub.sentence, stub.calls);
   * ```
   */
  stubs(): StubListing[] {
    return listStubs(this.#core.registry);
  }

  removeStub(id: string): boolean {
    return this.#ops.removeStub(id);
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
    this.#ops.reset();
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

  sessions(): SessionInfo[] {
    return sessionInfos(this.#core);
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
    return scenarioHandle(this.#core, name);
  }
}
