/**
 * The tasks a mock holds, free of any wire form: ids, the status machine, ttl, the stored
 * outcome, and the waiters of `tasks/result`. A revision's wire form (the 2025-11-25 core in
 * `wire-2025.ts`; the 2026-07-28 extension later) is a view of these records.
 *
 * Bounded by count and by the bytes of the stored outcomes; expiry is checked when the store
 * is read, so it holds no timers, and `close()` leaves nothing behind.
 * @module
 */
import { PREFIX } from "../../values/errors.js";
import type { TaskIdGenerator } from "../../options.js";
/** Declared with the options since issue 43; re-exported for code that imports it from here. */
export type { TaskIdGenerator } from "../../options.js";

/** Where a task is: `working` and `input_required` run on; the others are final. */
type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** The final statuses. */
const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** Whether a status is final. */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** The moves the specification allows (a final status moves nowhere). */
const MOVES: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  working: ["input_required", "completed", "failed", "cancelled"],
  input_required: ["working", "completed", "failed", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
};

/** Whether the status machine allows a move (staying put is no move). */
export function canMove(from: TaskStatus, to: TaskStatus): boolean {
  return MOVES[from].includes(to);
}

/** What the underlying request answered: a result, or a JSON-RPC error. */
export type TaskOutcome =
  | { readonly result: unknown }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };

/** One task. */
export interface TaskRecord {
  readonly id: string;
  /** The method the task runs (`tools/call`) and what it names (the tool). */
  readonly method: string;
  readonly key: string | undefined;
  /** The session that created it, if any. */
  readonly sessionId: string | undefined;
  /** With `auth`, who created it (the client and user of its token): only they see it. */
  readonly principal: string | undefined;
  readonly createdAt: number;
  /** Milliseconds from creation it is kept; `null`: until the mock closes. */
  readonly ttl: number | null;
  readonly pollInterval: number | undefined;
  status: TaskStatus;
  statusMessage: string | undefined;
  lastUpdatedAt: number;
  /** `tasks/get` calls so far. */
  polls: number;
  /** Set once final (or, for a cancelled task, never). */
  outcome: TaskOutcome | undefined;
  /** The size of the stored outcome, in bytes of JSON. */
  bytes: number;
  /** Aborted when the task is cancelled, expires or the mock closes: its work stops. */
  readonly abort: AbortController;
}

/** Limits of a store. */
interface TaskLimits {
  /** At most this many tasks are kept (default 1000); past it the oldest final one goes. */
  readonly maxTasks?: number;
  /** At most this many bytes of stored results (default 16 MiB); past it the oldest final ones go. */
  readonly maxBytes?: number;
  /** At most this many running tasks per owner (a session, or a token's client and user); default three quarters of `maxTasks`. */
  readonly maxTasksPerOwner?: number;
  readonly ids?: TaskIdGenerator;
}

/** Default cap on kept tasks. */
const DEFAULT_MAX_TASKS = 1000;
/** Default byte budget of stored task results. */
const DEFAULT_MAX_TASK_BYTES = 16 * 1024 * 1024;
/** An owner's share of the cap by default: one session cannot take every slot. */
function defaultShare(maxTasks: number): number {
  return Math.max(1, Math.ceil((maxTasks * 3) / 4));
}

/** Who a task counts against: its session, else its token's client and user, else everyone without either. */
function ownerOf(task: Pick<TaskRecord, "sessionId" | "principal">): string {
  return task.sessionId !== undefined ? `session ${task.sessionId}` : (task.principal ?? "");
}

/** How many expired ids are remembered, to answer "expired" rather than "not found". */
const EXPIRED_MEMORY = 1000;

/** What a lookup found. */
type TaskLookup = { readonly task: TaskRecord } | { readonly missing: "not-found" | "expired" };

/** Why a wait was given up, as an error. */
function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason ?? "aborted"));
}

/** Why a task could not be created. */
export class TaskStoreFull extends Error {}

/** The tasks of one mock. */
export class TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #expired = new Set<string>();
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #changes = new Set<(task: TaskRecord) => void>();
  readonly #max: number;
  readonly #maxBytes: number;
  readonly #share: number;
  /** Running tasks by owner, for the share. */
  readonly #running = new Map<string, number>();
  readonly #ids: TaskIdGenerator;
  #next = 0;
  #bytes = 0;

  constructor(limits: TaskLimits = {}) {
    this.#max = limits.maxTasks ?? DEFAULT_MAX_TASKS;
    this.#maxBytes = limits.maxBytes ?? DEFAULT_MAX_TASK_BYTES;
    this.#share = limits.maxTasksPerOwner ?? defaultShare(this.#max);
    this.#ids = limits.ids ?? "sequential";
  }

  /** Calls `listener` on every status change; returns the unsubscribe function. */
  onChange(listener: (task: TaskRecord) => void): () => void {
    this.#changes.add(listener);
    return () => this.#changes.delete(listener);
  }

  /** Creates a task in `working`; throws {@link TaskStoreFull} when every kept task is still running. */
  create(init: Pick<TaskRecord, "method" | "key" | "sessionId" | "principal" | "ttl" | "pollInterval">, now = Date.now()): TaskRecord {
    this.#sweep(now);
    const owner = ownerOf(init);
    const running = this.#running.get(owner) ?? 0;
    // Every kept task running: the cap says so; otherwise the owner's share is checked first.
    const full = this.#tasks.size >= this.#max;
    if (full && ![...this.#tasks.values()].some((t) => isTerminal(t.status))) {
      throw new TaskStoreFull(`${PREFIX} ${this.#tasks.size} tasks are running, the most the mock keeps (tasks.maxTasks). Let some finish or cancel them, or raise tasks.maxTasks.`);
    }
    if (running >= this.#share) {
      const who = init.sessionId !== undefined ? "this session holds" : init.principal !== undefined ? "this token's client holds" : "the requests without a session or token hold";
      throw new TaskStoreFull(`${PREFIX} ${who} ${running} running tasks, its share of tasks.maxTasks (tasks.maxTasksPerSession: ${this.#share}), so that others can still start one. Let some finish or cancel them, or raise tasks.maxTasksPerSession.`);
    }
    if (full) this.#dropOldestFinal();
    const id = this.#nextId();
    const task: TaskRecord = { id, ...init, createdAt: now, lastUpdatedAt: now, status: "working", statusMessage: undefined, polls: 0, outcome: undefined, bytes: 0, abort: new AbortController() };
    this.#tasks.set(id, task);
    this.#running.set(owner, running + 1);
    return task;
  }

  /** A task by id, or why there is none (an expired task is forgotten when looked up). */
  lookup(id: unknown, now = Date.now()): TaskLookup {
    this.#sweep(now);
    const task = typeof id === "string" ? this.#tasks.get(id) : undefined;
    if (task) return { task };
    return { missing: typeof id === "string" && this.#expired.has(id) ? "expired" : "not-found" };
  }

  /** The live tasks, oldest first. */
  list(now = Date.now()): TaskRecord[] {
    this.#sweep(now);
    return [...this.#tasks.values()];
  }

  /** How many tasks are kept. */
  get size(): number {
    return this.#tasks.size;
  }

  /**
   * Moves a task to a status the machine allows (a final one only with its outcome, through
   * {@link settle}); whether it moved. A message alone may change without a move.
   */
  move(task: TaskRecord, status: TaskStatus, message?: string, now = Date.now()): boolean {
    if (isTerminal(task.status) || this.#tasks.get(task.id) !== task) return false;
    if (status !== task.status && !canMove(task.status, status)) return false;
    if (status === task.status && message === task.statusMessage) return false;
    if (isTerminal(status)) this.#stopped(task);
    task.status = status;
    task.statusMessage = message;
    task.lastUpdatedAt = Math.max(now, task.lastUpdatedAt);
    for (const listener of this.#changes) listener(task);
    if (isTerminal(status)) this.#wake(task);
    return true;
  }

  /** Ends a task with its outcome (a cancelled task stays cancelled: the outcome is dropped). */
  settle(task: TaskRecord, status: "completed" | "failed", outcome: TaskOutcome, message?: string): boolean {
    if (isTerminal(task.status) || this.#tasks.get(task.id) !== task) return false;
    let kept = outcome;
    let bytes = JSON.stringify(outcome).length;
    if (bytes > this.#maxBytes) {
      kept = { error: { code: -32603, message: `${PREFIX} the result of task ${task.id} is ${bytes} bytes, more than tasks.maxBytes (${this.#maxBytes}); raise it to keep such results.` } };
      bytes = JSON.stringify(kept).length;
    }
    task.outcome = kept;
    task.bytes = bytes;
    this.#bytes += bytes;
    while (this.#bytes > this.#maxBytes && this.#dropOldestFinal(task)) {
      // dropped one
    }
    return this.move(task, kept === outcome ? status : "failed", message);
  }

  /**
   * Resolves once the task is final (or gone); rejects when one of `signals` aborts (the mock
   * closing, the waiting client gone), leaving no waiter behind.
   */
  whenFinal(task: TaskRecord, signals: readonly AbortSignal[]): Promise<void> {
    if (isTerminal(task.status) || this.#tasks.get(task.id) !== task) return Promise.resolve();
    const aborted = signals.find((s) => s.aborted);
    if (aborted) return Promise.reject(reasonOf(aborted));
    return new Promise((resolve, reject) => {
      let waiters = this.#waiters.get(task.id);
      if (!waiters) this.#waiters.set(task.id, (waiters = new Set()));
      const set = waiters;
      const done = (): void => {
        set.delete(wake);
        if (set.size === 0 && this.#waiters.get(task.id) === set) this.#waiters.delete(task.id);
        for (const s of signals) s.removeEventListener("abort", onAbort);
      };
      const onAbort = (event: Event): void => {
        done();
        reject(reasonOf(event.target as AbortSignal));
      };
      const wake = (): void => {
        done();
        resolve();
      };
      set.add(wake);
      for (const s of signals) s.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Forgets every task, stopping their work and waking their waiters. */
  clear(): void {
    for (const task of [...this.#tasks.values()]) this.#forget(task, false);
    this.#expired.clear();
    this.#running.clear();
    this.#bytes = 0;
  }

  #wake(task: TaskRecord): void {
    const waiters = this.#waiters.get(task.id);
    if (!waiters) return;
    this.#waiters.delete(task.id);
    for (const wake of waiters) wake();
  }

  /** A running task stops counting against its owner's share. */
  #stopped(task: TaskRecord): void {
    const owner = ownerOf(task);
    const running = (this.#running.get(owner) ?? 1) - 1;
    if (running > 0) this.#running.set(owner, running);
    else this.#running.delete(owner);
  }

  #forget(task: TaskRecord, expired: boolean): void {
    if (!isTerminal(task.status)) this.#stopped(task);
    this.#tasks.delete(task.id);
    this.#bytes -= task.bytes;
    task.abort.abort(`${PREFIX} task ${task.id} ${expired ? "expired" : "was dropped"}`);
    this.#wake(task);
    if (!expired) return;
    this.#expired.add(task.id);
    if (this.#expired.size > EXPIRED_MEMORY) this.#expired.delete(this.#expired.values().next().value as string);
  }

  /** Forgets the tasks whose ttl has passed. */
  #sweep(now: number): void {
    for (const task of this.#tasks.values()) if (task.ttl !== null && now >= task.createdAt + task.ttl) this.#forget(task, true);
  }

  /** Drops the oldest final task but `keep`; whether one was dropped. */
  #dropOldestFinal(keep?: TaskRecord): boolean {
    for (const task of this.#tasks.values()) {
      if (task !== keep && isTerminal(task.status)) {
        this.#forget(task, false);
        return true;
      }
    }
    return false;
  }

  #nextId(): string {
    if (this.#ids === "uuid") return crypto.randomUUID();
    if (typeof this.#ids === "function") {
      const id = this.#ids();
      if (typeof id !== "string" || id === "" || this.#tasks.has(id)) throw new TaskStoreFull(`${PREFIX} tasks.ids gave ${JSON.stringify(id)}, which is not a fresh non-empty string; task ids must be unique.`);
      return id;
    }
    return `task-${++this.#next}`;
  }
}
