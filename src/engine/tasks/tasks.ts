/**
 * The mock's tasks (2025-11-25): which calls run as tasks, starting them, and the built-in
 * answers of `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`. The store and the
 * runner know no wire form; this file speaks the 2025-11-25 one (`wire-2025.ts`). The core
 * calls three things: {@link Tasks.select}, {@link Tasks.wants} and {@link Tasks.start}.
 * @module
 */
import { PREFIX } from "../../values/errors.js";
import { JsonRpcFailure, resultResponse } from "../../protocol/jsonrpc.js";
import { ErrorCodes } from "../../protocol/revisions.js";
import { InvalidCursorError, page } from "../../protocol/pagination.js";
import type { TaskAnswers } from "../built-ins/source.js";
import { METHOD_BY_NAME } from "../../protocol/methods/index.js";
import type { McpCall } from "../../stubs/call.js";
import type { RequestId } from "../../protocol/jsonrpc.js";
import type { ResponsePlan, Stub } from "../../stubs/stub.js";
import type { ToolCatalog } from "../../stubs/tool-catalog.js";
import type { JsonRpcResponse } from "../../protocol/jsonrpc.js";
import { clientGone, requestKey, type Outcome } from "../outcome.js";
import type { InFlight } from "../../values/in-flight.js";
import type { Selection } from "../selection.js";
import type { StreamHost } from "../stream-player.js";
import type { SessionStore } from "../session-store.js";
import { isTerminal, TaskStore, TaskStoreFull, type TaskRecord } from "./task-store.js";
import type { TaskOptions } from "../../options.js";
/** Declared with the options since issue 43; re-exported for code that imports it from here. */
export type { TaskOptions } from "../../options.js";
import { PollGate, runTask, type RunnerHost, type TaskWork } from "./task-runner.js";
import { createTaskResult, RELATED_TASK_META_KEY, statusNotification, TaskErrors, taskJson } from "./wire-2025.js";
import { createTaskResult2026, detailedTask2026, optsIntoTasks, TASKS_EXTENSION } from "./wire-2026.js";
import { TaskInputs } from "./task-inputs.js";
import { supportedRevision } from "../../protocol/revisions.js";
import { isJsonObject } from "../../values/json-value.js";
import { MAX_DELAY_MS } from "../../values/max-delay.js";

/** The revisions whose calls may run as tasks this way: those the task methods exist in. */
const TASK_REVISIONS: readonly string[] = METHOD_BY_NAME.get("tasks/get")?.revisions ?? [];

/** The task methods of the 2026-07-28 extension, refused to a request that does not declare it. */
const EXTENSION_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

/** A request the tasks refuse: its error answer, and no miss to report. */
type Refusal = { readonly message: JsonRpcResponse; readonly miss: undefined };

/** The 2026-07-28 refusal of a request that uses tasks without declaring the extension. */
function missingExtension(call: McpCall): Refusal {
  const error = { code: ErrorCodes.MissingRequiredClientCapability, message: `Missing required client capability: extensions.${TASKS_EXTENSION}`, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } };
  return { message: { jsonrpc: "2.0", id: call.id ?? null, error } as JsonRpcResponse, miss: undefined };
}

/** Default ttl of a task the client did not give one: one minute. */
const DEFAULT_TASK_TTL_MS = 60_000;
/** Default `pollInterval` a task suggests: short, since a mock's tasks are for tests. */
export const DEFAULT_TASK_POLL_INTERVAL_MS = 100;
/** The longest ttl a client may ask for (one hour); a longer one is cut to it. */
export const MAX_REQUESTED_TASK_TTL_MS = 3_600_000;
/** The longest `pollInterval` a client may ask for (one minute). */
const MAX_REQUESTED_POLL_INTERVAL_MS = 60_000;

/** A client's number of milliseconds, if it is one (finite, 0 or more), cut to `max`. */
function requestedMs(value: unknown, max: number): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.min(Math.floor(value), max) : undefined;
}

/** What the tasks read from the mock. */
interface TaskEnvironment {
  readonly tools: ToolCatalog;
  readonly sessions: SessionStore;
  readonly closing: AbortSignal;
  /** The requests a client's `notifications/cancelled` stops, by session and request id: a waiting `tasks/result` is one. */
  readonly inflight: Pick<InFlight<AbortController>, "get" | "set" | "delete">;
  readonly options: { readonly tasks?: TaskOptions; readonly clientTimeoutMs?: number; readonly pageSize?: number };
  /** Sends a notification to the 2026-07-28 listen streams whose filter lets it through (a task's: those of its `principal`). */
  broadcast(method: string, params: Record<string, unknown>, principal?: string): void;
  /** Sends a message to a session's push stream, held until the stream opens. */
  deliver(sessionId: string, message: unknown): void;
}

/** How a declared tool runs with tasks. */
type TaskSupport = "forbidden" | "optional" | "required";

/** The mock's tasks. */
export class Tasks implements TaskAnswers {
  readonly store: TaskStore;
  readonly #env: TaskEnvironment;
  readonly #gates = new WeakMap<TaskRecord, PollGate>();
  readonly #runner: RunnerHost;
  /** The tasks of the 2026-07-28 extension (the others speak 2025-11-25), and what they wait for. */
  readonly #modern = new WeakSet<TaskRecord>();
  readonly #inputs = new TaskInputs();

  constructor(env: TaskEnvironment) {
    this.#env = env;
    const o = env.options.tasks ?? {};
    this.store = new TaskStore({ ...(o.maxTasks === undefined ? {} : { maxTasks: o.maxTasks }), ...(o.maxBytes === undefined ? {} : { maxBytes: o.maxBytes }), ...(o.maxTasksPerSession === undefined ? {} : { maxTasksPerOwner: o.maxTasksPerSession }), ...(o.ids === undefined ? {} : { ids: o.ids }) });
    this.store.onChange((task) =>
      this.#modern.has(task) ? env.broadcast("notifications/tasks", detailedTask2026(task, this.#inputs.requests(task)), task.principal) : this.#deliver(task.sessionId, statusNotification(task)),
    );
    env.closing.addEventListener("abort", () => this.store.clear(), { once: true });
    this.#runner = {
      store: this.store,
      closing: env.closing,
      deliver: (sessionId, message) => this.#deliver(sessionId, message),
      toolErrorFails: (task) => !this.#modern.has(task),
    };
  }

  /**
   * How a call's tool runs with tasks (an undeclared tool: forbidden). Only at the revisions the
   * task methods exist in (2025-11-25): older clients know no tasks, and the 2026-07-28
   * extension opts in its own way.
   */
  support(call: McpCall): TaskSupport {
    if (call.method !== "tools/call" || call.name === undefined || !TASK_REVISIONS.includes(call.protocolVersion)) return "forbidden";
    return this.#env.tools.get(call.name)?.execution?.taskSupport ?? "forbidden";
  }

  /**
   * The refusal of a plain call of a tool that requires a task: -32601 as the SDK's server says
   * it; in 2026-07-28, -32021 naming the extension the request did not declare.
   */
  #refusal(call: McpCall): Refusal | undefined {
    // Only a tool call or a task method can be refused: every other request costs one comparison here.
    const toolCall = call.method === "tools/call";
    if (!toolCall && !EXTENSION_METHODS.has(call.method)) return undefined;
    const stateless = supportedRevision(call.protocolVersion).stateless;
    // 2026-07-28: the task methods belong to the extension; a request that does not declare it cannot use them.
    if (!toolCall) return stateless && !optsIntoTasks(call) ? missingExtension(call) : undefined;
    if (!stateless && asksForTask(call) && this.#declaredForbidden(call)) {
      const error = { code: ErrorCodes.MethodNotFound, message: `Tool ${call.name as string} does not support task-augmented execution`, data: `${PREFIX} the tool is declared without execution.taskSupport "optional" or "required"; call it without params.task, or declare it with execution: { taskSupport: "optional" }.` };
      return { message: { jsonrpc: "2.0", id: call.id ?? null, error } as JsonRpcResponse, miss: undefined };
    }
    if (this.support(call) !== "required" || asksForTask(call)) return undefined;
    if (stateless) return missingExtension(call);
    const message: JsonRpcResponse = {
      jsonrpc: "2.0",
      id: call.id ?? null,
      error: { code: ErrorCodes.MethodNotFound, message: TaskErrors.required(call.name as string), data: `${PREFIX} send params.task (the SDK: client.experimental.tasks.callToolStream), or declare the tool with execution: { taskSupport: "optional" }.` },
    } as JsonRpcResponse;
    return { message, miss: undefined };
  }

  /**
   * The stub that answers a call, chosen by `choose`, with the tasks' part: a plain call of a
   * `required` tool is refused, and a task-augmented call that no stub answers gets a task too,
   * which fails with the miss answer (its guidance in the status message and in `tasks/result`).
   */
  select(call: McpCall, choose: () => Selection): Selection {
    const refused = this.#refusal(call);
    if (refused) return refused;
    const chosen = choose();
    if ("entry" in chosen || !("result" in chosen.message) || this.support(call) === "forbidden" || !asksForTask(call)) return chosen;
    const created = this.start(call, undefined, () => ({ kind: "message", message: chosen.message }));
    return created.kind === "message" ? { message: created.message, ...(chosen.miss === undefined ? {} : { miss: chosen.miss }) } : chosen;
  }

  /** A 2025-11-25 call of a declared tool whose taskSupport is `forbidden` (or not given, which means it). */
  #declaredForbidden(call: McpCall): boolean {
    if (call.name === undefined || !TASK_REVISIONS.includes(call.protocolVersion)) return false;
    const tool = this.#env.tools.get(call.name);
    return tool !== undefined && (tool.execution?.taskSupport ?? "forbidden") === "forbidden";
  }

  /** Whether a call runs as a task: it asks for one, its tool allows it, and its answer is one a task can give. */
  wants(call: McpCall, plan: ResponsePlan): boolean {
    return this.support(call) !== "forbidden" && asksForTask(call) && plan.kind !== "status" && plan.kind !== "fault";
  }

  /** Creates the task, starts its work (the answer of `stub`, if one answers), and answers the call with the task at once. */
  start(call: McpCall, stub: Stub | undefined, work: TaskWork, host: StreamHost = NO_STREAM_HOST): Outcome {
    const requested = (call.params?.["task"] ?? {}) as { ttl?: unknown; pollInterval?: unknown };
    const modern = supportedRevision(call.protocolVersion).stateless;
    const o = this.#env.options.tasks ?? {};
    const plan = stub?.task;
    // What the client asks is bounded (a negative pollInterval or a ttl of 1e308 is not taken as given).
    const askedTtl = requestedMs(requested.ttl, MAX_REQUESTED_TASK_TTL_MS);
    const ttl = plan?.ttl !== undefined ? plan.ttl : askedTtl !== undefined ? askedTtl : o.ttl !== undefined ? o.ttl : DEFAULT_TASK_TTL_MS;
    const pollInterval = plan?.pollInterval ?? requestedMs(requested.pollInterval, MAX_REQUESTED_POLL_INTERVAL_MS) ?? o.pollInterval ?? DEFAULT_TASK_POLL_INTERVAL_MS;
    let task: TaskRecord;
    try {
      task = this.store.create({ method: call.method, key: call.name, sessionId: call.sessionId, principal: this.#principal(call), ttl, pollInterval });
    } catch (error) {
      if (error instanceof TaskStoreFull) throw new JsonRpcFailure(ErrorCodes.InternalError, error.message);
      throw error;
    }
    const gate = new PollGate(plan);
    this.#gates.set(task, gate);
    if (modern) this.#modern.add(task);
    // In 2026-07-28 a task's requests wait in its inputRequests for tasks/update.
    const inner: StreamHost = modern ? { requestFromClient: (method, params, _s, _d, _t, signal, key) => this.#inputs.ask(task, method, params, signal, key), finalMessage: (plan, c) => host.finalMessage(plan, c), ...(host.notify ? { notify: host.notify } : {}) } : host;
    void runTask(this.#runner, task, call, gate, work, inner);
    return { kind: "message", message: resultResponse(call.id as RequestId, modern ? createTaskResult2026(task) : createTaskResult(task)) };
  }

  /** `tasks/get`: the task, counting the poll (and playing the stub's scripted statuses). */
  get(call: McpCall): unknown {
    const task = this.#find(call);
    task.polls++;
    const gate = this.#gates.get(task);
    const step = gate?.plan?.statuses?.[task.polls - 1];
    if (step !== undefined && !isTerminal(task.status)) {
      const status = typeof step === "string" ? step : step.status;
      this.store.move(task, status, typeof step === "string" ? undefined : step.message);
    }
    const answer = this.#modern.has(task) ? detailedTask2026(task, this.#inputs.requests(task)) : taskJson(task);
    if (gate && !gate.isOpen && task.polls >= gate.afterPolls) gate.open();
    return answer;
  }

  /** `tasks/result`: waits until the task ends, then answers what its request answered. */
  async result(call: McpCall): Promise<unknown> {
    const task = this.#find(call);
    const gate = this.#gates.get(task);
    if (gate && !gate.isOpen) gate.open(); // the client waits now: held results are released
    // The wait ends at the ttl too: then the task is forgotten and the answer is "expired".
    // (A timer may fire a little before Date.now() reaches the deadline: the sweep is told the deadline.)
    // A deadline further off than a timer holds (a stub's ttl of 2^31 ms or more) gets no timer:
    // Node fired it after 1 ms, and the task answered "expired" at once.
    const deadline = task.ttl === null || task.createdAt + task.ttl - Date.now() > MAX_DELAY_MS ? undefined : task.createdAt + task.ttl;
    const expiry = deadline === undefined ? undefined : setTimeout(() => this.store.lookup(task.id, Math.max(Date.now(), deadline)), Math.max(0, deadline - Date.now()));
    // The wait ends when the client stops waiting too: its connection closed, or it cancelled
    // the request (notifications/cancelled). Otherwise a client that went away would hold its
    // request, body and all, until the task ended: up to the hour a client may ask for.
    const gone = clientGone(call);
    const key = requestKey(call.sessionId, call.id);
    const cancel = new AbortController();
    const waiting = this.#env.inflight;
    waiting.set(key, cancel);
    try {
      await this.store.whenFinal(task, gone ? [this.#env.closing, gone, cancel.signal] : [this.#env.closing, cancel.signal]);
    } catch (error) {
      if (this.#env.closing.aborted) throw error;
      const why = cancel.signal.aborted ? "the client cancelled it (notifications/cancelled)" : "the client went away (its connection closed)";
      throw new JsonRpcFailure(ErrorCodes.InternalError, `${PREFIX} tasks/result of task ${task.id} stopped waiting: ${why} before the task ended. The task runs on; ask again with tasks/result.`);
    } finally {
      clearTimeout(expiry);
      if (waiting.get(key) === cancel) waiting.delete(key);
    }
    const found = this.store.lookup(task.id);
    if ("missing" in found && found.missing === "expired") throw new JsonRpcFailure(ErrorCodes.InvalidParams, TaskErrors.expired);
    const outcome = task.outcome;
    if (task.status === "cancelled") throw new JsonRpcFailure(ErrorCodes.InternalError, TaskErrors.cancelled(task.id));
    if (outcome === undefined) throw new JsonRpcFailure(ErrorCodes.InvalidParams, TaskErrors.expired);
    if ("error" in outcome) throw new JsonRpcFailure(outcome.error.code, outcome.error.message, outcome.error.data);
    const result = (outcome.result ?? {}) as Record<string, unknown>;
    const meta = result["_meta"] !== null && typeof result["_meta"] === "object" ? (result["_meta"] as Record<string, unknown>) : {};
    return { ...result, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: task.id } } };
  }

  /** `tasks/list`: the live tasks, oldest first, a page at a time. */
  list(call: McpCall): unknown {
    try {
      const { items, nextCursor } = page(this.store.list().filter((task) => this.#visibleTo(task, call)), call.params?.["cursor"], this.#env.options.pageSize ?? 100, "tasks/list");
      return nextCursor === undefined ? { tasks: items.map(taskJson) } : { tasks: items.map(taskJson), nextCursor };
    } catch (error) {
      if (error instanceof InvalidCursorError) throw new JsonRpcFailure(ErrorCodes.InvalidParams, `Invalid cursor: ${error.message}`);
      throw error;
    }
  }

  /** `tasks/cancel`: stops a running task and answers it `cancelled`; a finished one is refused (-32602). */
  cancel(call: McpCall): unknown {
    const task = this.#find(call);
    // 2026-07-28: cancelling is cooperative, always acknowledged with an empty result.
    if (this.#modern.has(task) && isTerminal(task.status)) return {};
    if (isTerminal(task.status)) throw new JsonRpcFailure(ErrorCodes.InvalidParams, TaskErrors.terminal(task.status));
    this.store.move(task, "cancelled", "The task was cancelled by request.");
    task.abort.abort(`${PREFIX} task ${task.id} was cancelled`);
    return this.#modern.has(task) ? {} : taskJson(task);
  }

  /** `tasks/update` (2026-07-28): the answers to what the task waits for; unknown and answered keys are ignored. */
  update(call: McpCall): unknown {
    const task = this.#find(call);
    const responses = call.params?.["inputResponses"];
    if (!isJsonObject(responses)) throw new JsonRpcFailure(ErrorCodes.InvalidParams, "Invalid params: inputResponses must be an object of answers by key (as the task's inputRequests named them).");
    this.#inputs.answer(task, responses);
    return {};
  }

  /** Forgets every task and stops their work (reset and close). */
  clear(): void {
    this.store.clear();
  }

  #find(call: McpCall): TaskRecord {
    const found = this.store.lookup(call.params?.["taskId"]);
    if ("task" in found && this.#visibleTo(found.task, call)) return found.task;
    if ("task" in found) throw new JsonRpcFailure(ErrorCodes.InvalidParams, TaskErrors.notFound);
    throw new JsonRpcFailure(ErrorCodes.InvalidParams, found.missing === "expired" ? TaskErrors.expired : TaskErrors.notFound);
  }

  /**
   * A task is bound to who created it (the tasks pages' security rule): its session (none for a
   * 2026-07-28 request) and, with `auth`, its token's client and user. Anyone else is told it
   * does not exist.
   */
  #visibleTo(task: TaskRecord, call: McpCall): boolean {
    return task.sessionId === call.sessionId && task.principal === this.#principal(call);
  }

  /** Who a call speaks for (with `auth`, its token's client and user): what its tasks are bound to. */
  #principal(call: McpCall): string | undefined {
    return this.#env.sessions.principalOf?.(call.headers);
  }

  #deliver(sessionId: string | undefined, message: unknown): void {
    if (sessionId !== undefined) this.#env.deliver(sessionId, message);
  }
}

/** The stream host of work that plays no stream (a miss answer). */
const NO_STREAM_HOST: StreamHost = {
  requestFromClient: () => Promise.reject(new JsonRpcFailure(ErrorCodes.InternalError, `${PREFIX} this task plays no stream.`)),
  finalMessage: () => Promise.reject(new JsonRpcFailure(ErrorCodes.InternalError, `${PREFIX} this task plays no stream.`)),
};

/** Whether a request asks to run as a task: `params.task` is an object (2025-11-25), or its envelope declares the tasks extension (2026-07-28). */
function asksForTask(call: McpCall): boolean {
  if (supportedRevision(call.protocolVersion).stateless) return optsIntoTasks(call);
  const task = call.params?.["task"];
  return task !== null && typeof task === "object" && !Array.isArray(task);
}
