/**
 * The task store on its own: the status machine the specification draws, the count and byte
 * bounds, expiry without timers, and ids.
 */
import { describe, expect, test } from "vitest";
import { canMove, TaskStore, TaskStoreFull, type TaskRecord } from "../src/engine/tasks/task-store.js";

const init = { method: "tools/call", key: "build", sessionId: undefined, principal: undefined, ttl: null, pollInterval: 10 } as const;

describe("the status machine", () => {
  test("working and input_required move to each other and to the final statuses; a final status moves nowhere", () => {
    expect(canMove("working", "input_required")).toBe(true);
    expect(canMove("input_required", "working")).toBe(true);
    for (const end of ["completed", "failed", "cancelled"] as const) {
      expect(canMove("working", end)).toBe(true);
      expect(canMove("input_required", end)).toBe(true);
      for (const to of ["working", "input_required", "completed", "failed", "cancelled"] as const) expect(canMove(end, to)).toBe(false);
    }
  });

  test("a cancelled task stays cancelled when its work ends after all; every change is reported once", () => {
    const store = new TaskStore();
    const changes: string[] = [];
    store.onChange((t) => changes.push(t.status));
    const task = store.create(init);
    expect(store.move(task, "input_required")).toBe(true);
    expect(store.move(task, "input_required")).toBe(false);
    expect(store.move(task, "cancelled", "stop")).toBe(true);
    expect(store.settle(task, "completed", { result: { content: [] } })).toBe(false);
    expect(task).toMatchObject({ status: "cancelled", statusMessage: "stop", outcome: undefined });
    expect(task.abort.signal.aborted).toBe(false); // cancelling the work is the caller's (tasks/cancel)
    expect(changes).toEqual(["input_required", "cancelled"]);
  });
});

describe("bounds", () => {
  test("past maxTasks the oldest final task goes; with none final, a new task is refused", () => {
    const store = new TaskStore({ maxTasks: 2 });
    const a = store.create(init);
    const b = store.create(init);
    expect(() => store.create(init)).toThrow(TaskStoreFull);
    store.settle(a, "completed", { result: {} });
    const c = store.create(init);
    expect(store.list().map((t) => t.id)).toEqual([b.id, c.id]);
    expect(store.lookup(a.id)).toEqual({ missing: "not-found" });
  });

  test("stored results over maxBytes drop the oldest final ones; a result larger than the budget fails its task", () => {
    const store = new TaskStore({ maxBytes: 200 });
    const big = (n: number): { result: unknown } => ({ result: { text: "x".repeat(n) } });
    const a = store.create(init);
    store.settle(a, "completed", big(100));
    const b = store.create(init);
    store.settle(b, "completed", big(100));
    expect(store.list().map((t) => t.id)).toEqual([b.id]);
    const c = store.create(init);
    store.settle(c, "completed", big(500));
    expect(c.status).toBe("failed");
    expect(c.outcome).toMatchObject({ error: { code: -32603, message: expect.stringContaining("more than tasks.maxBytes (200)") } });
  });
});

describe("expiry and ids", () => {
  test("a task past its ttl is forgotten when the store is read, stops its work, and is told apart from an unknown id", () => {
    const store = new TaskStore();
    const task: TaskRecord = store.create({ ...init, ttl: 100 }, 1_000);
    expect("task" in store.lookup(task.id, 1_099)).toBe(true);
    expect(store.lookup(task.id, 1_100)).toEqual({ missing: "expired" });
    expect(task.abort.signal.aborted).toBe(true);
    expect(store.lookup("task-77", 1_100)).toEqual({ missing: "not-found" });
    expect(store.list(1_100)).toEqual([]);
  });

  test("ids: sequential by default, a function's ids must be fresh", () => {
    expect(new TaskStore().create(init).id).toBe("task-1");
    expect(new TaskStore({ ids: "uuid" }).create(init).id).toMatch(/^[0-9a-f-]{36}$/);
    const store = new TaskStore({ ids: () => "same" });
    store.create(init);
    expect(() => store.create(init)).toThrow('tasks.ids gave "same", which is not a fresh non-empty string');
  });

  test("whenFinal resolves at the end and rejects when one of its signals aborts", async () => {
    const store = new TaskStore();
    const task = store.create(init);
    const done = store.whenFinal(task, [new AbortController().signal]);
    store.settle(task, "failed", { error: { code: -1, message: "no" } });
    await expect(done).resolves.toBeUndefined();
    const other = store.create(init);
    const stop = new AbortController();
    const waiting = store.whenFinal(other, [new AbortController().signal, stop.signal]);
    stop.abort(new Error("closing"));
    await expect(waiting).rejects.toThrow("closing");
    await expect(store.whenFinal(other, [stop.signal])).rejects.toThrow("closing");
  });
});
