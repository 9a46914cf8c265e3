/**
 * Playing one answer of a stub for a call: a plan becomes the outcome the transport renders.
 * Constant answers are made and serialized once; answers that are functions of the call are
 * evaluated (synchronously when they return a value, so the transport answers without a hop).
 * @module
 */
import { McpCall } from "../stubs/call.js";
import { type RequestId } from "../protocol/jsonrpc.js";
import { McpMockError, PREFIX } from "../values/errors.js";
import { assertJsonCarriable, isJsonObject, isPlainJsonValue } from "../values/json-value.js";
import { JsonRpcFailure, resultResponse, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import { assertClientAccepts } from "../stubs/client-acceptance.js";
import type { McpMockOptions } from "../options.js";
import { ErrorCodes, supportedRevision } from "../protocol/revisions.js";
import { EMPTY_RESULT_BY_METHOD, OPENING_METHODS } from "../protocol/methods/index.js";
import { isPromptResult, toMessages } from "../stubs/prompt-catalog.js";
import { readBytesAsBase64, wrapReadPayload } from "../stubs/resource-catalog.js";
import type { ResponsePlan, Stub } from "../stubs/stub.js";
import { toolResultJson, wrapToolPayload, type WrapContext } from "../stubs/tool-result.js";
import { defaultInitializeResult } from "./built-ins/initialize.js";
import type { DefaultsSource } from "./built-ins/source.js";
import type { ClientRequests } from "./client-requests.js";
import type { InitializeOutcome, Outcome } from "./outcome.js";
import { errorMessage } from "./selection.js";
import { playStream, type PlayRounds, type Resume, type StreamHost, type StreamSink } from "./stream-player.js";
import { assertRoundsAllowed, completeResult, type CacheHints } from "./eras/stateless-results.js";
import type { InputRounds, Retry } from "./input-rounds.js";
import { MetaKeys } from "../protocol/revisions.js";
import type { LogLevel } from "../stubs/stream-script.js";
import type { ProxiedAnswers } from "./proxied-answers.js";
import { isListened } from "./subscriptions.js";

/** What answers read from the mock. */
interface AnswerSource extends DefaultsSource {
  readonly requests: ClientRequests;
  /** Seals and opens the state of 2026-07-28 input rounds. */
  readonly inputRounds: InputRounds;
  /** The cache hints 2026-07-28 results carry unless their answer sets them. */
  cacheHints(): CacheHints;
  /** Sends a notification to the 2026-07-28 listen streams whose filter asks for it. */
  toListeners(method: string, params: Record<string, unknown> | undefined): void;
  /** Proxy mode's answers (the upstream's), when the mock has an upstream. */
  readonly proxied: ProxiedAnswers | undefined;
  /** `strict`: every result is checked to be one a client accepts before it is sent. */
  readonly options: Pick<McpMockOptions, "strict">;
}

/** Where a 2026-07-28 call stands among its input rounds, and which answer of its stub it plays. */
export interface RoundsContext {
  readonly retry: Retry;
  /** The index of the stub's answer being played (a state resumes the same one). */
  readonly response: number;
}

/** A constant answer's result and its JSON. */
interface ConstantResult {
  readonly result: unknown;
  readonly json: string;
}

/** Plays answers. */
export class Answers {
  readonly #source: AnswerSource;
  /** Constant answers' results and their JSON, by plan (see #constant). */
  readonly #constants = new WeakMap<ResponsePlan, ConstantResult[]>();
  /** The 2026-07-28 form of constant results, by the session-era result. */
  readonly #completed = new WeakMap<object, ConstantResult>();
  /** With `strict`, the constant results that passed the check, and what they were checked for. */
  readonly #accepted = new WeakMap<object, { readonly method: string; readonly name: string | undefined; readonly outputCheck: unknown }>();
  /** Proxy mode: the upstream's tools were asked for (once; a tool they do not name is then wrapped as undeclared). */
  readonly #learned = new WeakSet<ProxiedAnswers>();

  constructor(source: AnswerSource) {
    this.#source = source;
  }

  /**
   * Plays one answer for a call. `stub` gives URI-template captures for reads; `rounds` is
   * where a 2026-07-28 call stands (its results are completed the stateless era's way); `host`,
   * a stream's own host (a task's); `resume`, where a task's work resumes its script (at its
   * `startTask` step).
   */
  play(plan: ResponsePlan, call: McpCall, where: string, stub?: Stub, rounds?: RoundsContext, host?: StreamHost, resume?: Resume): Outcome | Promise<Outcome> {
    let outcome = this.#play(plan, call, where, stub, rounds, host, resume);
    if (this.#source.options.strict === true) outcome = outcome instanceof Promise ? outcome.then((o) => this.#strict(o, call, where)) : this.#strict(outcome, call, where);
    if (!supportedRevision(call.protocolVersion).stateless) return outcome;
    return outcome instanceof Promise ? outcome.then((o) => this.complete(o, call)) : this.complete(outcome, call);
  }

  /**
   * An outcome as the call's era sends it: for a 2026-07-28 call, its result with `resultType`
   * and, for lists and reads, the cache hints (constant results completed once).
   */
  complete(outcome: Outcome, call: McpCall): Outcome {
    if ((outcome.kind !== "message" && outcome.kind !== "fault") || !supportedRevision(call.protocolVersion).stateless) return outcome;
    const message = outcome.message;
    if (!("result" in message)) return outcome;
    // A result computed for this call was completed when it was made (see #computed).
    if (outcome.kind === "message" && outcome.resultJson !== undefined && outcome.shared !== true) return outcome;
    const hints = this.#source.cacheHints();
    if (outcome.kind === "message" && outcome.resultJson !== undefined && isJsonObject(message.result)) {
      let found = this.#completed.get(message.result);
      if (!found) {
        const result = completeResult(message.result, call.method, hints);
        this.#completed.set(message.result, (found = { result, json: JSON.stringify(result) }));
      }
      return constantMessage(call, found);
    }
    return { ...outcome, message: resultResponse(call.id as RequestId, completeResult(message.result, call.method, hints)) } as Outcome;
  }

  /**
   * With `strict`, a result the client would reject becomes a -32603 error that says why. A
   * constant one is checked on its first call only (the DSL checked it at stub time, but not
   * against a tool declared later, nor a definition file's).
   */
  #strict(outcome: Outcome, call: McpCall, where: string): Outcome {
    if (outcome.kind !== "message" || !("result" in outcome.message)) return outcome;
    const result = outcome.message.result;
    const name = call.method === "tools/call" && supportedRevision(call.protocolVersion).structuredContent ? call.name : undefined;
    const outputCheck = name === undefined ? undefined : this.#source.tools.outputCheck(name);
    // A constant result is checked once (again only if asked for by another method or tool, or its tool was declared anew).
    const shared = outcome.shared === true && isJsonObject(result) ? result : undefined;
    const passed = shared && this.#accepted.get(shared);
    if (passed && passed.method === call.method && passed.name === name && passed.outputCheck === outputCheck) return outcome;
    try {
      assertClientAccepts(call.method, result, `the answer of ${where}`, name === undefined ? undefined : { name, outputCheck });
    } catch (error) {
      throw new JsonRpcFailure(ErrorCodes.InternalError, (error as Error).message);
    }
    if (shared) this.#accepted.set(shared, { method: call.method, name, outputCheck });
    return outcome;
  }

  #play(plan: ResponsePlan, call: McpCall, where: string, stub: Stub | undefined, rounds: RoundsContext | undefined, taskHost?: StreamHost, resume?: Resume): Outcome | Promise<Outcome> {
    switch (plan.kind) {
      case "result":
        if (OPENING_METHODS.has(call.method)) return after(evaluate(plan.result, call, where), (result) => this.#result(plan, call, result));
        if (typeof plan.result !== "function") return constantMessage(call, this.#constant(plan, 0, () => plan.result));
        return this.#computed(plan.result, call, call, where, asIs);
      case "resource-result": {
        const uri = call.uri as string;
        const variables = Object.assign({}, ...(stub?.matchers ?? []).map((m) => m.captures?.(call) ?? {})) as Record<string, unknown>;
        // A copy that keeps what the call carries (a stream's answers too), plus the variables.
        const readCall = Object.defineProperties(new McpCall(call), Object.getOwnPropertyDescriptors(call));
        // A function's answer may carry bytes, as a constant one may: they go out as base64.
        const answer = typeof plan.payload === "function" ? (c: McpCall) => after((plan.payload as (c: McpCall) => unknown)(c), readBytesAsBase64) : plan.payload;
        return this.#computed(answer, Object.assign(readCall, { variables }), call, where, (payload) => wrapReadPayload(payload, uri, plan.mimeType));
      }
      case "prompt-result": {
        const promptResult = (payload: unknown): unknown => {
          const result = isPromptResult(payload) ? payload : { messages: toMessages(payload, `the answer of ${where}`) };
          return plan.description === undefined ? result : { description: plan.description, ...result };
        };
        if (typeof plan.payload !== "function") return constantMessage(call, this.#constant(plan, 0, () => promptResult(plan.payload)));
        return this.#computed(plan.payload, call, call, where, promptResult);
      }
      case "tool-result": {
        const tool = call.name === undefined ? undefined : this.#source.tools.get(call.name);
        // In proxy mode, a tool the mock does not declare is wrapped as the upstream declares it.
        const proxied = tool === undefined && call.name !== undefined ? this.#source.proxied : undefined;
        const upstreamSchema = proxied?.upstreamOutputSchema(call.name as string);
        if (proxied && upstreamSchema === undefined && !this.#learned.has(proxied)) {
          this.#learned.add(proxied);
          return proxied.learnTools(call).then(() => this.#play(plan, call, where, stub, rounds, taskHost, resume));
        }
        // Wrapping depends on the tool's declaration and the revision: one result for each way.
        const variant = (tool?.outputSchema !== undefined || upstreamSchema === true ? 2 : 0) + (supportedRevision(call.protocolVersion).structuredContent ? 1 : 0);
        const wrap = TOOL_WRAPPINGS[(plan.isError ? 4 : 0) + variant] as (payload: unknown) => unknown;
        if (typeof plan.payload !== "function") return constantMessage(call, this.#constant(plan, variant, () => wrap(plan.payload)));
        return this.#computed(plan.payload, call, call, where, wrap, toolResultJson);
      }
      case "error":
        return { kind: "message", message: errorMessage(call, plan.code, plan.message, plan.data) };
      case "status":
        return { kind: "status", status: plan.status, ...(plan.body === undefined ? {} : { body: plan.body }), ...(plan.headers ? { headers: plan.headers } : {}) };
      case "fault": {
        const faulted = (message: JsonRpcResponse): Outcome => ({ kind: "fault", fault: plan.fault, ...(plan.after === undefined ? {} : { after: plan.after }), message });
        // In proxy mode the real server answers and the fault breaks its answer on the way back.
        if (this.#source.proxied) return this.#source.proxied.message(call).then(faulted);
        return faulted(resultResponse(call.id as RequestId, EMPTY_RESULT_BY_METHOD.get(call.method) ?? {}));
      }
      case "proxy": {
        const own = plan.own;
        if (this.#source.proxied) return this.#source.proxied.play(plan, call, own && (() => this.#play(own, call, where, stub, undefined)));
        return { kind: "message", message: errorMessage(call, ErrorCodes.InternalError, `${PREFIX} ${where} proxies to the upstream, but this mock has none: start it with proxy: { target: "http://..." } or { command: "..." }.`) };
      }
      case "stream": {
        const session = call.sessionId === undefined ? undefined : this.#source.sessions.get(call.sessionId);
        const host = taskHost ?? this.streamHost(stub);
        let played: PlayRounds | undefined;
        if (rounds) {
          assertRoundsAllowed(plan, call, where);
          played = this.#rounds(rounds, call, stub);
        }
        const run = (sink: StreamSink): Promise<void> => playStream(host, plan, call, session, sink, where, played, resume);
        return plan.dropAfter === undefined ? { kind: "stream", run } : { kind: "stream", run, dropAfter: plan.dropAfter };
      }
    }
  }

  /**
   * What a stream script plays with: server-to-client requests, and its ending answer, played
   * with `stub` so that it sees the stub's URI-template captures.
   */
  streamHost(stub?: Stub): StreamHost {
    const requests = this.#source.requests;
    return {
      requestFromClient: (method, params, session, deliver, timeoutMs, signal) => requests.send(method, params, session, deliver, timeoutMs, signal),
      finalMessage: (end, streamCall) => this.finalMessage(end, streamCall, stub),
      notify: (method, params, call) => {
        if (!isListened(method) || !supportedRevision(call.protocolVersion).stateless) return false;
        this.#source.toListeners(method, isJsonObject(params) ? params : undefined);
        return true;
      },
    };
  }

  /** How a 2026-07-28 call's script plays its request steps as rounds. */
  #rounds({ retry, response }: RoundsContext, call: McpCall, stub: Stub | undefined): PlayRounds {
    const meta = call.params?.["_meta"] as Record<string, unknown> | undefined;
    return {
      retry,
      logLevel: meta?.[MetaKeys.logLevel] as LogLevel | undefined,
      ask: (at, inputRequests, answers, partial) => {
        const state = { stubId: stub?.id ?? "", response, answers: [...answers], askedAt: at, round: (retry.state?.round ?? 0) + 1, ...(Object.keys(partial).length === 0 ? {} : { partial }) };
        return resultResponse(call.id as RequestId, { resultType: "input_required", inputRequests, requestState: this.#source.inputRounds.seal(state, call) });
      },
    };
  }

  /** Plays the answer that ends a stream. */
  async finalMessage(plan: ResponsePlan, call: McpCall, stub?: Stub): Promise<JsonRpcResponse> {
    const outcome = await this.play(plan, call, "the stream", stub);
    if (outcome.kind === "message" || outcome.kind === "fault") return outcome.message;
    return errorMessage(call, ErrorCodes.InternalError, `${PREFIX} a stream cannot end with ${outcome.kind === "status" ? `HTTP ${outcome.status}` : "another stream"}.`);
  }

  /**
   * An answer made for this call: `answer` (a value, or a function of `evaluated`) shaped into
   * the result, completed for the call's era and serialized once, here: the transport writes
   * that JSON (written by `json`, which writes what `JSON.stringify` does) and the journal counts
   * its length, so nothing walks the result again. A promise only when the function returns one.
   */
  #computed(answer: unknown, evaluated: McpCall, call: McpCall, where: string, shape: (value: unknown) => unknown, json: JsonWriter = JSON.stringify): Outcome | Promise<Outcome> {
    const value: unknown = typeof answer === "function" ? (answer as (c: McpCall) => unknown)(evaluated) : answer;
    if (isThenable(value)) return Promise.resolve(value).then((settled) => this.#message(call, shape(checked(settled, where)), json));
    return this.#message(call, shape(checked(value, where)), json);
  }

  /** A result made for one call, as the call's era sends it, with its JSON. */
  #message(call: McpCall, result: unknown, write: JsonWriter): Outcome {
    const sent = supportedRevision(call.protocolVersion).stateless ? completeResult(result, call.method, this.#source.cacheHints()) : result;
    const message = resultResponse(call.id as RequestId, sent);
    const json = write(sent);
    return json === undefined ? { kind: "message", message } : { kind: "message", message, resultJson: json };
  }

  /**
   * A constant answer's result, made and serialized once for each variant of it (answers are
   * copied at stub time, so a constant cannot change).
   */
  #constant(plan: ResponsePlan, variant: number, make: () => unknown): ConstantResult {
    let variants = this.#constants.get(plan);
    if (!variants) this.#constants.set(plan, (variants = []));
    let found = variants[variant];
    if (!found) {
      const result = make();
      found = variants[variant] = { result, json: JSON.stringify(result) };
    }
    return found;
  }

  /** A plain result; for the opening request (initialize), merged onto the default one and carrying what the session needs. */
  #result(plan: Extract<ResponsePlan, { kind: "result" }>, call: McpCall, value: unknown): Outcome {
    let result = value;
    let initialize: InitializeOutcome | undefined;
    if (OPENING_METHODS.has(call.method) && isJsonObject(result)) {
      result = { ...defaultInitializeResult(this.#source, call), ...result };
      initialize = {
        sessionId: plan.sessionId,
        protocolVersion: String((result as Record<string, unknown>)["protocolVersion"]),
        clientCapabilities: isJsonObject(call.params?.["capabilities"]) ? call.params["capabilities"] : {},
        clientInfo: isJsonObject(call.params?.["clientInfo"]) ? call.params["clientInfo"] : undefined,
      };
    }
    const message = resultResponse(call.id as RequestId, result);
    return initialize ? { kind: "message", message, initialize } : { kind: "message", message };
  }
}

/**
 * The eight ways to wrap a tool payload, by isError (4), the tool's outputSchema (2) and the
 * revision's structuredContent (1), each made once: a function answer's call builds none.
 */
const TOOL_WRAPPINGS: readonly ((payload: unknown) => unknown)[] = Array.from({ length: 8 }, (_, i) => {
  const context: WrapContext = { isError: (i & 4) !== 0, hasOutputSchema: (i & 2) !== 0, structuredContent: (i & 1) !== 0 };
  return (payload: unknown) => wrapToolPayload(payload, context);
});

/** Writes a result's JSON as `JSON.stringify` does (`undefined` where it gives `undefined`). */
type JsonWriter = (result: unknown) => string | undefined;

function constantMessage(call: McpCall, { result, json }: ConstantResult): Outcome {
  return { kind: "message", message: resultResponse(call.id as RequestId, result), resultJson: json, shared: true };
}

function asIs(value: unknown): unknown {
  return value;
}

/** A value an answer function returned, once checked to be JSON. */
function checked(value: unknown, stubId: string): unknown {
  // A JSON-RPC result cannot be nothing: undefined went out as a response without "result" (a
  // malformed message that SDK clients fail to parse) or as a tool's text "null".
  if (value === undefined) {
    throw new McpMockError(`the answer function of ${stubId} returned undefined, which is no answer. Return a value: {} for an empty result, "" for an empty text.`);
  }
  // The usual value passes the quick walk, before any message is put together.
  if (!isPlainJsonValue(value)) assertJsonCarriable(value, `the answer function of ${stubId}`, "returned value");
  return value;
}

/** Evaluates an answer that may be a function of the call; checks a computed value is JSON. A promise only when the function returns one. */
function evaluate(answer: unknown, call: McpCall, stubId: string): unknown {
  if (typeof answer !== "function") return answer;
  const value: unknown = (answer as (c: McpCall) => unknown)(call);
  return isThenable(value) ? Promise.resolve(value).then((v) => checked(v, stubId)) : checked(value, stubId);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function";
}

/** Applies `then` to a value now, or to a promise's value once it settles. */
function after<R>(value: unknown, then: (value: unknown) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(then) : then(value);
}
