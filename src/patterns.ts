/**
 * Patterns for verification, usable without a mock: the same entry points and narrowings as
 * stubs (`toolsCall("add").withArgs({ a: 1 })`), without a terminal.
 * @module
 */
import { DeleteSessionBuilder, draft, InitializeBuilder, RequestBuilder, ToolCallBuilder } from "./builder.js";
import { HTTP_DELETE } from "./stub.js";

/**
 * A pattern for `tools/call`, of one tool or (without a name) of any tool.
 *
 * @example
 * ```ts
 * import { toolsCall } from "mcpmock";
 * mock.verify(toolsCall("add").withArgs({ a: 1, b: 2 }));
 * ```
 */
export function toolsCall(name?: string): ToolCallBuilder {
  return name === undefined
    ? new ToolCallBuilder(draft("tools/call", "toolsCall()"), undefined)
    : new ToolCallBuilder(draft("tools/call", `toolsCall(${JSON.stringify(name)})`, name), undefined);
}

/**
 * A pattern for any JSON-RPC method.
 *
 * @example
 * ```ts
 * import { method } from "mcpmock";
 * mock.verify(method("notifications/initialized"));
 * ```
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
 */
export function initialize(): InitializeBuilder {
  return new InitializeBuilder(draft("initialize", "initialize()"), undefined);
}

/**
 * A pattern for `ping`.
 *
 * @example
 * ```ts
 * import { ping } from "mcpmock";
 * mock.verify(ping(), 0);
 * ```
 */
export function ping(): RequestBuilder<Record<string, never>> {
  return new RequestBuilder(draft("ping", "ping()"), undefined);
}

/**
 * A pattern for `tools/list`.
 *
 * @example
 * ```ts
 * import { toolsList, toolsCall } from "mcpmock";
 * mock.verifyInOrder(toolsList(), toolsCall("add"));
 * ```
 */
export function toolsList(): RequestBuilder<Record<string, unknown>> {
  return new RequestBuilder(draft("tools/list", "toolsList()"), undefined);
}

/**
 * A pattern for the HTTP DELETE that ends a session.
 *
 * @example
 * ```ts
 * import { deleteSession } from "mcpmock";
 * mock.verify(deleteSession().withSessionId("session-1"));
 * ```
 */
export function deleteSession(): DeleteSessionBuilder {
  return new DeleteSessionBuilder(draft(HTTP_DELETE, "deleteSession()"), undefined);
}
