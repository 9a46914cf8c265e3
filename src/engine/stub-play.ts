/**
 * Playing the answer a stub chose for a call, with the tasks' part: a call that runs as a task
 * is the task at once (its work asks through the task: `tasks/update` in 2026-07-28), unless
 * its script has a `startTask` step, which it plays as the call up to that step (in 2026-07-28
 * as `input_required` rounds) and the task starts there, its work playing on from the step
 * with the answers so far. The task's work sees the task's signal (`tasks/cancel`) as
 * `call.signal`.
 * @module
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { JsonRpcResponse } from "../protocol/jsonrpc.js";
import type { McpCall } from "../stubs/call.js";
import { drawDelay } from "../stubs/random-delay.js";
import type { ResponsePlan, Stub } from "../stubs/stub.js";
import type { Answers, RoundsContext } from "./answers.js";
import type { Retry } from "./input-rounds.js";
import type { Outcome } from "./outcome.js";
import { withSignal, type Resume, type StreamHost } from "./stream-player.js";
import type { TaskWork } from "./tasks/task-runner.js";
import type { Tasks } from "./tasks/tasks.js";

/** What playing a stub's answer needs from the core. */
export interface StubPlayer {
  readonly answers: Answers;
  readonly tasks: Tasks;
  /** The mock's seeded random numbers (for random delays). */
  random(): number;
  readonly closing: AbortSignal;
}

/** Plays `plan`, the answer of `stub` at index `response`, for `call` (a 2026-07-28 call brings its `retry`). */
export function playStub(core: StubPlayer, stub: Stub, plan: ResponsePlan, response: number, call: McpCall, retry: Retry | undefined): Outcome | Promise<Outcome> {
  const asTask = core.tasks.wants(call, plan);
  const startsLater = asTask && plan.kind === "stream" && plan.steps.some((step) => step.kind === "startTask");
  const rounds: RoundsContext | undefined = retry && (!asTask || startsLater) ? { retry, response } : undefined;
  const delayed = (answer: () => Outcome | Promise<Outcome>, signal: AbortSignal): Outcome | Promise<Outcome> =>
    stub.delay === undefined ? answer() : sleep(drawDelay(stub.delay, () => core.random()), undefined, { signal }).then(answer);
  // The common case first, without building anything a task needs.
  if (!asTask) return delayed(() => core.answers.play(plan, call, stub.id, stub, rounds), core.closing);
  const work = (resume?: Resume): TaskWork => (host, signal) => {
    const answer = (): Outcome | Promise<Outcome> => core.answers.play(plan, withSignal(call, signal), stub.id, stub, undefined, host, resume);
    return resume ? answer() : delayed(answer, signal);
  };
  const base = core.answers.streamHost(stub);
  if (!startsLater) return core.tasks.start(call, stub, work(), base);
  const startTask = (askedAt: number, answers: readonly unknown[]): JsonRpcResponse => (core.tasks.start(call, stub, work({ askedAt, answers }), base) as { message: JsonRpcResponse }).message;
  const host: StreamHost = { ...base, startTask };
  return delayed(() => core.answers.play(plan, call, stub.id, stub, rounds, host), core.closing);
}
