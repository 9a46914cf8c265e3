/**
 * Stream scripts: what an SSE answer sends before its result (progress, logs,
 * notifications, delays, server-to-client requests, raw messages), as plain data.
 * The builder (`s => s.progress(1, 3).log("info", "working").result(...)`) only assembles it.
 * @module
 */
import type { McpCall } from "./call.js";
import { McpMockError, showValue } from "../values/errors.js";
import { assertJsonCarriable } from "../values/json-value.js";
import type { Answer } from "./answer.js";
import { MAX_DELAY_MS } from "../values/max-delay.js";
import { samplingToolsProblems } from "../protocol/sampling-tools.js";
import { ELICITATION_COMPLETE, urlElicitationParams, type UrlElicitation } from "../protocol/url-elicitation.js";
import type { CreateMessageResult, ElicitResult, ListRootsResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * The log levels, least severe first.
 *
 * @example
 * ```ts
 * import { McpMock, type LogLevel } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "deploy", inputSchema: { type: "object" } }] });
 * const level: LogLevel = "warning"; // sent only if the client's logging/setLevel lets it through
 * mock.toolsCall("deploy").streams((s) => s.log(level, "disk almost full", "deployer").result("deployed"));
 * ```
 * @category Streams
 */
export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/**
 * The client's answers to a stream's input requests so far: in order, one per `request` or
 * `requests` step (a `requests` step's is the object of its answers by key), and by key
 * (`answers.user_name`; unnamed requests under `elicitation-1`, ...).
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "signup", inputSchema: { type: "object" } }] });
 * mock.toolsCall("signup").streams((s) =>
 *   s.request("elicitation/create", { message: "Name?", requestedSchema: { type: "object" } }, { key: "user_name" })
 *     .requests({ roots: { method: "roots/list" } })
 *     .result((call) => `${String(call.answers.user_name?.content?.name)}, ${String(call.answers.roots?.roots?.length)} root(s)`),
 * );
 * ```
 * @category Streams
 */
// The keyed part is `any` so that the casts tests write on the ordered part (`call.answers as [A, B]`) still type-check.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StreamAnswers = readonly unknown[] & { readonly [key: string]: any };

/**
 * A call inside a stream: the request, plus the client's answers to earlier `request` steps.
 *
 * @example
 * ```ts
 * import { McpMock, type StreamCall } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "count", inputSchema: { type: "object" } }] });
 * mock.toolsCall("count").streams(async function* (call: StreamCall) {
 *   yield { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: `counting for ${call.sessionId}` } };
 *   yield { jsonrpc: "2.0", id: call.id, result: { content: [{ type: "text", text: "done" }] } };
 * });
 * ```
 * @category Streams
 */
export type StreamCall = McpCall & {
  /** The client's answers to the stream's `request` and `requests` steps so far, in order (results, or `{ error }`), and by key: `call.answers.user_name`. */
  readonly answers: StreamAnswers;
  /** The latest of `answers` (the client's answer to the latest request step; after a `requests` step, its answers by key). */
  readonly answer: unknown;
};

/** One member of a `requests` step: a server-to-client request under its key. */
export interface InputRequestStep {
  readonly method: string;
  readonly params?: Answer<unknown, StreamCall>;
  readonly timeoutMs?: number;
}

/**
 * The result a client answers a server-to-client request with, by its method (the SDK's
 * types); `undefined` for a method the mock does not know.
 *
 * @example
 * ```ts
 * import type { ClientResult } from "mcpmock";
 * const roots: ClientResult<"roots/list"> = { roots: [{ uri: "file:///work" }] };
 * ```
 * @category Streams
 */
export type ClientResult<M extends string> = M extends "elicitation/create"
  ? ElicitResult
  : M extends "sampling/createMessage"
    ? CreateMessageResult
    : M extends "roots/list"
      ? ListRootsResult
      : undefined;

/**
 * What a `request(method)` step gets back, as later steps see it in `call.answer`: the result
 * type of the method (an `ElicitResult` for `elicitation/create`), with `error` set instead
 * when the client refused (check it first when a test makes the client refuse); `unknown` for
 * a method the mock does not know.
 *
 * @example
 * ```ts
 * import type { ClientAnswer } from "mcpmock";
 * const answer = { action: "accept", content: { name: "Ada" } } satisfies ClientAnswer<"elicitation/create">;
 * ```
 * @category Streams
 */
export type ClientAnswer<M extends string> = [ClientResult<M>] extends [undefined]
  ? unknown
  : ClientResult<M> & {
      /** Set, instead of the result's fields, when the client answered with a JSON-RPC error. */
      readonly error?: {
        /** The JSON-RPC error code. */
        readonly code: number;
        /** The client's message. */
        readonly message: string;
        /** The error's `data`, if any. */
        readonly data?: unknown;
      };
    };

/**
 * The call later steps see after a `request(method)` step: its `answer` typed by the method.
 *
 * @example
 * ```ts
 * import type { AfterRequest, StreamCall } from "mcpmock";
 * type Asked = AfterRequest<StreamCall, "roots/list">; // call.answer.roots is typed
 * ```
 * @category Streams
 */
export type AfterRequest<C, M extends string> = unknown extends ClientAnswer<M>
  ? C extends {
      /** The answer the call type had. */
      readonly answer: infer A;
    }
    ? unknown extends A
      ? C
      : Omit<C, "answer"> & {
          /** The client's answer to the last request step (a method the mock does not type). */
          readonly answer: unknown;
        }
    : C
  : Omit<C, "answer"> & {
      /** The client's answer to the last request step, typed by its method. */
      readonly answer: ClientAnswer<M>;
    };

/**
 * The call later steps see after named requests (`request(method, params, { key })`, or a
 * `requests({ ... })` step): `call.answers.KEY` typed by each key's method (an `ElicitResult`
 * for `elicitation/create`, a `ListRootsResult` for `roots/list`), keys named earlier kept.
 * `A` is the answers by key, e.g. `{ user_name: ClientAnswer<"elicitation/create"> }`.
 *
 * @example
 * ```ts
 * import type { AfterNamedRequests, ClientAnswer, StreamCall } from "mcpmock";
 * type Asked = AfterNamedRequests<StreamCall, { roots: ClientAnswer<"roots/list"> }>; // call.answers.roots.roots is typed
 * ```
 * @category Streams
 */
export type AfterNamedRequests<C, A> = C extends {
  /** The answers the call type had. */
  readonly answers: infer Before;
}
  ? Omit<C, "answers"> & {
      /** The client's answers so far, in order, and by key: the named ones typed by their method. */
      readonly answers: (0 extends 1 & (Before extends { readonly [key: string]: infer V } ? V : never) ? readonly unknown[] & { readonly [key: string]: unknown } : Before) & { readonly [K in keyof A]: A[K] };
    }
  : C;

/**
 * The answers of a `requests({ ... })` step by key, typed by each member's method (a method
 * known only as `string` gives `any`, as an unnamed answer is).
 *
 * @example
 * ```ts
 * import type { RequestsAnswers } from "mcpmock";
 * type Answers = RequestsAnswers<{ roots: { method: "roots/list" } }>; // { readonly roots: ClientAnswer<"roots/list"> }
 * ```
 * @category Streams
 */
export type RequestsAnswers<R> = {
  readonly [K in keyof R]: R[K] extends {
    /** The member's method. */
    readonly method: infer M extends string;
  }
    ? string extends M
      ? // eslint-disable-next-line @typescript-eslint/no-explicit-any
        any
      : ClientAnswer<M>
    : unknown;
};

/**
 * What a stream step or its result carries: a JSON value, or a function of the call inside the
 * stream (and the client's answers so far) that returns one, or a promise of one. Spelt out
 * rather than `Answer<unknown, StreamCall>`, where `unknown` would swallow the function type and
 * an inline `(call) => ...` would lose its parameter's type under strict TypeScript.
 *
 * @example
 * ```ts
 * import { McpMock, type StreamValue } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "ask", inputSchema: { type: "object" } }] });
 * const greeting: StreamValue = (call) => `Hello, ${String((call.answer as { content?: { name?: string } })?.content?.name)}`;
 * mock.toolsCall("ask").streams((s) => s.request("elicitation/create", { message: "Name?", requestedSchema: { type: "object" } }).result(greeting));
 * ```
 * @category Streams
 */
export type StreamValue<C = StreamCall> = ((call: C) => unknown) | string | number | boolean | null | object;

/** One step of a stream. Values may be functions of the call and the answers so far. */
export type StreamStep =
  | { readonly kind: "progress"; readonly progress: number; readonly total?: number; readonly message?: string }
  | { readonly kind: "log"; readonly level: LogLevel; readonly data: Answer<unknown, StreamCall>; readonly logger?: string }
  | { readonly kind: "notify"; readonly method: string; readonly params?: Answer<unknown, StreamCall> }
  | { readonly kind: "delay"; readonly ms: number }
  | { readonly kind: "request"; readonly method: string; readonly params?: Answer<unknown, StreamCall>; readonly timeoutMs?: number; readonly key?: string }
  | { readonly kind: "requests"; readonly requests: Readonly<Record<string, InputRequestStep>> }
  | { readonly kind: "startTask" }
  | { readonly kind: "send"; readonly message: Answer<unknown, StreamCall> };

/** How a stream ends: a result (wrapped the entry point's way), a JSON-RPC error, or nothing (GET streams). */
export type StreamEnd =
  | { readonly kind: "result"; readonly payload: Answer<unknown, StreamCall> }
  | { readonly kind: "error"; readonly code: number; readonly message: string; readonly data?: unknown };

/** A whole script. */
export interface StreamScript {
  readonly steps: readonly StreamStep[];
  readonly end?: StreamEnd;
  /** Milliseconds to wait between steps. */
  readonly delayBetween?: number;
}

const LEVELS: readonly LogLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** Whether a log at `level` passes a session's `logging/setLevel` threshold. */
export function passesLevel(level: LogLevel, threshold: LogLevel | undefined): boolean {
  return threshold === undefined || LEVELS.indexOf(level) >= LEVELS.indexOf(threshold);
}

function check(value: unknown, where: string): void {
  if (typeof value !== "function") assertJsonCarriable(value, where, "value");
}

/**
 * Builds a stream script, step by step. Each method adds a step and returns the builder;
 * `result` or `error` ends it. `C` is the call the steps' functions see: typed arguments for a
 * tool declared `as const`, and `answer` typed by the method of the last request step.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "slow", inputSchema: { type: "object" } }] });
 * mock.toolsCall("slow").streams((s) =>
 *   s.progress(1, 3).log("info", "working").delay(20)
 *     .notify("notifications/resources/updated", { uri: "test://x" })
 *     .result({ done: true }),
 * );
 * ```
 * @category Streams
 */
export class StreamScriptBuilder<C = StreamCall> {
  /** @internal */
  readonly steps: StreamStep[] = [];
  /** @internal */
  end: StreamEnd | undefined;
  readonly #where: string;

  /** @internal */
  constructor(where: string) {
    this.#where = where;
  }

  #add(step: StreamStep): this {
    if (this.end) throw new McpMockError(`${this.#where}: a step after result()/error(); the stream ends there. Put ${step.kind}() before it.`);
    this.steps.push(step);
    return this;
  }

  /**
   * A `notifications/progress` with the request's progress token (skipped when the request
   * carried none, as the spec says). `progress` should increase from step to step.
   */
  progress(progress: number, total?: number, message?: string): this {
    if (!Number.isFinite(progress)) throw new McpMockError(`${this.#where}: progress takes a number, received ${showValue(progress)}.`);
    return this.#add({ kind: "progress", progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) });
  }

  /** A `notifications/message` log, sent only if the session's `logging/setLevel` lets it through. */
  log(level: LogLevel, data: StreamValue<C>, logger?: string): this {
    if (!LEVELS.includes(level)) throw new McpMockError(`${this.#where}: log level must be one of ${LEVELS.join(", ")}, received ${showValue(level)}.`);
    check(data, `${this.#where}.log(...)`);
    return this.#add({ kind: "log", level, data: data as StreamValue, ...(logger === undefined ? {} : { logger }) });
  }

  /** Any notification. */
  notify(method: string, params?: StreamValue<C>): this {
    if (typeof method !== "string" || method === "") throw new McpMockError(`${this.#where}: notify takes a method name, like "notifications/resources/updated".`);
    check(params, `${this.#where}.notify(...)`);
    return this.#add(params === undefined ? { kind: "notify", method } : { kind: "notify", method, params: params as StreamValue });
  }

  /** A pause. */
  delay(ms: number): this {
    if (!Number.isFinite(ms) || ms < 0) throw new McpMockError(`${this.#where}: delay takes milliseconds (0 or more), received ${showValue(ms)}.`);
    if (ms > MAX_DELAY_MS) throw new McpMockError(`${this.#where}: delay takes at most ${MAX_DELAY_MS} ms (about 24.8 days, the longest a timer holds), received ${ms}.`);
    return this.#add({ kind: "delay", ms });
  }

  /**
   * A server-to-client request (`sampling/createMessage`, `elicitation/create`,
   * `roots/list`, ...) on the same stream; the stream waits for the client's answer, which
   * later steps and the result see as `call.answer` (typed by the method: an `ElicitResult`
   * for `elicitation/create`). `key` names it: in 2026-07-28 the `inputRequests` key the
   * client answers under, and `call.answers.KEY` for later steps (unnamed: `elicitation-1`,
   * `sampling-2`, ...).
   */
  request<M extends string, K extends string = never>(
    method: M,
    params?: StreamValue<C>,
    options?: { timeoutMs?: number; key?: K },
  ): StreamScriptBuilder<[K] extends [never] ? AfterRequest<C, M> : string extends K ? AfterRequest<C, M> : AfterNamedRequests<
          AfterRequest<C, M>,
          RequestsAnswers<{
            [P in K]: {
              /** The request's method. */
              method: M;
            };
          }>
        >> {
    if (typeof method !== "string" || method === "") throw new McpMockError(`${this.#where}: request takes a method name, like "elicitation/create".`);
    check(params, `${this.#where}.request(...)`);
    const toolProblems = method === "sampling/createMessage" && params !== null && typeof params === "object" && !Array.isArray(params) ? samplingToolsProblems(params as Record<string, unknown>, `${this.#where}.request("sampling/createMessage", params)`) : [];
    if (toolProblems.length > 0) throw new McpMockError(toolProblems.join(" "));
    const key = options?.key;
    if (key !== undefined) this.#checkKey(key, `${this.#where}.request(..., { key })`);
    this.#add({
      kind: "request",
      method,
      ...(params === undefined ? {} : { params: params as StreamValue }),
      ...(options?.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(key === undefined ? {} : { key }),
    });
    return this as never;
  }

  /**
   * A URL-mode `elicitation/create` (SEP-1036): the client sends its user to `url` and answers
   * `accept` (the user agreed to go), `decline` or `cancel`. `key` and the answer are as for
   * {@link request}; needs the client's `elicitation.url` capability (a client without it makes
   * the call fail with the reason). Follow it with {@link completeElicitation} to say it is done.
   *
   * @example
   * ```ts
   * mock.toolsCall("connect").streams((s) => s
   *   .elicitUrl({ message: "Sign in to Example", url: "https://example.com/login", elicitationId: "login-1" })
   *   .completeElicitation("login-1")
   *   .result((call) => `user ${String(call.answer.action)}`));
   * ```
   */
  elicitUrl(elicitation: UrlElicitation, options?: { timeoutMs?: number; key?: string }): StreamScriptBuilder<AfterRequest<C, "elicitation/create">> {
    return this.request("elicitation/create", urlElicitationParams(elicitation, `${this.#where}.elicitUrl(...)`), options ?? {}) as never;
  }

  /**
   * `notifications/elicitation/complete` for a URL elicitation: the out-of-band step the
   * user was sent to is done (the client may retry what needed it).
   *
   * @example
   * ```ts
   * mock.toolsCall("connect").streams((s) => s.completeElicitation("login-1").result("done"));
   * ```
   */
  completeElicitation(elicitationId: string): this {
    if (typeof elicitationId !== "string" || elicitationId === "") throw new McpMockError(`${this.#where}: completeElicitation takes the elicitationId of the URL elicitation, received ${showValue(elicitationId)}.`);
    return this.notify(ELICITATION_COMPLETE, { elicitationId });
  }

  /**
   * Several server-to-client requests at once, by key: in 2026-07-28 one `input_required`
   * round carrying them all (a retry may answer only some; the next round asks for the rest),
   * in a session all sent together and awaited together. Later steps read `call.answers.KEY`;
   * `call.answer` is the object of this step's answers by key. Both are typed by each
   * member's method (`call.answers.roots` is a `ListRootsResult` after
   * `requests({ roots: { method: "roots/list" } })`).
   */
  requests<
    const R extends Readonly<
      Record<
        string,
        {
          /** The request's method: `"elicitation/create"`, `"sampling/createMessage"` or `"roots/list"`. */
          readonly method: string;
          /** The request's `params`. */
          readonly params?: StreamValue;
          /** Milliseconds to wait for the client's answer (sessions). */
          readonly timeoutMs?: number;
        }
      >
    >,
  >(
    requests: R,
  ): StreamScriptBuilder<
    string extends keyof R
      ? C
      : AfterNamedRequests<
          Omit<C, "answer"> & {
            /** This step's answers by key. */
            readonly answer: RequestsAnswers<R>;
          },
          RequestsAnswers<R>
        >
  > {
    const where = `${this.#where}.requests(...)`;
    if (requests === null || typeof requests !== "object" || Array.isArray(requests) || Object.keys(requests).length === 0) {
      throw new McpMockError(`${where} takes the requests by key, like { user_name: { method: "elicitation/create", params: { ... } }, roots: { method: "roots/list" } }.`);
    }
    const members: Record<string, InputRequestStep> = {};
    for (const [key, request] of Object.entries(requests)) {
      this.#checkKey(key, where);
      if (request === null || typeof request !== "object" || typeof request.method !== "string" || request.method === "") {
        throw new McpMockError(`${where}: ${JSON.stringify(key)} needs a method, like { method: "elicitation/create", params: { ... } }; received ${showValue(request)}.`);
      }
      check(request.params, `${where}.${key}`);
      members[key] = { method: request.method, ...(request.params === undefined ? {} : { params: request.params }), ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }) };
    }
    return this.#add({ kind: "requests", requests: members }) as never;
  }

  /**
   * Where the task starts, for a tool that may run as a task and is called as one: the steps
   * before run synchronously (in 2026-07-28 as plain `input_required` rounds), the task is
   * created here and the rest of the script is its work. A call that does not run as a task
   * plays on through it.
   */
  startTask(): this {
    if (this.steps.some((step) => step.kind === "startTask")) throw new McpMockError(`${this.#where}: startTask() twice; a task starts once.`);
    return this.#add({ kind: "startTask" });
  }

  #checkKey(key: unknown, where: string): void {
    if (typeof key !== "string" || key === "") throw new McpMockError(`${where}: a key is a non-empty string, like "user_name"; received ${showValue(key)}.`);
    for (const step of this.steps) {
      const keys = step.kind === "request" ? [step.key] : step.kind === "requests" ? Object.keys(step.requests) : [];
      if (keys.includes(key)) throw new McpMockError(`${where}: the key ${JSON.stringify(key)} is already used by an earlier request of this stream; each request needs its own key.`);
    }
  }

  /** Any raw JSON-RPC message, sent as is (even a broken one). */
  send(message: StreamValue<C>): this {
    check(message, `${this.#where}.send(...)`);
    return this.#add({ kind: "send", message: message as StreamValue });
  }

  /** Ends the stream with the result (wrapped as `respondsWith` would). */
  result(payload: StreamValue<C>): this {
    check(payload, `${this.#where}.result(...)`);
    this.#add({ kind: "delay", ms: 0 });
    this.steps.pop();
    this.end = { kind: "result", payload: payload as StreamValue };
    return this;
  }

  /** Ends the stream with a JSON-RPC error. */
  error(code: number, message: string, data?: unknown): this {
    if (!Number.isInteger(code) || typeof message !== "string") throw new McpMockError(`${this.#where}: error takes an integer code and a message.`);
    if (data !== undefined) check(data, `${this.#where}.error(...)`);
    this.#add({ kind: "delay", ms: 0 });
    this.steps.pop();
    this.end = data === undefined ? { kind: "error", code, message } : { kind: "error", code, message, data };
    return this;
  }
}
