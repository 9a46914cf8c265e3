/**
 * Tasks (2025-11-25) through the official v1 client's experimental task API over real HTTP:
 * a task-augmented tools/call answered with a task at once, polled, its result fetched; the
 * tasks listed and paged; a long task cancelled; a failure; input asked in the middle; ttl
 * expiry; `required` refusing a plain call and `forbidden` ignoring params.task.
 */
import { createHook } from "node:async_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema, McpError, TaskStatusNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { atLeast, McpMock, tasksCancel, tasksGet, tasksResult, toolsCall, type McpMockOptions, type ToolDeclaration } from "../../src/index.js";

const TOOLS = [
  { name: "build", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } },
  { name: "deploy", inputSchema: { type: "object" }, execution: { taskSupport: "required" } },
  { name: "plain", inputSchema: { type: "object" } },
] as const satisfies readonly ToolDeclaration[];

interface Connected extends AsyncDisposable {
  readonly mock: McpMock<typeof TOOLS>;
  readonly client: Client;
  /** The statuses of `notifications/tasks/status` the client received, in order. */
  readonly statuses: string[];
}

async function connected(options: Omit<McpMockOptions<typeof TOOLS>, "tools"> = {}, listTools = true): Promise<Connected> {
  const mock = await McpMock.start({ tools: TOOLS, onUnmatched: "silent", ...options });
  const client = new Client({ name: "tasks-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const statuses: string[] = [];
  client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push(n.params.status));
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name: "Ada" } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  if (listTools) await client.listTools(); // the client learns which tools run as tasks
  return {
    mock,
    client,
    statuses,
    async [Symbol.asyncDispose]() {
      await client.close();
      await mock.close();
    },
  };
}

/** Every message of a callToolStream, by type, with the task and result it carried. */
async function drain(client: Client, name: string, args: Record<string, unknown> = {}, task?: { ttl?: number }): Promise<Array<{ type: string; status?: string; taskId?: string; result?: unknown; error?: McpError }>> {
  const seen: Array<{ type: string; status?: string; taskId?: string; result?: unknown; error?: McpError }> = [];
  const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, task ? { task } : undefined);
  for await (const m of stream) {
    if (m.type === "taskCreated" || m.type === "taskStatus") seen.push({ type: m.type, status: m.task.status, taskId: m.task.taskId });
    else if (m.type === "result") seen.push({ type: m.type, result: m.result });
    else seen.push({ type: m.type, error: m.error as McpError });
  }
  return seen;
}

async function eventually(check: () => void, timeout = 2000): Promise<void> {
  const until = Date.now() + timeout;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

/**
 * Counts the timers of one duration this process starts and those still pending, by their
 * async hooks (a Timeout's init and destroy; clearing one destroys it): exact where counting
 * every active timer of a parallel run is not.
 */
function watchTimers(ms: number): { readonly started: number; readonly live: number } & Disposable {
  const live = new Set<number>();
  let started = 0;
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (type !== "Timeout" || (resource as { _idleTimeout?: unknown })._idleTimeout !== ms) return;
      started++;
      live.add(id);
    },
    destroy: (id) => void live.delete(id),
  }).enable();
  return {
    get started() {
      return started;
    },
    get live() {
      return live.size;
    },
    [Symbol.dispose]: () => void hook.disable(),
  };
}

describe("a task-augmented tools/call", () => {
  test("is created at once, polled while working, and its result fetched; the server advertises tasks", async () => {
    await using t = await connected();
    t.mock.toolsCall("build").asTask({ afterPolls: 2, pollInterval: 5 }).respondsWith({ ok: true });
    expect(t.client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });

    const seen = await drain(t.client, "build", { target: "docs" }, { ttl: 30_000 });
    expect(seen.map((m) => `${m.type}${m.status ? `:${m.status}` : ""}`)).toEqual(["taskCreated:working", "taskStatus:working", "taskStatus:working", "taskStatus:completed", "result"]);
    expect(seen[0]?.taskId).toBe("task-1");
    const result = seen.at(-1)?.result as { content: Array<{ text: string }>; _meta?: Record<string, unknown> };
    expect(JSON.parse(result.content[0]?.text ?? "")).toEqual({ ok: true });
    expect(result._meta?.["io.modelcontextprotocol/related-task"]).toEqual({ taskId: "task-1" });

    const task = await t.client.experimental.tasks.getTask("task-1");
    expect(task).toMatchObject({ taskId: "task-1", status: "completed", ttl: 30_000, pollInterval: 5 });
    expect(Date.parse(task.createdAt)).toBeLessThanOrEqual(Date.parse(task.lastUpdatedAt));
    await eventually(() => expect(t.statuses).toContain("completed"));
    // The journal ties each poll to its task; verify() counts them.
    t.mock.verify(tasksGet("task-1"), 4);
    t.mock.verify(tasksResult("task-1"));
    const entries = t.mock.requests().filter((e) => e.taskId === "task-1");
    expect(entries.map((e) => e.method)).toEqual(["tools/call", "tasks/get", "tasks/get", "tasks/get", "tasks/result", "tasks/get"]);
  });

  test("a failure: an error answer makes the task failed, and tasks/result gives back that error", async () => {
    await using t = await connected();
    t.mock.toolsCall("build").respondsWithError(-32000, "rate limit exceeded", { retryAfter: 5 });
    const seen = await drain(t.client, "build");
    expect(seen.at(-1)?.error?.message).toContain("Task task-1 failed");
    const task = await t.client.experimental.tasks.getTask("task-1");
    expect(task).toMatchObject({ status: "failed", statusMessage: "rate limit exceeded" });
    const failed = await t.client.experimental.tasks.getTaskResult("task-1", CallToolResultSchema).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(McpError);
    expect(failed).toMatchObject({ code: -32000, data: { retryAfter: 5 } });
  });

  test("no stub answers: the task fails with the miss answer, whose guidance is its status message", async () => {
    await using t = await connected();
    const seen = await drain(t.client, "build", { target: "docs" });
    expect(seen.map((m) => m.type)).toEqual(["taskCreated", "taskStatus", "error"]);
    const task = await t.client.experimental.tasks.getTask("task-1");
    expect(task.status).toBe("failed");
    expect(task.statusMessage).toContain('mock.toolsCall("build")');
    const result = await t.client.experimental.tasks.getTaskResult("task-1", CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(t.mock.unmatched().map((e) => e.method)).toEqual(["tools/call"]);
  });

  test("a fault whose rate lets the call through: the task call is answered as if the fault were not there (a task, failed with the miss)", async () => {
    await using t = await connected();
    t.mock.toolsCall("build").fails("connection-reset", { rate: 0 }); // a rate of 0 lets every call through
    const seen = await drain(t.client, "build", { target: "docs" });
    expect(seen.map((m) => m.type)).toEqual(["taskCreated", "taskStatus", "error"]);
    expect((await t.client.experimental.tasks.getTask("task-1")).status).toBe("failed");
    expect(t.mock.unmatched().map((e) => e.method)).toEqual(["tools/call"]);
  });

  test("an isError result fails the task with the result's text as its status message", async () => {
    await using t = await connected();
    t.mock.toolsCall("build").respondsWith("disk full", { isError: true });
    await drain(t.client, "build");
    expect(await t.client.experimental.tasks.getTask("task-1")).toMatchObject({ status: "failed", statusMessage: "disk full" });
    const result = await t.client.experimental.tasks.getTaskResult("task-1", CallToolResultSchema);
    expect(result.isError).toBe(true);
  });

  test("a request step asks the client for input: the task is input_required, then completes with the answer", async () => {
    await using t = await connected();
    t.mock.toolsCall("build").streams((s) =>
      s.request("elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } }).result((call) => `Hello, ${String((call.answer as { content?: { name?: string } }).content?.name)}`),
    );
    const seen = await drain(t.client, "build");
    const result = seen.at(-1)?.result as { content: Array<{ text: string }> };
    expect(result.content[0]?.text).toBe("Hello, Ada");
    await eventually(() => expect(t.statuses).toEqual(expect.arrayContaining(["input_required", "working", "completed"])));
    // The client's answer to the elicitation is journaled with its task.
    const answer = t.mock.requests().find((e) => e.kind === "response");
    expect(answer).toMatchObject({ method: "elicitation/create", taskId: "task-1" });
  });

  test("scripted statuses: each poll reports the next one, then the result", async () => {
    await using t = await connected();
    t.mock.toolsCall("build").asTask({ statuses: ["working", { status: "working", message: "half way" }], pollInterval: 1 }).respondsWith("done");
    const seen = await drain(t.client, "build");
    expect(seen.map((m) => m.status ?? m.type)).toEqual(["working", "working", "working", "completed", "result"]);
  });
});

describe("tasks/list", () => {
  test("lists the live tasks, oldest first, a page at a time", async () => {
    await using t = await connected({ pageSize: 2 });
    t.mock.toolsCall("build").withDelay(5).respondsWith("x");
    for (let i = 0; i < 3; i++) await drain(t.client, "build");
    const first = await t.client.experimental.tasks.listTasks();
    expect(first.tasks.map((task) => task.taskId)).toEqual(["task-1", "task-2"]);
    expect(first.nextCursor).toBeTypeOf("string");
    const second = await t.client.experimental.tasks.listTasks(first.nextCursor);
    expect(second.tasks.map((task) => [task.taskId, task.status])).toEqual([["task-3", "completed"]]);
    expect(second.nextCursor).toBeUndefined();
    const bad = await t.client.experimental.tasks.listTasks("not-a-cursor").catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: -32602 });
    // A forged cursor of a megabyte is refused with a message that shows its start, not all of it.
    const huge = await t.client.experimental.tasks.listTasks("c".repeat(1_000_000)).catch((e: unknown) => e);
    expect(huge).toMatchObject({ code: -32602, message: `MCP error -32602: Invalid cursor: "${"c".repeat(118)}… is not a cursor this mock gave for tasks/list` });
  });
});

describe("sessions", () => {
  test("a task belongs to the session that created it: another client neither lists, reads nor cancels it", async () => {
    await using t = await connected();
    t.mock.toolsCall("build").withDelay(60_000).respondsWith("late");
    await t.client.request({ method: "tools/call", params: { name: "build", arguments: {}, task: {} } }, CreateTaskResultSchema);
    const other = new Client({ name: "other", version: "1" });
    await other.connect(new StreamableHTTPClientTransport(new URL(t.mock.url)));
    expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
    expect(await other.experimental.tasks.getTask("task-1").catch((e: unknown) => e)).toMatchObject({ code: -32602, message: expect.stringContaining("Task not found") });
    expect(await other.experimental.tasks.cancelTask("task-1").catch((e: unknown) => e)).toMatchObject({ code: -32602 });
    expect(await t.client.experimental.tasks.getTask("task-1")).toMatchObject({ status: "working" });
    await other.close();
  });
});

describe("tasks/cancel", () => {
  test("a long task is cancelled: its status is cancelled, its work stops, and close() leaves nothing waiting", async () => {
    await using t = await connected();
    t.mock.toolsCall("build").withDelay(60_000).respondsWith("never");
    const stream = t.client.experimental.tasks.callToolStream({ name: "build", arguments: {} });
    const created = await stream.next();
    expect(created.value).toMatchObject({ type: "taskCreated" });
    const taskId = (created.value as { task: { taskId: string } }).task.taskId;
    const cancelled = await t.client.experimental.tasks.cancelTask(taskId);
    expect(cancelled).toMatchObject({ taskId, status: "cancelled", statusMessage: "The task was cancelled by request." });
    let last: unknown;
    for await (const m of stream) last = m;
    expect((last as { error?: Error }).error?.message).toContain("was cancelled");
    expect(await t.client.experimental.tasks.getTask(taskId)).toMatchObject({ status: "cancelled" });
    // A final task cannot be cancelled again (-32602, as the specification says).
    const again = await t.client.experimental.tasks.cancelTask(taskId).catch((e: unknown) => e);
    expect(again).toMatchObject({ code: -32602, message: expect.stringContaining("Cannot cancel task: already in terminal status 'cancelled'") });
    t.mock.verify(tasksCancel(taskId), 2);
  });

  test("a cancelled task's delay timer is released at once, not at close()", async () => {
    await using t = await connected();
    // Not 60 s: that is also the SDK client's request timeout, whose timers come and go.
    using timers = watchTimers(61_000);
    t.mock.toolsCall("build").withDelay(61_000).respondsWith("never");
    const created = await t.client.request({ method: "tools/call", params: { name: "build", arguments: {}, task: {} } }, CreateTaskResultSchema);
    // Generous: under a full parallel run the delay can take more than 2 s to be scheduled.
    await eventually(() => expect(timers.started).toBe(1), 10_000);
    expect(timers.live).toBe(1);
    await t.client.experimental.tasks.cancelTask(created.task.taskId);
    await eventually(() => expect(timers.live).toBe(0), 5000);
  });

  test("close() with a task still running ends it and its waiting tasks/result", async () => {
    const t = await connected();
    t.mock.toolsCall("build").withDelay(60_000).respondsWith("never");
    const created = await t.client.request({ method: "tools/call", params: { name: "build", arguments: {}, task: {} } }, CreateTaskResultSchema);
    const waiting = t.client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema).catch((e: unknown) => e);
    await t.mock.waitFor(tasksResult(created.task.taskId));
    const started = Date.now();
    await t.mock.close();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await waiting).toBeInstanceOf(Error);
    await t.client.close();
  });
});

describe("task support of a tool", () => {
  test("required: a plain call is refused with -32601; a task call runs", async () => {
    await using t = await connected({}, false); // the client has not listed tools, so it does not refuse first
    t.mock.toolsCall("deploy").respondsWith("deployed");
    const refused = await t.client.callTool({ name: "deploy", arguments: {} }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({ code: -32601, message: expect.stringContaining("Tool deploy requires task augmentation (taskSupport: 'required')") });
    t.mock.verify(toolsCall("deploy"), 1);
    await t.client.listTools();
    const seen = await drain(t.client, "deploy");
    expect((seen.at(-1)?.result as { content: Array<{ text: string }> }).content[0]?.text).toBe("deployed");
  });

  test("forbidden (or absent): params.task answers -32601 (the spec's SHOULD), no task made; a plain call answers as usual", async () => {
    await using t = await connected();
    t.mock.toolsCall("plain").respondsWith("plain answer");
    const refused = await t.client.request({ method: "tools/call", params: { name: "plain", arguments: {}, task: { ttl: 1000 } } }, CallToolResultSchema).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: -32601, message: expect.stringContaining("does not support task-augmented execution") });
    expect(await t.client.experimental.tasks.listTasks()).toMatchObject({ tasks: [] });
    const result = await t.client.request({ method: "tools/call", params: { name: "plain", arguments: {} } }, CallToolResultSchema);
    expect(result.content[0]).toEqual({ type: "text", text: "plain answer" });
  });

  test("a cancelled task's work stops: a function answer sees call.signal aborted, and the script's later steps do not run", async () => {
    await using t = await connected();
    let signal: AbortSignal | undefined;
    let later = false;
    t.mock.toolsCall("build").respondsWith(async (call) => {
      signal = call.signal;
      await new Promise((r) => setTimeout(r, 5000).unref?.() ?? r);
      return "never";
    });
    const created = await t.client.request({ method: "tools/call", params: { name: "build", arguments: {}, task: {} } }, CreateTaskResultSchema);
    await new Promise((r) => setTimeout(r, 20));
    expect(signal?.aborted).toBe(false);
    await t.client.experimental.tasks.cancelTask(created.task.taskId);
    expect(signal?.aborted).toBe(true);
    t.mock.reset();
    t.mock.toolsCall("build").streams((s) => s.delay(50).result(() => ((later = true), "late")));
    const second = await t.client.request({ method: "tools/call", params: { name: "build", arguments: {}, task: {} } }, CreateTaskResultSchema);
    await t.client.experimental.tasks.cancelTask(second.task.taskId);
    await new Promise((r) => setTimeout(r, 120));
    expect(later).toBe(false);
  });

  test("no task-capable tool: no tasks capability", async () => {
    await using mock = await McpMock.start({ tools: [{ name: "plain", inputSchema: { type: "object" } }] });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
    expect(client.getServerCapabilities()?.tasks).toBeUndefined();
    await client.close();
  });
});

describe("ttl", () => {
  test("an expired task answers -32602 Task has expired; an unknown one Task not found", async () => {
    await using t = await connected({ tasks: { ttl: 100 } });
    t.mock.toolsCall("build").respondsWith("x");
    const created = await t.client.request({ method: "tools/call", params: { name: "build", arguments: {}, task: {} } }, CreateTaskResultSchema);
    expect(created.task).toMatchObject({ taskId: "task-1", ttl: 100 });
    await new Promise((r) => setTimeout(r, 150));
    const expired = await t.client.experimental.tasks.getTask("task-1").catch((e: unknown) => e);
    expect(expired).toMatchObject({ code: -32602, message: expect.stringContaining("Failed to retrieve task: Task has expired") });
    const unknown = await t.client.experimental.tasks.getTask("task-99").catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: -32602, message: expect.stringContaining("Failed to retrieve task: Task not found") });
    expect((await t.client.experimental.tasks.listTasks()).tasks).toEqual([]);
    t.mock.verify(tasksGet(), atLeast(2));
  });

  // A ttl of 2^31 ms or more (a stub's, about 25 days and up): tasks/result set a timer Node
  // fired after 1 ms (with a TimeoutOverflowWarning on stderr), and answered "Task has expired".
  test("a stub's ttl longer than a timer holds: tasks/result waits for the result", async () => {
    await using t = await connected();
    t.mock.toolsCall("build").asTask({ ttl: 3e9, statuses: ["working", "working"], pollInterval: 1 }).withDelay(100).respondsWith("done");
    const created = await t.client.request({ method: "tools/call", params: { name: "build", arguments: {}, task: {} } }, CreateTaskResultSchema);
    expect(created.task).toMatchObject({ ttl: 3e9, status: "working" });
    const result = await t.client.request({ method: "tasks/result", params: { taskId: created.task.taskId } }, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
  });

  test("the client's ttl is honoured; a stub's ttl and pollInterval win", async () => {
    await using t = await connected({ tasks: { pollInterval: 7 } });
    t.mock.toolsCall("build").withArgs({ pinned: true }).asTask({ ttl: null, pollInterval: 3 }).respondsWith("pinned");
    t.mock.toolsCall("build").respondsWith("x");
    const asked = await t.client.request({ method: "tools/call", params: { name: "build", arguments: {}, task: { ttl: 1234 } } }, CreateTaskResultSchema);
    expect(asked.task).toMatchObject({ ttl: 1234, pollInterval: 7, status: "working" });
    const pinned = await t.client.request({ method: "tools/call", params: { name: "build", arguments: { pinned: true }, task: { ttl: 1234 } } }, CreateTaskResultSchema);
    expect(pinned.task).toMatchObject({ ttl: null, pollInterval: 3 });
  });
});

describe("a definition file", () => {
  test("a tool entry with task: polled, then its templated result", async () => {
    await using mock = await McpMock.fromDefinition(
      {
        tools: [{ name: "report", inputSchema: { type: "object" }, execution: { taskSupport: "required" } }],
        responses: [{ tool: "report", task: { statuses: ["working", "working"], pollInterval: 5, ttl: 10_000 }, result: "Report for {{args.team}}" }],
      },
      { onUnmatched: "silent" },
    );
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
    await client.listTools();
    const seen = await drain(client, "report", { team: "blue" });
    expect(seen.map((m) => m.status ?? m.type)).toEqual(["working", "working", "working", "completed", "result"]);
    expect((seen.at(-1)?.result as { content: Array<{ text: string }> }).content[0]?.text).toBe("Report for blue");
    expect(await client.experimental.tasks.getTask("task-1")).toMatchObject({ ttl: 10_000, pollInterval: 5 });
    expect(mock.stubs().find((s) => s.source !== "default")?.sentence).toContain("as a task (polls report working, working, result after 2 polls, ttl 10000 ms, poll every 5 ms)");
    await client.close();
  });

  test("task on a method entry, or on a tool that cannot run as a task, is refused where it is written", async () => {
    await expect(McpMock.fromDefinition({ responses: [{ method: "custom/thing", task: {}, result: {} } as never] }, { transport: "none" })).rejects.toThrow(
      /responses\[0\]\.task: "task" is for tool entries only/,
    );
    await expect(McpMock.fromDefinition({ tools: [{ name: "plain" }], responses: [{ tool: "plain", task: { afterPolls: 1 }, result: 1 }] }, { transport: "none" })).rejects.toThrow(
      /responses\[0\]\.task: toolsCall\("plain"\): asTask: tool "plain" is declared without execution/,
    );
  });
});

describe("bad input", () => {
  test("asTask options, execution declarations and tasks options are checked where they are written", async () => {
    await using mock = await McpMock.start({ tools: TOOLS, transport: "none" });
    expect(() => mock.toolsCall("build").asTask({ afterPolls: -1 })).toThrow('toolsCall("build"): asTask: afterPolls takes a count of tasks/get polls (0 or more), received -1.');
    expect(() => mock.toolsCall("build").asTask({ statuses: ["done" as never] })).toThrow('asTask: statuses[0] must be "working", "input_required" or { status, message? }');
    expect(() => mock.toolsCall("build").asTask({ polls: 2 } as never)).toThrow('asTask: unknown option "polls"; the options are ttl, pollInterval, afterPolls, statuses, statusMessage.');
    expect(() => mock.toolsCall("plain").asTask()).toThrow('tool "plain" is declared without execution: { taskSupport: "optional" | "required" }');
    await expect(McpMock.start({ tools: [{ name: "x", execution: { taskSupport: "sometimes" as never } }], transport: "none" })).rejects.toThrow('tools[0].execution must be { taskSupport: "forbidden" | "optional" | "required" }');
    await expect(McpMock.start({ tasks: { ttl: -5 }, transport: "none" })).rejects.toThrow("tasks.ttl must be milliseconds (0 or more) or null");
    await expect(McpMock.start({ tasks: { maxTasks: 0 }, transport: "none" })).rejects.toThrow("tasks.maxTasks must be a positive whole number, received 0.");
    expect(() => mock.tasksGet("")).toThrow('tasksGet() takes a task id (a non-empty string, like "task-1"), received "".');
  });

  test("at the maxTasks cap with every task running, a new task is refused with a clear error; a finished one makes room", async () => {
    await using t = await connected({ tasks: { maxTasks: 2 } });
    t.mock.toolsCall("build").withArgs({ slow: true }).withDelay(60_000).respondsWith("late");
    t.mock.toolsCall("build").respondsWith("quick");
    const call = (args: Record<string, unknown>): Promise<unknown> => t.client.request({ method: "tools/call", params: { name: "build", arguments: args, task: {} } }, CreateTaskResultSchema).catch((e: unknown) => e);
    await call({ slow: true });
    await call({ slow: true });
    expect(await call({ slow: true })).toMatchObject({ code: -32603, message: expect.stringContaining("2 tasks are running, the most the mock keeps (tasks.maxTasks)") });
    await t.client.experimental.tasks.cancelTask("task-1");
    expect(await call({})).toMatchObject({ task: { taskId: "task-3" } });
    expect((await t.client.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toEqual(["task-2", "task-3"]);
  });
});

describe("verification and the journal", () => {
  test("a failed verify of a task method shows the closest polls, the task id field by field", async () => {
    await using t = await connected();
    t.mock.toolsCall("build").respondsWith("x");
    await drain(t.client, "build");
    expect(() => t.mock.verify(tasksGet("task-9"))).toThrow(/tasks\/get "task-9" \| tasks\/get "task-1" +<<<<< task id does not match/);
    expect(t.mock.findRequests(tasksGet("task-1")).every((e) => e.taskId === "task-1")).toBe(true);
    expect(t.mock.findRequests(toolsCall("build"))[0]?.taskId).toBe("task-1");
  });

  test("the same task over the in-memory transport (status notifications on its pipe)", async () => {
    await using mock = await McpMock.start({ tools: TOOLS, transport: "none" });
    mock.toolsCall("build").asTask({ afterPolls: 1, pollInterval: 1 }).respondsWith("in memory");
    const client = new Client({ name: "t", version: "1" });
    const statuses: string[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push(n.params.status));
    await client.connect(mock.clientTransport());
    await client.listTools();
    const seen = await drain(client, "build");
    expect((seen.at(-1)?.result as { content: Array<{ text: string }> }).content[0]?.text).toBe("in memory");
    await eventually(() => expect(statuses).toContain("completed"));
    await client.close();
  });
});
