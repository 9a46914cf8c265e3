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
import { isJsonObject } from "../values/json-value.js";
import { toolUseAnswerProblem } from "../protocol/sampling-tools.js";
import { CLIENT_CAPABILITY_BY_METHOD, missingClientCapability } from "../protocol/methods/index.js";
import type { Session } from "./session-store.js";
import { passesLevel, type InputRequestStep, type StreamCall, type StreamStep } from "../stubs/stream-script.js";
import type { ResponsePlan, StreamPlan } from "../stubs/stub.js";
import type { Answer } from "../stubs/answer.js";
import type { LogLevel } from "../stubs/stream-script.js";
import { inputKey, type Retry } from "./input-rounds.js";
import { assertInputAnswer } from "./input-answers.js";

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
  /** Sends a request to the client on `sink` and resolves with its answer (`key`: the script's name for it). */
  requestFromClient(method: string, params: unknown, session: Session | undefined, deliver: (message: unknown) => void, timeoutMs: number | undefined, signal: AbortSignal, key: string): Promise<unknown>;
  /** Plays the ending answer for a call. */
  finalMessage(plan: ResponsePlan, call: McpCall): Promise<JsonRpcResponse>;
  /**
   * Where a `startTask` step is reached in a call that runs as a task: creates the task, whose
   * work plays the script on from step `at` with the answers so far, and gives the message that
   * answers the call (the created task). Absent, the step plays on (the call is no task, or is
   * the task's work already).
   */
  startTask?(at: number, answers: readonly unknown[]): JsonRpcResponse | Promise<JsonRpcResponse>;
  /**
   * Takes a `notify` step's notification when it goes elsewhere than the call's stream (in
   * 2026-07-28, a server notification goes to the listen streams that asked for it); `true`
   * when it took it.
   */
  notify?(method: string, params: unknown, call: McpCall): boolean;
}

/** Where a script resumes: the step it stopped at, and the answers of the steps before. */
export interface Resume {
  readonly askedAt: number;
  readonly answers: readonly unknown[];
  /** The answers an earlier round already took for the step at `askedAt` (a group answered in part), by key. */
  readonly partial?: Readonly<Record<string, unknown>>;
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
  /** The message that ends this round at step `at`, asking `requests` by key, with the answers so far (and the step's answers taken so far, `partial`). */
  ask(at: number, requests: Record<string, { method: string; params?: unknown }>, answers: readonly unknown[], partial: Readonly<Record<string, unknown>>): JsonRpcResponse;
}

/**
 * Throws unless the session's client declared the capabilities requests need (their
 * descriptors' `clientCapability`; unknown without a session), naming every one missing.
 */
function assertClientCapabilities(methods: readonly string[], session: Session | undefined, where: string): void {
  if (!session) return;
  const missing = methods.filter((method) => {
    const capability = CLIENT_CAPABILITY_BY_METHOD.get(method);
    return capability !== undefined && session.clientCapabilities[capability] === undefined;
  });
  if (missing.length === 0) return;
  const capabilities = [...new Set(missing.map((m) => CLIENT_CAPABILITY_BY_METHOD.get(m) as string))];
  const first = missing[0] as string;
  throw new JsonRpcFailure(
    ErrorCodes.InternalError,
    `[mcpmock] ${where} sends ${missing.join(", ")}, but the client of ${session.id} did not declare ${capabilities.map((c) => `the "${c}" capability`).join(", ")} at initialize, so it cannot answer. Declare it in the client, or send it on purpose with send({ jsonrpc: "2.0", id: ..., method: ${JSON.stringify(first)}, ... }).`,
  );
}

/** {@link assertClientCapabilities} for one request, and the part of the capability its params need (`elicitation.url`, `sampling.tools`). */
export function assertClientCapability(method: string, session: Session | undefined, where: string, params?: unknown): void {
  assertClientCapabilities([method], session, where);
  const missing = session && missingClientCapability(method, isJsonObject(params) ? params : undefined, session.clientCapabilities);
  if (!session || !missing) return;
  const what = missing[1] === "url" ? 'mode "url"' : missing[1] === "tools" ? "tools" : missing.join(".");
  throw new JsonRpcFailure(
    ErrorCodes.InternalError,
    `[mcpmock] ${where} sends ${method} with ${what}, but the client of ${session.id} did not declare "${missing.join(".")}" in its capabilities at initialize (like { ${missing[0]}: { ${missing[1]}: {} } }), so it cannot answer. Declare it in the client, or send it on purpose with send({ jsonrpc: "2.0", id: ..., method: ${JSON.stringify(method)}, ... }).`,
  );
}

/** A call that also carries the client's answers so far, and the signal of its work. */
export function streamCall(call: McpCall, answers: unknown[], signal?: AbortSignal): StreamCall {
  const extended = new McpCall(call) as McpCall & { answers: unknown[]; answer: unknown };
  Object.defineProperty(extended, "answers", { value: answers, enumerable: true });
  Object.defineProperty(extended, "answer", { get: () => answers[answers.length - 1], enumerable: true });
  const carried = signal ?? call.signal;
  if (carried) Object.defineProperty(extended, "signal", { value: carried, enumerable: false });
  return extended as StreamCall;
}

/** A call with the signal of the work answering it (a task's, a stream's). */
export function withSignal<C extends McpCall>(call: C, signal: AbortSignal): C {
  const copy = Object.defineProperties(new McpCall(call), Object.getOwnPropertyDescriptors(call)) as C;
  return Object.defineProperty(copy, "signal", { value: signal, enumerable: false });
}

async function value<T>(answer: Answer<T, StreamCall>, call: StreamCall): Promise<T> {
  return typeof answer === "function" ? await (answer as (c: StreamCall) => T | Promise<T>)(call) : answer;
}

/** A `request` or `requests` step's members by key (an unnamed request's key: `elicitation-1` for the first such step). */
function membersOf(step: Extract<StreamStep, { kind: "request" | "requests" }>, n: number): Readonly<Record<string, InputRequestStep>> {
  return step.kind === "requests" ? step.requests : { [step.key ?? inputKey(step.method, n)]: step };
}

/** Records a step's answer: in order (a group's as the object of its answers), and each under its key. */
function record(answers: unknown[], step: StreamStep, members: Readonly<Record<string, InputRequestStep>>, answer: unknown): void {
  answers.push(answer);
  const keyed = answers as unknown as Record<string, unknown>;
  if (step.kind === "requests") for (const key of Object.keys(members)) keyed[key] = (answer as Record<string, unknown> | undefined)?.[key];
  else keyed[Object.keys(members)[0] as string] = answer;
}

/** Plays a stream plan for a call onto a sink. Throws a JsonRpcFailure to end with an error. */
export async function playStream(host: StreamHost, plan: StreamPlan, call: McpCall, session: Session | undefined, sink: StreamSink, where: string, rounds?: PlayRounds, resume?: Resume): Promise<void> {
  const answers: unknown[] = [];
  const signal = sink.signal;
  const sc = streamCall(call, answers, call.signal ? AbortSignal.any([call.signal, signal]) : signal);
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
  // A retry (or a task that starts part-way) replays the steps played before without sending them again.
  const prior: Resume | undefined = rounds?.retry.state ?? resume;
  const resumeAt = prior?.askedAt ?? -1;
  let asked = 0;
  for (let i = 0; i < plan.steps.length; i++) {
    const step = plan.steps[i] as StreamStep;
    const asks = step.kind === "request" || step.kind === "requests";
    if (i < resumeAt && !asks) continue;
    if (i === resumeAt && step.kind === "startTask") continue;
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
        const message = params === undefined ? { jsonrpc: "2.0", method: step.method } : { jsonrpc: "2.0", method: step.method, params };
        if (!host.notify?.(step.method, params, call)) sink.send(message);
        break;
      }
      case "delay":
        await sleep(step.ms, undefined, { signal });
        break;
      case "request":
      case "requests": {
        const members = membersOf(step, ++asked);
        if (prior && i < resumeAt) {
          record(answers, step, members, prior.answers[asked - 1]);
          break;
        }
        if (rounds) {
          const taken = await takeRound(rounds, i === resumeAt ? prior : undefined, members, sc);
          if (taken.pending) {
            sink.send(rounds.ask(i, taken.pending, answers, taken.got));
            return;
          }
          record(answers, step, members, step.kind === "request" ? Object.values(taken.got)[0] : taken.got);
          break;
        }
        assertClientCapabilities(Object.values(members).map((m) => m.method), session, where);
        const got: Record<string, unknown> = {};
        let failed: JsonRpcFailure | undefined;
        await Promise.all(
          Object.entries(members).map(async ([key, member]) => {
            const params = member.params === undefined ? undefined : await value(member.params, sc);
            assertClientCapability(member.method, session, where, params);
            try {
              got[key] = await host.requestFromClient(member.method, params, session, (m) => sink.send(m), member.timeoutMs, signal, key);
              // A wrong tool use fails the call (SEP-1577): the script would read an answer no client may send.
              const wrong = member.method === "sampling/createMessage" ? toolUseAnswerProblem(params, got[key]) : undefined;
              if (wrong !== undefined) failed = new JsonRpcFailure(ErrorCodes.InternalError, `[mcpmock] ${where}: the client's answer to sampling/createMessage ("${key}") is wrong: ${wrong}`);
            } catch (error) {
              got[key] = { error: error instanceof JsonRpcFailure ? { code: error.code, message: error.message, data: error.data } : { message: String(error) } };
            }
          }),
        );
        if (signal.aborted) return;
        if (failed !== undefined) throw failed;
        record(answers, step, members, step.kind === "request" ? Object.values(got)[0] : Object.fromEntries(Object.keys(members).map((k) => [k, got[k]])));
        break;
      }
      case "startTask":
        if (host.startTask) {
          sink.send(await host.startTask(i, [...answers]));
          return;
        }
        break;
      case "send":
        sink.send(await value(step.message, sc));
        break;
    }
  }
  const wait = sink.ready?.();
  if (wait) await wait;
  if (plan.end && !signal.aborted) sink.send(await host.finalMessage(plan.end, sc));
}

/**
 * One round's answers to a step's requests (2026-07-28): what an earlier round of the same step
 * already took, plus this retry's answers under the step's keys (others are ignored), each
 * checked to be an answer its request can take; and what is still pending, evaluated to ask again.
 */
async function takeRound(rounds: PlayRounds, prior: Resume | undefined, members: Readonly<Record<string, InputRequestStep>>, sc: StreamCall): Promise<{ got: Record<string, unknown>; pending?: Record<string, { method: string; params?: unknown }> }> {
  const got: Record<string, unknown> = { ...(prior?.partial ?? {}) };
  const pending: Record<string, { method: string; params?: unknown }> = {};
  for (const [key, member] of Object.entries(members)) {
    if (Object.hasOwn(got, key)) continue;
    const params = member.params === undefined ? undefined : await value(member.params, sc);
    if (Object.hasOwn(rounds.retry.responses, key)) {
      const answer = rounds.retry.responses[key];
      assertInputAnswer(key, member.method, params, answer);
      got[key] = answer;
    } else {
      pending[key] = params === undefined ? { method: member.method } : { method: member.method, params };
    }
  }
  return Object.keys(pending).length === 0 ? { got } : { got, pending };
}
