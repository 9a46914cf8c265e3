/**
 * The stub entry points of a mock, with their documentation written once: `McpMock`
 * implements this interface, so its members (one line of delegation each) show these
 * comments in editors and in the API reference. One entry point per MCP method that has
 * one (its descriptor's `entryPoint`, `protocol/methods/`); `test/methods.test.ts` checks them.
 * @module
 */
import type { CompletionBuilder, DeleteSessionBuilder, InitializeBuilder, OpenStreamBuilder, PromptGetBuilder, RequestBuilder, ResourceReadBuilder } from "./method-builders.js";

/**
 * Where a stub chain starts: one method per MCP method (`toolsCall`, typed by the declared
 * tools, is the facade's own).
 */
export interface MockEntryPoints {
  /**
   * Stubs `initialize`. A partial result is completed from the default answer.
   *
   * @example
   * ```ts
   * mock.initialize().respondsWith({ instructions: "Be brief" }, { sessionId: "s-1" });
   * ```
   */
  initialize(): InitializeBuilder;

  /**
   * Stubs `ping` (answered `{}` by default).
   *
   * @example
   * ```ts
   * mock.ping().withDelay(100).respondsWith({});
   * ```
   */
  ping(): RequestBuilder<Record<string, never>>;

  /**
   * Stubs `tasks/get` of one task (by id) or of any (answered from the mock's tasks by default).
   *
   * @example
   * ```ts
   * mock.tasksGet("task-9").respondsWithError(-32602, "Failed to retrieve task: Task not found");
   * ```
   */
  tasksGet(taskId?: string): RequestBuilder<Record<string, unknown>>;

  /**
   * Stubs `tasks/result` of one task or of any (by default it waits for the task's end and
   * answers what its request answered).
   *
   * @example
   * ```ts
   * mock.tasksResult("task-9").respondsWith({ content: [] });
   * ```
   */
  tasksResult(taskId?: string): RequestBuilder<Record<string, unknown>>;

  /**
   * Stubs `tasks/list` (the live tasks by default).
   *
   * @example
   * ```ts
   * mock.tasksList().respondsWith({ tasks: [] });
   * ```
   */
  tasksList(): RequestBuilder<Record<string, unknown>>;

  /**
   * Stubs `tasks/cancel` of one task or of any (by default it cancels a running task).
   *
   * @example
   * ```ts
   * mock.tasksCancel().respondsWithError(-32602, "Cannot cancel task: already in terminal status 'completed'");
   * ```
   */
  tasksCancel(taskId?: string): RequestBuilder<Record<string, unknown>>;

  /**
   * Stubs `tools/list` (answered from the declarations by default).
   *
   * @example
   * ```ts
   * mock.toolsList().respondsWith({ tools: [] });
   * ```
   */
  toolsList(): RequestBuilder<Record<string, unknown>>;

  /**
   * Stubs `resources/list`.
   *
   * @example
   * ```ts
   * mock.resourcesList().respondsWith({ resources: [{ uri: "test://a", name: "a" }] });
   * ```
   */
  resourcesList(): RequestBuilder<Record<string, unknown>>;

  /**
   * Stubs `resources/templates/list`.
   *
   * @example
   * ```ts
   * mock.resourcesTemplatesList().respondsWith({ resourceTemplates: [] });
   * ```
   */
  resourcesTemplatesList(): RequestBuilder<Record<string, unknown>>;

  /**
   * Stubs `prompts/list`.
   *
   * @example
   * ```ts
   * mock.promptsList().respondsWith({ prompts: [{ name: "greet" }] });
   * ```
   */
  promptsList(): RequestBuilder<Record<string, unknown>>;

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
  resourcesRead(uri?: string | ((uri: string) => boolean)): ResourceReadBuilder;

  /**
   * Stubs `resources/subscribe` (answered `{}` by default), for one URI or any.
   *
   * @example
   * ```ts
   * mock.resourcesSubscribe("test://hello").respondsWithError(-32602, "not subscribable");
   * ```
   */
  resourcesSubscribe(uri?: string): RequestBuilder<Record<string, unknown>>;

  /**
   * Stubs `resources/unsubscribe` (answered `{}` by default), for one URI or any.
   *
   * @example
   * ```ts
   * mock.resourcesUnsubscribe().respondsWith({});
   * ```
   */
  resourcesUnsubscribe(uri?: string): RequestBuilder<Record<string, unknown>>;

  /**
   * Stubs `prompts/get`, for one declared prompt or (without a name) for any.
   *
   * @example
   * ```ts
   * mock.promptsGet("greet").withArgs({ name: "Ada" }).respondsWith("Hello, Ada");
   * ```
   */
  promptsGet(name?: string): PromptGetBuilder;

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
  serverDiscover(): RequestBuilder<Record<string, never>>;

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
  subscriptionsListen(): RequestBuilder<Record<string, unknown>>;

  /**
   * Stubs `completion/complete` (answered with no values by default).
   *
   * @example
   * ```ts
   * mock.completionComplete().forPrompt("greet").withArgument("name").respondsWith(["Ada", "Alan"]);
   * ```
   */
  completionComplete(): CompletionBuilder;

  /**
   * Stubs `logging/setLevel`.
   *
   * @example
   * ```ts
   * mock.loggingSetLevel().respondsWith({});
   * ```
   */
  loggingSetLevel(): RequestBuilder<Record<string, unknown>>;

  /**
   * Stubs any JSON-RPC method, including ones MCP does not define.
   *
   * @example
   * ```ts
   * mock.method("custom/thing").withParams({ id: 7 }).respondsWith({ ok: true });
   * ```
   */
  method(name: string, written?: string): RequestBuilder<Record<string, unknown>>;

  /**
   * Scripts the GET stream a client opens for server-initiated messages (per session with
   * `withSessionId`): notifications and requests, played when the stream opens.
   *
   * @example
   * ```ts
   * mock.openStream().sends((s) => s.delay(100).notify("notifications/tools/list_changed"));
   * ```
   */
  openStream(): OpenStreamBuilder;

  /**
   * Stubs the HTTP DELETE that ends a session (default: 204, and the session ends).
   *
   * @example
   * ```ts
   * mock.deleteSession().respondsWithStatus(405);
   * ```
   */
  deleteSession(): DeleteSessionBuilder;
}
