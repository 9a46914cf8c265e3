/**
 * Patterns for verification, usable without a mock: the same entry points and narrowings as
 * stubs (`toolsCall("add").withArgs({ a: 1 })`), without a terminal.
 * @module
 */
import { draft } from "./stub-builder.js";
import { CompletionBuilder, DeleteSessionBuilder, InitializeBuilder, PromptGetBuilder, RequestBuilder, ResourceReadBuilder, ToolCallBuilder } from "./method-builders.js";
import { entryCall } from "../protocol/entry-points.js";
import { McpMockError } from "../values/errors.js";
import { uriMatchesTemplate, uriWhere } from "../stubs/matchers.js";
import { predicateProblem } from "../stubs/predicates.js";
import { compileTemplate, isUriTemplate } from "../stubs/resource-catalog.js";
import { HTTP_DELETE } from "../protocol/entry-points.js";
import type { StubDraft } from "./stub-builder.js";

/** @internal The draft of a chain started at a method's entry point, written as the user writes it. */
export function entryDraft(method: string, key?: string): StubDraft {
  return draft(method, entryCall(method, key), key);
}

/** @internal The draft of a `resources/read` chain: keyed by an exact URI, or matched by template or predicate. */
export function readDraft(uri: string | ((uri: string) => boolean) | undefined): StubDraft {
  if (uri === undefined) return entryDraft("resources/read");
  if (typeof uri === "function") {
    const problem = predicateProblem(uri, "resourcesRead");
    if (problem) throw new McpMockError(problem);
    const matcher = uriWhere(uri);
    return { ...draft("resources/read", "resourcesRead(predicate)"), matchers: [matcher] };
  }
  if (typeof uri !== "string" || uri === "") throw new McpMockError(`resourcesRead takes a URI, a URI template like "file:///{path}", or a predicate.`);
  if (!isUriTemplate(uri)) return entryDraft("resources/read", uri);
  const written = entryCall("resources/read", uri);
  return { ...draft("resources/read", written), matchers: [uriMatchesTemplate(uri, compileTemplate(uri, written))] };
}

/**
 * A pattern for `resources/read`: one URI, a URI template, a predicate, or any.
 *
 * @example
 * ```ts
 * import { resourcesRead } from "mcpmock";
 * mock.verify(resourcesRead("test://hello"));
 * ```
 * @category Verification
 */
export function resourcesRead(uri?: string | ((uri: string) => boolean)): ResourceReadBuilder {
  return new ResourceReadBuilder(readDraft(uri), undefined);
}

/**
 * A pattern for `prompts/get`.
 *
 * @example
 * ```ts
 * import { promptsGet } from "mcpmock";
 * mock.verify(promptsGet("greet").withArgs({ name: "Ada" }));
 * ```
 * @category Verification
 */
export function promptsGet(name?: string): PromptGetBuilder {
  return new PromptGetBuilder(entryDraft("prompts/get", name), undefined);
}

/**
 * A pattern for `completion/complete`.
 *
 * @example
 * ```ts
 * import { completionComplete } from "mcpmock";
 * mock.verify(completionComplete().forPrompt("greet"));
 * ```
 * @category Verification
 */
export function completionComplete(): CompletionBuilder {
  return new CompletionBuilder(entryDraft("completion/complete"), undefined);
}

/**
 * A pattern for `tools/call`, of one tool or (without a name) of any tool.
 *
 * @example
 * ```ts
 * import { toolsCall } from "mcpmock";
 * mock.verify(toolsCall("add").withArgs({ a: 1, b: 2 }));
 * ```
 * @category Verification
 */
export function toolsCall(name?: string): ToolCallBuilder {
  return new ToolCallBuilder(entryDraft("tools/call", name), undefined);
}

/**
 * A pattern for any JSON-RPC method.
 *
 * @example
 * ```ts
 * import { method } from "mcpmock";
 * mock.verify(method("notifications/initialized"));
 * ```
 * @category Verification
 */
export function method(name: string): RequestBuilder<Record<string, unknown>> {
  return new RequestBuilder(draft(name, `method(${JSON.stringify(name)})`), undefined);
}

/**
 * A pattern for `initialize`.
 *
 * @example
 * ```ts
 * import { initialize } from "mcpmock";
 * mock.verify(initialize().withBodyContaining('"sampling"'));
 * ```
 * @category Verification
 */
export function initialize(): InitializeBuilder {
  return new InitializeBuilder(entryDraft("initialize"), undefined);
}

/**
 * A pattern for `ping`.
 *
 * @example
 * ```ts
 * import { ping } from "mcpmock";
 * mock.verify(ping(), 0);
 * ```
 * @category Verification
 */
export function ping(): RequestBuilder<Record<string, never>> {
  return new RequestBuilder(entryDraft("ping"), undefined);
}

/**
 * A pattern for `server/discover` (2026-07-28).
 *
 * @example
 * ```ts
 * import { atLeast, serverDiscover } from "mcpmock";
 * mock.verify(serverDiscover(), atLeast(1));
 * ```
 * @category Verification
 */
export function serverDiscover(): RequestBuilder<Record<string, never>> {
  return new RequestBuilder(entryDraft("server/discover"), undefined);
}

/**
 * A pattern for `subscriptions/listen` (2026-07-28).
 *
 * @example
 * ```ts
 * import { subscriptionsListen } from "mcpmock";
 * mock.verify(subscriptionsListen().withParams({ notifications: { toolsListChanged: true } }));
 * ```
 * @category Verification
 */
export function subscriptionsListen(): RequestBuilder<Record<string, unknown>> {
  return new RequestBuilder(entryDraft("subscriptions/listen"), undefined);
}

/**
 * A pattern for `tools/list`.
 *
 * @example
 * ```ts
 * import { toolsList, toolsCall } from "mcpmock";
 * mock.verifyInOrder(toolsList(), toolsCall("add"));
 * ```
 * @category Verification
 */
export function toolsList(): RequestBuilder<Record<string, unknown>> {
  return new RequestBuilder(entryDraft("tools/list"), undefined);
}

/**
 * A pattern for the HTTP DELETE that ends a session.
 *
 * @example
 * ```ts
 * import { deleteSession } from "mcpmock";
 * mock.verify(deleteSession().withSessionId("session-1"));
 * ```
 * @category Verification
 */
export function deleteSession(): DeleteSessionBuilder {
  return new DeleteSessionBuilder(entryDraft(HTTP_DELETE), undefined);
}

/** @internal The draft of a task method's chain: any task, or one by id. */
export function taskDraft(method: "tasks/get" | "tasks/result" | "tasks/cancel", taskId: string | undefined): StubDraft {
  if (taskId !== undefined && (typeof taskId !== "string" || taskId === "")) throw new McpMockError(`${entryCall(method)} takes a task id (a non-empty string, like "task-1"), received ${JSON.stringify(taskId)}.`);
  return entryDraft(method, taskId);
}

/**
 * A pattern for `tasks/get` (a poll of a task's status), of one task or of any.
 *
 * @example
 * ```ts
 * import { atLeast, tasksGet } from "mcpmock";
 * mock.verify(tasksGet("task-1"), atLeast(1));
 * ```
 * @category Verification
 */
export function tasksGet(taskId?: string): RequestBuilder<Record<string, unknown>> {
  return new RequestBuilder(taskDraft("tasks/get", taskId), undefined);
}

/**
 * A pattern for `tasks/result`, of one task or of any.
 *
 * @example
 * ```ts
 * import { tasksResult } from "mcpmock";
 * mock.verify(tasksResult("task-1"));
 * ```
 * @category Verification
 */
export function tasksResult(taskId?: string): RequestBuilder<Record<string, unknown>> {
  return new RequestBuilder(taskDraft("tasks/result", taskId), undefined);
}

/**
 * A pattern for `tasks/list`.
 *
 * @example
 * ```ts
 * import { tasksList } from "mcpmock";
 * mock.verify(tasksList(), 0);
 * ```
 * @category Verification
 */
export function tasksList(): RequestBuilder<Record<string, unknown>> {
  return new RequestBuilder(entryDraft("tasks/list"), undefined);
}

/**
 * A pattern for `tasks/cancel`, of one task or of any.
 *
 * @example
 * ```ts
 * import { tasksCancel } from "mcpmock";
 * mock.verify(tasksCancel("task-2"));
 * ```
 * @category Verification
 */
export function tasksCancel(taskId?: string): RequestBuilder<Record<string, unknown>> {
  return new RequestBuilder(taskDraft("tasks/cancel", taskId), undefined);
}
