/**
 * Playing a stream script: each step becomes a message on the stream, server-to-client
 * requests wait for the client's answer, and the end becomes the result. Transport-neutral:
 * HTTP gives an SSE stream as the sink, stdio its stdout.
 * @module
 */
import { setTimeout as sleep } from "node:timers/promises";
import { McpCall } from "../stubs/call.js";
import { JsonRpcFailure, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import { ErrorCodes } from "../protocol/revisions.js";
import { CLIENT_CAPABILITY_BY_METHOD } from "../protocol/methods/index.js";
import type { Session } from "./session-store.js";
import { passesLevel, type StreamCall, type StreamStep } from "../stubs/stream-script.js";
import type { ResponsePlan, StreamPlan } from "../stubs/stub.js";
import type { Answer } from "../stubs/answer.js";
import type { LogLevel } from "../stubs/stream-script.js";
import { inputKey, type Retry } from "./input-rounds.js";

/** Where a stream's messages go. */
export interface StreamSink {
  send(message: unknown): void;
  /**
   * `undefined` when the sink takes more now, else a promise that resolves once it does (the
   * client has read enough). The player awaits it before each step; absent, it never waits.
   */
  ready?(): Promise<void> | undefined;
  /** Aborted when the stream must stop (cancelled, or the mock is closing). */
  readonly signal: AbortSignal;
}

/** What playing a script needs from the mock. */
export interface StreamHost {
  /** Sends a request to the client on `sink` and resolves with its answer. */
  requestFromClient(method: string, params: unknown, session: Session | undefined, deliver: (message: unknown) => void, timeoutMs: number | undefined, signal: AbortSignal): Promise<unknown>;
  /** Plays the ending answer for a call. */
  finalMessage(plan: ResponsePlan, call: McpCall): Promise<JsonRpcResponse>;
}

/**
 * How a script plays in the stateless era (2026-07-28): its `request` steps become
 * `input_required` rounds (see `input-rounds.ts`), and logs follow the request's own level.
 */
export interface PlayRounds {
  /** What this request brought: the state it resumes and its answers to the last round. */
  readonly retry: Retry;
  /** The log level the request's envelope set; none, no logs. */
  readonly logLevel: LogLevel | undefined;
  /** The message that ends this round at step `at`, asking `method` under `key`, with the answers so far. */
  ask(at: number, key: string, method: string, params: unknown, answers: readonly unknown[]): JsonRpcResponse;
}

/**
 * Throws unless the session's client declared the capability a request needs (its
 * descriptor's `clientCapability`; unknown without a session).
 */
export function assertClientCapability(method: string, session: Session | undefined, where: string): void {
  const capability = CLIENT_CAPABILITY_BY_METHOD.get(method);
  if (!capability || !session) return;
  if (session.clientCapabilities[capability] !== undefined) return;
  throw new JsonRpcFailure(
    ErrorCodes.InternalError,
    `[mcpmock] ${where} sends ${method}, but the client of ${session.id} did not declare the "${capability}" capability at initialize, so it cannot answer. Declare it in the client, or send it on purpose with send({ jsonrpc: "2.0", id: ..., method: ${JSON.stringify(method)}, ... }).`,
  );
}

/** A call that also carries the client's answers so far. */
export function streamCall(call: McpCall, answers: unknown[]): StreamCall {
  const extended = new McpCall(call) as McpCall & { answers: unknown[]; answer: unknown };
  Object.defineProperty(extended, "answers", { value: answers, enumerable: true });
  Object.defineProperty(extended, "answer", { get: () => answers[answers.length - 1], enumerable: true });
  return extended as StreamCall;
}

async function value<T>(answer: Answer<T, StreamCall>, call: StreamCall): Promise<T> {
  return typeof answer === "function" ? await (answer as (c: StreamCall) => T | Promise<T>)(call) : answer;
}

/** Plays a stream plan for a call onto a sink. Throws a JsonRpcFailure to end with an error. */
export async function playStream(host: StreamHost, plan: StreamPlan, call: McpCall, session: Session | undefined, sink: StreamSink, where: string, rounds?: PlayRounds): Promise<void> {
  const answers: unknown[] = [];
  const sc = streamCall(call, answers);
  const signal = sink.signal;
  if (plan.source) {
    for await (const message of plan.source(sc)) {
      const wait = sink.ready?.();
      if (wait) await wait;
      if (signal.aborted) return;
      sink.send(message);
    }
    return;
  }
  const meta = call.params?.["_meta"] as { progressToken?: unknown } | undefined;
  const token = meta?.progressToken;
  // A retry replays the steps the earlier rounds sent without sending them again.
  const state = rounds?.retry.state;
  const resumeAt = state?.askedAt ?? -1;
  let requests = 0;
  for (let i = 0; i < plan.steps.length; i++) {
    const step = plan.steps[i] as StreamStep;
    if (i < resumeAt && step.kind !== "request") continue;
    const wait = sink.ready?.();
    if (wait) await wait;
    if (signal.aborted) return;
    if (i > resumeAt && i > 0 && plan.delayBetween) await sleep(plan.delayBetween, undefined, { signal });
    switch (step.kind) {
      case "progress":
        if (token === undefined) break;
        sink.send({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: token, progress: step.progress, ...(step.total === undefined ? {} : { total: step.total }), ...(step.message === undefined ? {} : { message: step.message }) },
        });
        break;
      case "log":
        if (rounds ? rounds.logLevel === undefined || !passesLevel(step.level, rounds.logLevel) : !passesLevel(step.level, session?.logLevel)) break;
        sink.send({
          jsonrpc: "2.0",
          method: "notifications/message",
          params: { level: step.level, ...(step.logger === undefined ? {} : { logger: step.logger }), data: await value(step.data, sc) },
        });
        break;
      case "notify": {
        const params = step.params === undefined ? undefined : await value(step.params, sc);
        sink.send(params === undefined ? { jsonrpc: "2.0", method: step.method } : { jsonrpc: "2.0", method: step.method, params });
        break;
      }
      case "delay":
        await sleep(step.ms, undefined, { signal });
        break;
      case "request": {
        if (rounds) {
          const n = ++requests;
          if (state && n <= state.answers.length) {
            answers.push(state.answers[n - 1]);
            break;
          }
          const key = inputKey(step.method, n);
          if (Object.hasOwn(rounds.retry.responses, key)) {
            answers.push(rounds.retry.responses[key]);
            break;
          }
          const params = step.params === undefined ? undefined : await value(step.params, sc);
          sink.send(rounds.ask(i, key, step.method, params, answers));
          return;
        }
        assertClientCapability(step.method, session, where);
        const params = step.params === undefined ? undefined : await value(step.params, sc);
        try {
          answers.push(await host.requestFromClient(step.method, params, session, (m) => sink.send(m), step.timeoutMs, signal));
        } catch (error) {
          if (signal.aborted) return;
          answers.push({ error: error instanceof JsonRpcFailure ? { code: error.code, message: error.message, data: error.data } : { message: String(error) } });
        }
        break;
      }
      case "send":
        sink.send(await value(step.message, sc));
        break;
    }
  }
  const wait = sink.ready?.();
  if (wait) await wait;
  if (plan.end && !signal.aborted) sink.send(await host.finalMessage(plan.end, sc));
}
