/**
 * The tasks extension of 2026-07-28 (`io.modelcontextprotocol/tasks`) over raw HTTP, since the
 * v2 client does not speak it yet: declared in server/discover, opted into per request, a task
 * created at once (`resultType: "task"`), polled with tasks/get until its result is inline,
 * input asked for in `inputRequests` and given with tasks/update, cancelled, refused without the
 * opt-in (-32021), and status notifications on a listen stream.
 */
import { describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";
import { HEADERS } from "../support/raw-http.js";

const V = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";

function meta(optIn: boolean): Record<string, unknown> {
  return { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": optIn ? { extensions: { [EXT]: {} } } : {} };
}

interface Reply {
  status: number;
  body: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
}

let nextId = 1;
async function rpc(url: string, method: string, params: Record<string, unknown>, optIn = true): Promise<Reply> {
  const name = params["name"] ?? params["taskId"];
  const res = await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, "mcp-protocol-version": V, "mcp-method": method, ...(typeof name === "string" ? { "mcp-name": name } : {}) },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta(optIn) } }),
  });
  const text = await res.text();
  const last = text.startsWith("event:") ? (text.split("\n").filter((l) => l.startsWith("data: ")).pop() ?? "").slice(6) : text;
  return { status: res.status, body: JSON.parse(last) as Reply["body"] };
}

async function pollUntil(url: string, taskId: string, done: (task: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const task = (await rpc(url, "tasks/get", { taskId })).body.result as Record<string, unknown>;
    if (done(task)) return task;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`task ${taskId} never got there`);
}

async function start(): Promise<McpMock> {
  const mock = await McpMock.start({
    onUnmatched: "silent",
    tools: [
      { name: "build", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } },
      { name: "deploy", inputSchema: { type: "object" }, execution: { taskSupport: "required" } },
      { name: "confirm", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } },
    ],
  });
  mock.toolsCall("build").withDelay(50).respondsWith("built");
  mock.toolsCall("deploy").withDelay(5000).respondsWith("deployed");
  mock.toolsCall("confirm").streams((s) =>
    s.request("elicitation/create", { message: "Sure?", requestedSchema: { type: "object" } }).result((call) => `answer: ${JSON.stringify((call.answer as { content?: unknown }).content)}`),
  );
  return mock;
}

describe("the 2026-07-28 tasks extension", () => {
  test("server/discover declares the extension when a tool may run as a task", async () => {
    await using mock = await start();
    const discover = await rpc(mock.url, "server/discover", {});
    expect(discover.body.result?.["capabilities"]).toMatchObject({ extensions: { [EXT]: {} } });
    expect(discover.body.result?.["capabilities"]).not.toHaveProperty("tasks");
  });

  test("an opted-in call is a task at once; tasks/get polls it to its inline result; 2025's tasks/result and tasks/list are gone", async () => {
    await using mock = await start();
    const created = await rpc(mock.url, "tools/call", { name: "build", arguments: {} });
    expect(created.body.result).toMatchObject({ resultType: "task", status: "working", ttlMs: 60000, pollIntervalMs: 100 });
    const taskId = created.body.result?.["taskId"] as string;
    const done = await pollUntil(mock.url, taskId, (t) => t["status"] === "completed");
    expect(done).toMatchObject({ resultType: "complete", taskId, result: { content: [{ type: "text", text: "built" }] } });
    for (const method of ["tasks/result", "tasks/list"]) expect((await rpc(mock.url, method, { taskId })).status, method).toBe(404);
    // Without the opt-in, the same optional tool answers plainly.
    const plain = await rpc(mock.url, "tools/call", { name: "build", arguments: {} }, false);
    expect(plain.body.result).toEqual({ content: [{ type: "text", text: "built" }], resultType: "complete" });
  });

  test("a tool that requires a task, called without the opt-in: 400, -32021 naming the extension", async () => {
    await using mock = await start();
    const refused = await rpc(mock.url, "tools/call", { name: "deploy", arguments: {} }, false);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [EXT]: {} } } } });
  });

  test("input: the task waits in input_required with its inputRequests; tasks/update answers; the result sees the answer", async () => {
    await using mock = await start();
    const taskId = (await rpc(mock.url, "tools/call", { name: "confirm", arguments: {} })).body.result?.["taskId"] as string;
    const waiting = await pollUntil(mock.url, taskId, (t) => t["status"] === "input_required");
    expect(waiting["inputRequests"]).toMatchObject({ "elicitation-1": { method: "elicitation/create", params: { message: "Sure?" } } });
    const update = await rpc(mock.url, "tasks/update", { taskId, inputResponses: { "elicitation-1": { action: "accept", content: { ok: true } }, unknown: 1 } });
    expect(update.body.result).toEqual({ resultType: "complete" });
    const done = await pollUntil(mock.url, taskId, (t) => t["status"] === "completed");
    expect(done["result"]).toMatchObject({ content: [{ type: "text", text: 'answer: {"ok":true}' }] });
    expect((await rpc(mock.url, "tasks/update", { taskId, inputResponses: 5 })).body.error?.code).toBe(-32602);
  });

  test("tasks/cancel acknowledges with an empty result and the task ends cancelled", async () => {
    await using mock = await start();
    const taskId = (await rpc(mock.url, "tools/call", { name: "deploy", arguments: {} })).body.result?.["taskId"] as string;
    expect((await rpc(mock.url, "tasks/cancel", { taskId })).body.result).toEqual({ resultType: "complete" });
    expect((await rpc(mock.url, "tasks/get", { taskId })).body.result?.["status"]).toBe("cancelled");
    expect((await rpc(mock.url, "tasks/cancel", { taskId })).body.result).toEqual({ resultType: "complete" });
  });

  test("notifications/tasks reach a listen stream that asked for the task", async () => {
    await using mock = await start();
    const taskId = (await rpc(mock.url, "tools/call", { name: "build", arguments: {} })).body.result?.["taskId"] as string;
    const abort = new AbortController();
    const res = await fetch(mock.url, {
      method: "POST",
      signal: abort.signal,
      headers: { ...HEADERS, "mcp-protocol-version": V, "mcp-method": "subscriptions/listen" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 99, method: "subscriptions/listen", params: { notifications: { taskIds: [taskId] }, _meta: meta(true) } }),
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes('"completed"')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('"method":"notifications/subscriptions/acknowledged"');
    expect(text).toContain(`"taskIds":["${taskId}"]`);
    expect(text).toMatch(/"method":"notifications\/tasks","params":\{[^\n]*"status":"completed"[^\n]*"io.modelcontextprotocol\/subscriptionId":99/);
    abort.abort();
  });
});
