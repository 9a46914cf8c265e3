/**
 * Task parameters from clients are bounded: a negative `pollInterval` or a ttl of 1e308 is not
 * taken as given; a `tasks/result` that waits past the task's ttl answers "expired" then, not
 * when the work ends; and the task cap is fair: one session holds at most its share of
 * `tasks.maxTasks`, so another can still start one. A `tasks/result` stops waiting when its
 * client does (its connection closed, or notifications/cancelled): a client that went away
 * holds nothing until the task ends.
 */
import { describe, expect, test } from "vitest";
import { McpMock, type McpMockOptions } from "../../src/index.js";
import { MAX_REQUESTED_TASK_TTL_MS, DEFAULT_TASK_POLL_INTERVAL_MS } from "../../src/engine/tasks/tasks.js";
import { HEADERS } from "../support/raw-http.js";

const tools = [{ name: "build", inputSchema: { type: "object" as const }, execution: { taskSupport: "optional" as const } }];

let nextId = 1;
async function post(url: string, headers: Record<string, string>, method: string, params: Record<string, unknown>): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const res = await fetch(url, { method: "POST", headers: { ...HEADERS, ...headers }, body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }) });
  return (await res.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

async function session(url: string): Promise<Record<string, string>> {
  const res = await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { tasks: {} }, clientInfo: { name: "bounds", version: "1" } } }) });
  await res.text();
  return { "mcp-session-id": res.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-11-25" };
}

async function start(options: McpMockOptions = {}): Promise<McpMock> {
  const mock = await McpMock.start({ tools, onUnmatched: "silent", ...options });
  mock.toolsCall("build").withDelay(3000).respondsWith("built");
  return mock;
}

const taskOf = (answer: { result?: Record<string, unknown> }): Record<string, unknown> => answer.result?.["task"] as Record<string, unknown>;

describe("task parameters from clients are bounded", () => {
  test("a negative pollInterval gets the mock's; a ttl of 1e308 is cut to the most a client may ask", async () => {
    await using mock = await start();
    const s = await session(mock.url);
    const task = taskOf(await post(mock.url, s, "tools/call", { name: "build", arguments: {}, task: { ttl: 1e308, pollInterval: -5 } }));
    expect(task).toMatchObject({ status: "working", ttl: MAX_REQUESTED_TASK_TTL_MS, pollInterval: DEFAULT_TASK_POLL_INTERVAL_MS });
    const fractional = taskOf(await post(mock.url, s, "tools/call", { name: "build", arguments: {}, task: { ttl: 1.5e9, pollInterval: 1e12 } }));
    expect(fractional["ttl"]).toBe(MAX_REQUESTED_TASK_TTL_MS);
    expect(fractional["pollInterval"]).toBeLessThanOrEqual(60_000);
  });

  test("a tasks/result waiting past the task's ttl answers 'expired' then, not when the work ends", async () => {
    await using mock = await start();
    const s = await session(mock.url);
    const taskId = taskOf(await post(mock.url, s, "tools/call", { name: "build", arguments: {}, task: { ttl: 150 } }))["taskId"];
    const t0 = Date.now();
    const answer = await post(mock.url, s, "tasks/result", { taskId });
    expect(answer.error).toMatchObject({ code: -32602, message: "Failed to retrieve task: Task has expired" });
    expect(Date.now() - t0).toBeLessThan(1500);
    expect((await post(mock.url, s, "tasks/get", { taskId })).error?.message).toBe("Failed to retrieve task: Task has expired");
  });

  test("a tasks/result whose client went away (connection closed, or notifications/cancelled) stops waiting at once; the task runs on", async () => {
    await using mock = await start();
    mock.toolsCall("build").withDelay(60_000).respondsWith("built");
    const s = await session(mock.url);
    const taskId = taskOf(await post(mock.url, s, "tools/call", { name: "build", arguments: {}, task: { ttl: 3_600_000 } }))["taskId"];
    const gone = new AbortController();
    const waits = Array.from({ length: 20 }, (_, i) => fetch(mock.url, { method: "POST", signal: gone.signal, headers: { ...HEADERS, ...s }, body: JSON.stringify({ jsonrpc: "2.0", id: `w${i}`, method: "tasks/result", params: { taskId } }) }).catch(() => undefined));
    const waiting = () => mock.requests().filter((e) => e.method === "tasks/result" && e.answer === undefined);
    await expect.poll(() => waiting().length).toBe(20);
    gone.abort();
    await Promise.all(waits);
    await expect.poll(() => waiting().length, { timeout: 2000 }).toBe(0);
    const answers = mock.requests().filter((e) => e.method === "tasks/result").map((e) => (e.answer as { error?: { message: string } }).error?.message);
    expect(new Set(answers)).toStrictEqual(new Set([`[mcpmock] tasks/result of task ${String(taskId)} stopped waiting: the client went away (its connection closed) before the task ended. The task runs on; ask again with tasks/result.`]));
    // A client that cancels its request (as the SDK does when its call is aborted) stops the wait too.
    const cancelled = post(mock.url, s, "tasks/result", { taskId });
    await expect.poll(() => waiting().length).toBe(1);
    const requestId = waiting()[0]?.id;
    await fetch(mock.url, { method: "POST", headers: { ...HEADERS, ...s }, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } }) });
    expect((await cancelled).error?.message).toContain("stopped waiting: the client cancelled it (notifications/cancelled)");
    expect((await post(mock.url, s, "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
  });

  test("one session holds at most its share of tasks.maxTasks (maxTasksPerSession); another session can still start one", async () => {
    await using mock = await start({ tasks: { maxTasks: 4, maxTasksPerSession: 3 } });
    const greedy = await session(mock.url);
    for (let i = 0; i < 3; i++) expect(taskOf(await post(mock.url, greedy, "tools/call", { name: "build", arguments: {}, task: {} }))).toMatchObject({ status: "working" });
    const refused = await post(mock.url, greedy, "tools/call", { name: "build", arguments: {}, task: {} });
    expect(refused.error).toMatchObject({ code: -32603, message: "[mcpmock] this session holds 3 running tasks, its share of tasks.maxTasks (tasks.maxTasksPerSession: 3), so that others can still start one. Let some finish or cancel them, or raise tasks.maxTasksPerSession." });
    expect(taskOf(await post(mock.url, await session(mock.url), "tools/call", { name: "build", arguments: {}, task: {} }))).toMatchObject({ status: "working" });
  });

  test("by default a session's share is three quarters of maxTasks", async () => {
    await using mock = await start({ tasks: { maxTasks: 8 } });
    const greedy = await session(mock.url);
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await post(mock.url, greedy, "tools/call", { name: "build", arguments: {}, task: {} }));
    expect(answers.filter((a) => a.result !== undefined)).toHaveLength(6);
    expect(taskOf(await post(mock.url, await session(mock.url), "tools/call", { name: "build", arguments: {}, task: {} }))).toMatchObject({ status: "working" });
  });

  test("tasks.maxTasksPerSession is checked when the mock starts", async () => {
    await expect(McpMock.start({ transport: "none", tasks: { maxTasksPerSession: 0 } })).rejects.toThrow("tasks.maxTasksPerSession must be a positive whole number, received 0.");
  });
});
