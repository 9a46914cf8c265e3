/**
 * The entry-point builders: what each MCP method can be narrowed by and answered with.
 * @module
 */
import { isAny, type AnyValue } from "../values/any.js";
import type { McpCall } from "../stubs/call.js";
import { isPlainObject, StubBuilder, type StreamOptions } from "./stub-builder.js";
import type { StreamCall, StreamScriptBuilder } from "../stubs/stream-script.js";
import { showValue } from "../values/errors.js";
import type { StubHandle } from "./stub-handle.js";
import { assertJsonCarriable } from "../values/json-value.js";
import {
  argsAny,
  argsContaining,
  argsEqual,
  argsWhere,
  completionArgument,
  completionRef,
  paramsContaining,
  paramsEqual,
  paramsWhere,
} from "../stubs/matchers.js";
import { predicateProblem } from "../stubs/predicates.js";
import { isValuePattern, showExpected } from "../values/value-patterns.js";
import type { PromptMessage } from "../stubs/prompt-catalog.js";
import { readBytesAsBase64, type ReadResourceResult, type ResourceContents } from "../stubs/resource-catalog.js";
import type { ResponsePlan, TaskPlan } from "../stubs/stub.js";
import type { Answer } from "../stubs/answer.js";
import { checkTaskPlan } from "./task-plan.js";
import type { DeepPartial, ToolCall, WithAny } from "./typed.js";

/** What a `with*` call that takes an object was given instead, with the fix for a lone pattern. */
function receivedInstead(value: unknown, dsl: string): string {
  if (isAny(value) || !isValuePattern(value)) return `received ${showValue(value)}.`;
  const shown = showExpected(value);
  return `received ${shown}, a pattern for one field's value, which never matches a whole object. Put it under the field's name: ${dsl}({ name: ${shown} }).`;
}

/**
 * Narrowing by arguments, shared by tools and prompts (the seed's rule-1 tier).
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({
 *   tools: [{ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } }],
 * });
 * mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
 * mock.toolsCall("add").withArgsMatching({ a: 1 }).respondsWith({ sum: 1 });
 * mock.toolsCall("add").withArgsMatching((args) => (args.a ?? 0) < 0).respondsWithError(-32602, "a must not be negative");
 * ```
 * @category Stubbing
 */
export abstract class ArgsBuilder<Args> extends StubBuilder {
  /**
   * Arguments equal to these (key order free; `ANY` inside matches any value of that field),
   * or `ANY` for any arguments at all.
   */
  withArgs(args: WithAny<Args> | AnyValue): this {
    if (isAny(args)) return this.withMatcher(argsAny());
    if (!isPlainObject(args)) this.fail(`withArgs takes an object of arguments ({ a: 1 }) or ANY, ${receivedInstead(args, "withArgs")}`);
    assertJsonCarriable(args, `${this.draft.written}.withArgs(...)`, "args", true);
    return this.withMatcher(argsEqual(args));
  }

  /** Arguments that contain these fields (deeply; others ignored), or that a predicate accepts. */
  withArgsMatching(partialOrPredicate: WithAny<DeepPartial<Args>> | ((args: Args) => boolean)): this {
    if (typeof partialOrPredicate === "function") {
      const problem = predicateProblem(partialOrPredicate, "withArgsMatching");
      if (problem) this.fail(problem);
      return this.withMatcher(argsWhere(partialOrPredicate as (args: Record<string, unknown>) => boolean));
    }
    if (!isPlainObject(partialOrPredicate)) {
      this.fail(`withArgsMatching takes an object of fields or a predicate, ${receivedInstead(partialOrPredicate, "withArgsMatching")}`);
    }
    assertJsonCarriable(partialOrPredicate, `${this.draft.written}.withArgsMatching(...)`, "args", true);
    return this.withMatcher(argsContaining(partialOrPredicate));
  }
}

/**
 * Options for a tool answer.
 *
 * @example
 * ```ts
 * import { McpMock, type ToolAnswerOptions } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "get_weather", inputSchema: { type: "object" } }] });
 * const failure: ToolAnswerOptions = { isError: true };
 * mock.toolsCall("get_weather").respondsWith("City not found", failure); // the model sees a failed tool, not a protocol error
 * ```
 * @category Stubbing
 */
export interface ToolAnswerOptions {
  /** Mark the result `isError: true` (a tool failure the model sees, not a protocol error). */
  readonly isError?: boolean;
}

/**
 * A `tools/call` stub: narrow by arguments, answer with a payload.
 *
 * @example
 * ```ts
 * import { McpMock, ANY, text } from "mcpmock";
 * await using mock = await McpMock.start({
 *   tools: [{ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } }],
 * });
 * mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
 * mock.toolsCall("add").withArgs(ANY).respondsWith(text("fallback"));
 * ```
 * @category Stubbing
 */
export class ToolCallBuilder<Args = Record<string, unknown>, Payload = unknown> extends ArgsBuilder<Args> {
  /**
   * How a call that asks to run as a task (`params.task`, a tool declared with
   * `execution: { taskSupport: "optional" | "required" }`) runs: the stub's answer (its
   * delay, stream script or function) is the task's work and its result; an error or an
   * `isError` result makes the task `failed`. `afterPolls` holds the result back until the
   * client has polled that many times (`tasks/result` releases it), `statuses` says what
   * those polls report, `ttl` and `pollInterval` override the mock's `tasks` defaults.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * await using mock = await McpMock.start({ tools: [{ name: "build", execution: { taskSupport: "optional" } }] });
   * mock.toolsCall("build").asTask({ afterPolls: 2, pollInterval: 10 }).respondsWith({ ok: true });
   * mock.toolsCall("build").withArgs({ target: "docs" }).asTask({ statuses: ["working", { status: "input_required", message: "Approve?" }] }).respondsWith("built");
   * ```
   */
  asTask(options?: TaskPlan): this {
    const plan = checkTaskPlan(options, (m) => this.fail(m));
    const name = this.draft.key;
    const support = name === undefined ? undefined : this.core?.tools.get(name)?.execution?.taskSupport;
    if (this.core && name !== undefined && support !== "optional" && support !== "required") {
      this.fail(`asTask: tool "${name}" is declared without execution: { taskSupport: "optional" | "required" }, so no call of it runs as a task. Declare it with execution: { taskSupport: "optional" } (or "required").`);
    }
    return this.with({ task: plan }, `.asTask(${options === undefined ? "" : showValue(options)})`);
  }

  /** @internal */
  override planFor(payload: unknown, options?: ToolAnswerOptions): ResponsePlan {
    return { kind: "tool-result", payload: this.keptAnswer(payload, "respondsWith"), isError: options?.isError === true };
  }

  /**
   * Answers with a payload, wrapped as a server would: a string or content block becomes the
   * content, other JSON becomes JSON text (and `structuredContent` when the tool declares an
   * `outputSchema`), a whole `CallToolResult` passes as is. A constant payload is copied
   * here (changing the object later does not change the answer); for an answer that changes,
   * pass a function of the call.
   */
  respondsWith(answer: (call: ToolCall<Args>) => Payload | Promise<Payload>, options?: ToolAnswerOptions): StubHandle<Answer<Payload, ToolCall<Args>>, ToolAnswerOptions>;
  respondsWith(payload: Payload, options?: ToolAnswerOptions): StubHandle<Answer<Payload, ToolCall<Args>>, ToolAnswerOptions>;
  respondsWith(payload: Answer<Payload, ToolCall<Args>>, options?: ToolAnswerOptions): StubHandle<Answer<Payload, ToolCall<Args>>, ToolAnswerOptions> {
    return this.register(this.planFor(payload, options));
  }

  /**
   * As {@link StubBuilder.streams}, with the steps' functions seeing the tool's typed
   * arguments (`call.args`, from its `inputSchema` when it is declared `as const`).
   *
   * @example
   * ```ts
   * mock.toolsCall("get_weather").streams((s) => s.progress(1, 2).result((call) => `sunny in ${call.args.city}`));
   * ```
   */
  override streams(script: (s: StreamScriptBuilder<ToolStreamCall<Args>>) => StreamScriptBuilder<never> | void, options?: StreamOptions): StubHandle<unknown, undefined>;
  override streams(source: ((call: StreamCall) => AsyncIterable<unknown> | Iterable<unknown>) | AsyncIterable<unknown>, options?: StreamOptions): StubHandle<unknown, undefined>;
  override streams(script: unknown, options?: StreamOptions): StubHandle<unknown, undefined> {
    return super.streams(script as AsyncIterable<unknown>, options);
  }
}

/**
 * The call a tool's stream script sees: the stream call with the tool's typed arguments.
 *
 * @example
 * ```ts
 * import type { ToolStreamCall } from "mcpmock";
 * const city = (call: ToolStreamCall<{ city: string }>) => call.args.city;
 * ```
 * @category Streams
 */
export type ToolStreamCall<Args> = Record<string, unknown> extends Args
  ? StreamCall
  : Omit<StreamCall, "args"> & {
      /** The tool arguments, typed from the tool's `inputSchema`. */
      readonly args: Args;
    };

/**
 * What a prompt answer may be: a string (one user message), prompt messages, or a whole result.
 *
 * @example
 * ```ts
 * import { McpMock, text, type PromptPayload } from "mcpmock";
 * await using mock = await McpMock.start({ prompts: [{ name: "greet", arguments: [{ name: "style" }] }] });
 * const short: PromptPayload = "Hello"; // one user message
 * const dialogue: PromptPayload = [{ role: "user", content: text("Hi") }, { role: "assistant", content: text("Hello!") }];
 * const whole: PromptPayload = { description: "A greeting", messages: [{ role: "user", content: text("Good morning") }] };
 * mock.promptsGet("greet").respondsWith(short);
 * mock.promptsGet("greet").withArgs({ style: "chat" }).respondsWith(dialogue);
 * mock.promptsGet("greet").withArgs({ style: "formal" }).respondsWith(whole);
 * ```
 * @category Stubbing
 */
export type PromptPayload =
  | string
  | PromptMessage[]
  | {
      /** The result's `description`. */
      description?: string;
      /** The prompt's messages, in order. */
      messages: PromptMessage[];
    };

/**
 * Options for a prompt answer.
 *
 * @example
 * ```ts
 * import { McpMock, type PromptAnswerOptions } from "mcpmock";
 * await using mock = await McpMock.start({ prompts: [{ name: "greet" }] });
 * const options: PromptAnswerOptions = { description: "A short greeting" };
 * mock.promptsGet("greet").respondsWith("Hello", options);
 * ```
 * @category Stubbing
 */
export interface PromptAnswerOptions {
  /** The result's `description`. */
  readonly description?: string;
}

/**
 * A `prompts/get` stub: narrow by arguments (as for tools), answer with messages.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({ prompts: [{ name: "greet", arguments: [{ name: "name", required: true }] }] });
 * mock.promptsGet("greet").withArgs({ name: "Ada" }).respondsWith("Hello, Ada");
 * mock.promptsGet("greet").respondsWith((call) => `Hello, ${call.args.name}`);
 * ```
 * @category Stubbing
 */
export class PromptGetBuilder extends ArgsBuilder<Record<string, string>> {
  /** @internal */
  override planFor(payload: unknown, options?: PromptAnswerOptions): ResponsePlan {
    const p = this.keptAnswer(payload, "respondsWith");
    return options?.description === undefined ? { kind: "prompt-result", payload: p } : { kind: "prompt-result", payload: p, description: options.description };
  }

  /** Answers with messages: a string is one user text message. May be a function of the call. */
  respondsWith(answer: Answer<PromptPayload, ToolCall<Record<string, string>>>, options?: PromptAnswerOptions): StubHandle<Answer<PromptPayload, ToolCall<Record<string, string>>>, PromptAnswerOptions> {
    return this.register(this.planFor(answer, options));
  }
}

/**
 * One item of a read answer: text or binary contents, for the URI read unless it names another.
 *
 * @example
 * ```ts
 * import { McpMock, type ReadItem } from "mcpmock";
 * await using mock = await McpMock.start();
 * const readme: ReadItem = { text: "# Read me", mimeType: "text/markdown" };
 * const logo: ReadItem = { blob: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), mimeType: "image/png" }; // the bytes go out as base64
 * mock.resourcesRead("test://readme").respondsWith(readme);
 * mock.resourcesRead("test://logo.png").respondsWith(logo);
 * ```
 * @category Stubbing
 */
export type ReadItem =
  | {
      /** The contents as text. */
      text: string;
      /** The contents' MIME type (overrides the `mimeType` option). */
      mimeType?: string;
      /** The contents' URI; the URI read by default. */
      uri?: string;
    }
  | {
      /** The contents as binary data: base64 text, or bytes that are encoded. */
      blob: string | Uint8Array;
      /** The contents' MIME type (overrides the `mimeType` option). */
      mimeType?: string;
      /** The contents' URI; the URI read by default. */
      uri?: string;
    };

/**
 * What a read answer may be: text, `{ text }` / `{ blob }` contents, several, or a whole result.
 *
 * @example
 * ```ts
 * import { McpMock, type ReadPayload } from "mcpmock";
 * await using mock = await McpMock.start();
 * const hello: ReadPayload = "Hello, world"; // one text item for the URI read
 * const folder: ReadPayload = [{ text: "a", uri: "test://dir/a.txt" }, { blob: "AQI=", uri: "test://dir/b.bin" }];
 * mock.resourcesRead("test://hello").respondsWith(hello);
 * mock.resourcesRead("test://dir").respondsWith(folder);
 * ```
 * @category Stubbing
 */
export type ReadPayload = string | ReadItem | Array<string | ReadItem> | ReadResourceResult | ResourceContents[];

/**
 * A read as an answer function sees it: with the template's variables when stubbed by template.
 *
 * @example
 * ```ts
 * import { McpMock, type ResourceReadCall } from "mcpmock";
 * await using mock = await McpMock.start({ resources: [{ uriTemplate: "test://items/{id}", name: "item" }] });
 * const item = (call: ResourceReadCall) => ({ text: JSON.stringify({ id: call.variables.id, uri: call.uri }), mimeType: "application/json" });
 * mock.resourcesRead("test://items/{id}").respondsWith(item);
 * ```
 * @category Stubbing
 */
export type ResourceReadCall = McpCall & {
  /** The URI read (`params.uri`). */
  readonly uri: string;
  /** The URI template's variables, e.g. `{ id: "7" }` for `test://items/{id}`; empty when stubbed by exact URI or predicate. */
  readonly variables: Readonly<Record<string, string | string[]>>;
};

/**
 * Options for a read answer.
 *
 * @example
 * ```ts
 * import { McpMock, type ReadAnswerOptions } from "mcpmock";
 * await using mock = await McpMock.start();
 * const png: ReadAnswerOptions = { mimeType: "image/png" };
 * mock.resourcesRead("test://logo").respondsWith({ blob: "iVBORw0KGgo=" }, png);
 * ```
 * @category Stubbing
 */
export interface ReadAnswerOptions {
  /** The contents' MIME type (unless the contents give one). */
  readonly mimeType?: string;
}

/**
 * A `resources/read` stub, for an exact URI, a URI template or a predicate.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start();
 * mock.resourcesRead("test://hello").respondsWith({ text: "Hello, world" });
 * mock.resourcesRead("test://items/{id}").respondsWith((call) => ({ text: `item ${call.variables.id}` }));
 * mock.resourcesRead((uri) => uri.endsWith(".png")).respondsWith({ blob: "iVBORw0KGgo=" }, { mimeType: "image/png" });
 * ```
 * @category Stubbing
 */
export class ResourceReadBuilder extends StubBuilder {
  /** @internal */
  override planFor(payload: unknown, options?: ReadAnswerOptions): ResponsePlan {
    // Bytes are not JSON, but a read answer may carry them: they are kept as base64 text.
    const kept = this.keptAnswer(typeof payload === "function" ? payload : readBytesAsBase64(payload), "respondsWith");
    return { kind: "resource-result", payload: kept, ...(options?.mimeType === undefined ? {} : { mimeType: options.mimeType }) };
  }

  /** Answers with contents for the URI read. May be a function of the call. */
  respondsWith(answer: Answer<ReadPayload, ResourceReadCall>, options?: ReadAnswerOptions): StubHandle<Answer<ReadPayload, ResourceReadCall>, ReadAnswerOptions> {
    return this.register(this.planFor(answer, options));
  }
}

/**
 * A stub for any JSON-RPC method: narrow by params, answer with a result.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start();
 * mock.method("custom/thing").withParams({ id: 7 }).respondsWith({ ok: true });
 * mock.ping().respondsWithError(-32603, "not today");
 * ```
 * @category Stubbing
 */
export class RequestBuilder<Result = unknown> extends StubBuilder {
  /** Params equal to a value (key order free), `ANY`, or a predicate. */
  withParams(params: Record<string, unknown> | AnyValue | ((params: Record<string, unknown>) => boolean)): this {
    if (isAny(params)) return this.with({}, ".withParams(ANY)");
    if (typeof params === "function") {
      const problem = predicateProblem(params, "withParams");
      if (problem) this.fail(problem);
      return this.withMatcher(paramsWhere(params));
    }
    if (!isPlainObject(params)) this.fail(`withParams takes an object, ANY or a predicate, ${receivedInstead(params, "withParams")}`);
    assertJsonCarriable(params, `${this.draft.written}.withParams(...)`, "params", true);
    return this.withMatcher(paramsEqual(params));
  }

  /** Params that contain these fields (deeply; others ignored). */
  withParamsMatching(partial: Record<string, unknown>): this {
    if (!isPlainObject(partial)) this.fail(`withParamsMatching takes an object of fields, ${receivedInstead(partial, "withParamsMatching")}`);
    assertJsonCarriable(partial, `${this.draft.written}.withParamsMatching(...)`, "params", true);
    return this.withMatcher(paramsContaining(partial));
  }

  /** Answers with this JSON-RPC result (sent as is), or a function of the call. */
  respondsWith(answer: (call: McpCall) => Result | Promise<Result>): StubHandle<Answer<Result>, undefined>;
  respondsWith(result: Result): StubHandle<Answer<Result>, undefined>;
  respondsWith(result: Answer<Result>): StubHandle<Answer<Result>, undefined> {
    return this.register(this.planFor(result));
  }
}

/**
 * A completion answer: the values (filtered by what the user typed), or a whole result.
 *
 * @example
 * ```ts
 * import { McpMock, type CompletionPayload } from "mcpmock";
 * await using mock = await McpMock.start({ prompts: [{ name: "greet", arguments: [{ name: "name" }] }] });
 * const names: CompletionPayload = ["Ada", "Alan", "Grace"]; // filtered by what the user typed
 * const page: CompletionPayload = { completion: { values: ["Zoe"], total: 250, hasMore: true } }; // sent as is
 * mock.completionComplete().forPrompt("greet").withArgument("name").respondsWith(names);
 * mock.completionComplete().forPrompt("greet").withArgument("name", "Z").respondsWith(page);
 * ```
 * @category Stubbing
 */
export type CompletionPayload =
  | string[]
  | {
      /** The `completion/complete` result's completion. */
      completion: {
        /** The values offered, at most 100. */
        values: string[];
        /** How many values there are in all, which may exceed those sent. */
        total?: number;
        /** Whether there are more values than those sent. */
        hasMore?: boolean;
      };
    };

/**
 * A `completion/complete` stub: narrow by the prompt or resource and the argument.
 * An array of values is filtered by the typed prefix, as a real server would.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({ prompts: [{ name: "greet", arguments: [{ name: "name", required: true }] }] });
 * mock.completionComplete().forPrompt("greet").withArgument("name").respondsWith(["Ada", "Alan", "Grace"]);
 * // the client typing "A" gets ["Ada", "Alan"]
 * ```
 * @category Stubbing
 */
export class CompletionBuilder extends RequestBuilder<Record<string, unknown>> {
  /** Only completions for this prompt's arguments. */
  forPrompt(name: string): this {
    if (typeof name !== "string" || name === "") this.fail(`forPrompt takes a prompt name.`);
    return this.withMatcher(completionRef({ type: "ref/prompt", name }));
  }

  /** Only completions for this resource template's variables. */
  forResource(uri: string): this {
    if (typeof uri !== "string" || uri === "") this.fail(`forResource takes a resource URI or template.`);
    return this.withMatcher(completionRef({ type: "ref/resource", uri }));
  }

  /** Only completions of this argument, and (with a prefix) only when the typed value starts with it. */
  withArgument(name: string, prefix?: string): this {
    if (typeof name !== "string" || name === "") this.fail(`withArgument takes an argument name.`);
    return this.withMatcher(completionArgument(name, prefix));
  }

  /** @internal An array answer is filtered by the typed prefix, as a real server does. */
  override planFor(answer: unknown): ResponsePlan {
    const kept = this.keptAnswer(answer, "respondsWith");
    const result = async (call: McpCall): Promise<unknown> => {
      const value = typeof kept === "function" ? await (kept as (c: McpCall) => unknown)(call) : kept;
      if (!Array.isArray(value)) return value;
      const typed = (call.params?.["argument"] as { value?: unknown } | undefined)?.value;
      const matching = (value as unknown[]).filter((v) => typeof v === "string" && (typeof typed !== "string" || v.startsWith(typed)));
      return { completion: { values: matching.slice(0, 100), total: matching.length, hasMore: matching.length > 100 } };
    };
    return { kind: "result", result, label: typeof answer === "function" ? "values computed from the call" : `values ${showValue(answer, 80)}` };
  }

  /** Answers with values (filtered by the typed prefix, at most 100) or a whole `{ completion }` result. */
  override respondsWith(answer: Answer<CompletionPayload> | Answer<Record<string, unknown>>): StubHandle<Answer<Record<string, unknown>>, undefined> {
    return this.register(this.planFor(answer));
  }
}

/**
 * Options for an initialize answer.
 *
 * @example
 * ```ts
 * import { McpMock, type InitializeAnswerOptions } from "mcpmock";
 * await using mock = await McpMock.start();
 * const options: InitializeAnswerOptions = { sessionId: "session-fixed" };
 * mock.initialize().respondsWith({ instructions: "Be brief" }, options);
 * ```
 * @category Stubbing
 */
export interface InitializeAnswerOptions {
  /** The `Mcp-Session-Id` to issue (stateful mode picks one otherwise). */
  readonly sessionId?: string;
}

/**
 * An `initialize` stub. The result may be partial: missing `protocolVersion`,
 * `capabilities` and `serverInfo` come from the default answer.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start();
 * mock.initialize().respondsWith({ instructions: "Be brief" }, { sessionId: "s-1" });
 * ```
 * @category Stubbing
 */
export class InitializeBuilder extends StubBuilder {
  /** @internal */
  override planFor(result: unknown, options?: InitializeAnswerOptions): ResponsePlan {
    const r = this.keptAnswer(result, "respondsWith");
    const sessionId = options?.sessionId;
    if (sessionId !== undefined && !/^[\x21-\x7e]+$/.test(sessionId)) {
      this.fail(`respondsWith(..., { sessionId }): ${JSON.stringify(sessionId)} is not a valid session id; MCP allows visible ASCII only (0x21-0x7E).`);
    }
    return sessionId === undefined ? { kind: "result", result: r } : { kind: "result", result: r, sessionId };
  }

  /** Answers initialize with (a partial) result and optionally a chosen session id. */
  respondsWith(result: Answer<Record<string, unknown>>, options?: InitializeAnswerOptions): StubHandle<Answer<Record<string, unknown>>, InitializeAnswerOptions> {
    return this.register(this.planFor(result, options));
  }
}

/**
 * The GET stream a client holds open for server-initiated messages: a script played when a
 * matching session opens it (notifications and requests; no response on this stream).
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start();
 * mock.openStream().withSessionId("session-1").sends((s) => s.delay(50).notify("notifications/tools/list_changed"));
 * ```
 * @category Stubbing
 */
export class OpenStreamBuilder extends StubBuilder {
  /** Plays this script (or generator of messages) on the stream when it opens. */
  sends(script: (s: StreamScriptBuilder) => StreamScriptBuilder | void, options?: StreamOptions): StubHandle<unknown, undefined>;
  sends(source: ((call: StreamCall) => AsyncIterable<unknown> | Iterable<unknown>) | AsyncIterable<unknown>, options?: StreamOptions): StubHandle<unknown, undefined>;
  sends(
    script: ((s: StreamScriptBuilder) => StreamScriptBuilder | void) | ((call: StreamCall) => AsyncIterable<unknown> | Iterable<unknown>) | AsyncIterable<unknown>,
    options: StreamOptions = {},
  ): StubHandle<unknown, undefined> {
    return this.register(this.streamPlan(script, options, false));
  }
}

/**
 * The HTTP DELETE that ends a session. Default answer: 204, and the session ends.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start();
 * mock.deleteSession().respondsWithStatus(405); // the client may not end sessions
 * ```
 * @category Stubbing
 */
export class DeleteSessionBuilder extends StubBuilder {}
