/**
 * Issue 30 over raw HTTP: the defects the official conformance suite found at 2026-07-28 and in
 * the tasks extension, and the wave-3 forms (named and grouped input requests, partial answers,
 * answer checks, startTask) as a client sees them on the wire.
 */
import { afterEach, describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";
import { HEADERS, initializedHeaders, readUntil } from "../support/raw-http.js";

const V = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const ELICIT = { elicitation: { form: {} } };

interface Reply {
  status: number;
  body: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
}

let nextId = 1;
async function rpc(url: string, method: string, params: Record<string, unknown>, caps: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Reply> {
  const name = params["name"] ?? params["taskId"] ?? params["uri"];
  const meta = params["_meta"] ?? { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": caps };
  const res = await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, "mcp-protocol-version": V, "mcp-method": method, ...(typeof name === "string" ? { "mcp-name": name } : {}), ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } }),
  });
  const text = await res.text();
  const last = text.startsWith("event:") ? (text.split("\n").filter((l) => l.startsWith("data: ")).pop() ?? "").slice(6) : text;
  return { status: res.status, body: JSON.parse(last) as Reply["body"] };
}

const accept = (content: Record<string, unknown>): Record<string, unknown> => ({ action: "accept", content });
const schema = (name: string): Record<string, unknown> => ({ type: "object", properties: { [name]: { type: "string" } }, required: [name] });

let mock: McpMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe("defects the conformance suite found", () => {
  test("-32022 data.supported lists what server/discover lists", async () => {
    mock = await McpMock.start({ onUnmatched: "silent" });
    const discover = await rpc(mock.url, "server/discover", {});
    const refused = await rpc(mock.url, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01", "io.modelcontextprotocol/clientCapabilities": {} } }, {}, { "mcp-protocol-version": "2099-01-01" });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe(-32022);
    expect(refused.body.error?.data?.["supported"]).toEqual(discover.body.result?.["supportedVersions"]);
  });

  test("tasks/get, tasks/update and tasks/cancel without the tasks extension: 400, -32021 naming it", async () => {
    mock = await McpMock.start({ onUnmatched: "silent", tools: [{ name: "build", execution: { taskSupport: "optional" } }] });
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const reply = await rpc(mock.url, method, method === "tasks/update" ? { taskId: "task-1", inputResponses: {} } : { taskId: "task-1" });
      expect(reply.status, method).toBe(400);
      expect(reply.body.error?.code, method).toBe(-32021);
      expect(reply.body.error?.data?.["requiredCapabilities"], method).toEqual({ extensions: { [EXT]: {} } });
    }
  });

  test("tasks/result (removed) without Mcp-Name is 404/-32601 (a removed method has no name header to check)", async () => {
    mock = await McpMock.start({ onUnmatched: "silent" });
    const res = await fetch(mock.url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-protocol-version": V, "mcp-method": "tasks/result" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tasks/result", params: { taskId: "t", _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } } } }),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as Reply["body"]).error?.code).toBe(-32601);
    // The transport's checks come first (issue 44, as the reference SDK's server orders them): a
    // removed method whose Mcp-Method header disagrees is 400 -32020, one with no envelope 400 -32602.
    const ping = await rpc(mock.url, "ping", {}, {}, { "mcp-method": "tools/list" });
    expect([ping.status, ping.body.error?.code]).toEqual([400, -32020]);
    const unknown = await fetch(mock.url, { method: "POST", headers: { ...HEADERS, "mcp-protocol-version": V, "mcp-method": "no/such" }, body: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "no/such", params: {} }) });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as Reply["body"])).toMatchObject({ id: 8, error: { code: -32602 } });
  });

  test("a task whose tool answers isError ends completed with result.isError", async () => {
    mock = await McpMock.start({ onUnmatched: "silent", tools: [{ name: "job", execution: { taskSupport: "optional" } }] });
    mock.toolsCall("job").respondsWith("broke", { isError: true });
    const caps = { extensions: { [EXT]: {} } };
    const created = await rpc(mock.url, "tools/call", { name: "job", arguments: {} }, caps);
    const taskId = created.body.result?.["taskId"] as string;
    let task: Record<string, unknown> = {};
    for (let i = 0; i < 50 && !["completed", "failed"].includes(task["status"] as string); i++) task = (await rpc(mock.url, "tasks/get", { taskId }, caps)).body.result ?? {};
    expect(task["status"]).toBe("completed");
    expect((task["result"] as { isError?: boolean }).isError).toBe(true);
  });

  test.each([[null], ["x"], [[]]])("a _meta of %j is an invalid envelope: 400, -32602 naming _meta", async (bad) => {
    mock = await McpMock.start({ onUnmatched: "silent" });
    const res = await fetch(mock.url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-protocol-version": V, "mcp-method": "tools/list" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list", params: { _meta: bad } }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Reply["body"];
    expect(body.id).toBe(9);
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toContain("_meta");
  });
});

describe("input requests by name, several at once, and startTask (2026-07-28 rounds)", () => {
  test("a requests group is one round; a partial retry is asked only the rest; answers by key", async () => {
    mock = await McpMock.start({ onUnmatched: "silent", tools: [{ name: "signup" }] });
    mock.toolsCall("signup").streams((s) =>
      s
        .requests({ user: { method: "elicitation/create", params: { message: "Name?", requestedSchema: schema("name") } }, roots: { method: "roots/list" } })
        .result((call) => `${String(call.answers.user.content?.name)} with ${String(call.answers.roots.roots.length)} root(s)`),
    );
    const caps = { ...ELICIT, roots: {} };
    const first = await rpc(mock.url, "tools/call", { name: "signup", arguments: {} }, caps);
    expect(first.body.result?.["resultType"]).toBe("input_required");
    expect(Object.keys(first.body.result?.["inputRequests"] as object).sort()).toEqual(["roots", "user"]);
    const state1 = first.body.result?.["requestState"];
    const partial = await rpc(mock.url, "tools/call", { name: "signup", arguments: {}, requestState: state1, inputResponses: { user: accept({ name: "Ada" }), unknown: { x: 1 } } }, caps);
    expect(Object.keys(partial.body.result?.["inputRequests"] as object)).toEqual(["roots"]);
    const done = await rpc(mock.url, "tools/call", { name: "signup", arguments: {}, requestState: partial.body.result?.["requestState"], inputResponses: { roots: { roots: [{ uri: "file:///a" }] } } }, caps);
    expect(done.body.result?.["content"]).toEqual([{ type: "text", text: "Ada with 1 root(s)" }]);
  });

  test("an answer that is not its method's result, or content off its requestedSchema, is -32602 naming the key", async () => {
    mock = await McpMock.start({ onUnmatched: "silent", tools: [{ name: "ask" }] });
    mock.toolsCall("ask").streams((s) => s.request("elicitation/create", { message: "Name?", requestedSchema: schema("name") }, { key: "user_name" }).result("ok"));
    const first = await rpc(mock.url, "tools/call", { name: "ask", arguments: {} }, ELICIT);
    expect(Object.keys(first.body.result?.["inputRequests"] as object)).toEqual(["user_name"]);
    const state = first.body.result?.["requestState"];
    const wrongShape = await rpc(mock.url, "tools/call", { name: "ask", arguments: {}, requestState: state, inputResponses: { user_name: { nope: true } } }, ELICIT);
    expect(wrongShape.body.error?.code).toBe(-32602);
    expect(wrongShape.body.error?.message).toContain("user_name");
    const offSchema = await rpc(mock.url, "tools/call", { name: "ask", arguments: {}, requestState: state, inputResponses: { user_name: accept({ age: 3 }) } }, ELICIT);
    expect(offSchema.body.error?.code).toBe(-32602);
    expect(offSchema.body.error?.message).toContain("user_name.content.name");
  });

  test("a group needs every member's capability: -32021 listing all missing", async () => {
    mock = await McpMock.start({ onUnmatched: "silent", tools: [{ name: "both" }] });
    mock.toolsCall("both").streams((s) => s.requests({ a: { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } }, b: { method: "roots/list" } }).result("ok"));
    const reply = await rpc(mock.url, "tools/call", { name: "both", arguments: {} }, ELICIT);
    expect(reply.status).toBe(400);
    expect(reply.body.error?.code).toBe(-32021);
    expect(reply.body.error?.data?.["requiredCapabilities"]).toEqual({ sampling: {}, roots: {} });
  });

  test("startTask: a round first, then the task, whose two pending inputs tasks/update answers one by one", async () => {
    mock = await McpMock.start({ onUnmatched: "silent", tools: [{ name: "onboard", execution: { taskSupport: "required" } }] });
    mock.toolsCall("onboard").streams((s) =>
      s
        .request("elicitation/create", { message: "Name?", requestedSchema: schema("name") }, { key: "user_name" })
        .startTask()
        .requests({ team: { method: "elicitation/create", params: { message: "Team?", requestedSchema: schema("team") } }, role: { method: "elicitation/create", params: { message: "Role?", requestedSchema: schema("role") } } })
        .result((call) => `${String(call.answers.user_name.content?.name)}: ${String(call.answers.team.content?.team)}/${String(call.answers.role.content?.role)}`),
    );
    const caps = { ...ELICIT, extensions: { [EXT]: {} } };
    const refused = await rpc(mock.url, "tools/call", { name: "onboard", arguments: {} }, ELICIT);
    expect(refused.body.error?.code).toBe(-32021);
    const round = await rpc(mock.url, "tools/call", { name: "onboard", arguments: {} }, caps);
    expect(round.body.result?.["resultType"]).toBe("input_required");
    expect(round.body.result?.["taskId"]).toBeUndefined();
    const created = await rpc(mock.url, "tools/call", { name: "onboard", arguments: {}, requestState: round.body.result?.["requestState"], inputResponses: { user_name: accept({ name: "Ada" }) } }, caps);
    expect(created.body.result?.["resultType"]).toBe("task");
    expect(created.body.result?.["requestState"]).toBeUndefined();
    const taskId = created.body.result?.["taskId"] as string;
    const get = async (): Promise<Record<string, unknown>> => (await rpc(mock!.url, "tasks/get", { taskId }, caps)).body.result ?? {};
    let task = await get();
    for (let i = 0; i < 50 && task["status"] !== "input_required"; i++) task = await get();
    expect(Object.keys(task["inputRequests"] as object).sort()).toEqual(["role", "team"]);
    const wrong = await rpc(mock.url, "tasks/update", { taskId, inputResponses: { team: accept({ team: 7 }) } }, caps);
    expect(wrong.body.error?.code).toBe(-32602);
    expect(wrong.body.error?.message).toContain("team.content.team");
    expect((await rpc(mock.url, "tasks/update", { taskId, inputResponses: { team: accept({ team: "core" }) } }, caps)).body.result).toEqual({ resultType: "complete" });
    task = await get();
    expect(task["status"]).toBe("input_required");
    expect(Object.keys(task["inputRequests"] as object)).toEqual(["role"]);
    await rpc(mock.url, "tasks/update", { taskId, inputResponses: { role: accept({ role: "lead" }) } }, caps);
    for (let i = 0; i < 50 && task["status"] !== "completed"; i++) task = await get();
    expect((task["result"] as { content: unknown }).content).toEqual([{ type: "text", text: "Ada: core/lead" }]);
  });
});

describe("2025-11-25 tasks and sessions", () => {
  test("a task's server request waits for the GET stream that opens after it, and the task ends with the answer", async () => {
    mock = await McpMock.start({ onUnmatched: "silent", tools: [{ name: "ask", execution: { taskSupport: "optional" } }] });
    mock.toolsCall("ask").streams((s) => s.request("elicitation/create", { message: "Name?", requestedSchema: schema("name") }, { key: "who" }).result((call) => `hi ${String(call.answers.who.content?.name)}`));
    const headers = await initializedHeaders(mock.url, { elicitation: {}, tasks: {} });
    await (await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
    const created = (await (await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ask", arguments: {}, task: {} } }) })).json()) as Reply["body"];
    const taskId = (created.result?.["task"] as { taskId: string }).taskId;
    // The request is made while no GET stream is open: the task waits for its input before one opens.
    const url = mock.url;
    const status = async (): Promise<unknown> => ((await (await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tasks/get", params: { taskId } }) })).json()) as Reply["body"]).result?.["status"];
    await expect.poll(status, { timeout: 5000 }).toBe("input_required");
    const get = await fetch(mock.url, { method: "GET", headers: { ...headers, accept: "text/event-stream" } });
    const seen = await readUntil(get, "elicitation/create");
    const messages = seen.split("\n").filter((l) => l.startsWith("data: {")).map((l) => JSON.parse(l.slice(6)) as { id?: number; method?: string });
    const request = messages.find((m) => m.method === "elicitation/create") as { id: number };
    await (await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: request.id, result: accept({ name: "Ada" }) }) })).text();
    const result = (await (await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tasks/result", params: { taskId } }) })).json()) as Reply["body"];
    expect(result.result?.["content"]).toEqual([{ type: "text", text: "hi Ada" }]);
    await get.body?.cancel();
  });

  test("startTask in a session: the request before it on the call's stream, the task created there, the rest its work", async () => {
    mock = await McpMock.start({ onUnmatched: "silent", tools: [{ name: "onboard", execution: { taskSupport: "optional" } }] });
    mock.toolsCall("onboard").streams((s) =>
      s
        .request("elicitation/create", { message: "Name?", requestedSchema: schema("name") }, { key: "user_name" })
        .startTask()
        .request("elicitation/create", { message: "Team?", requestedSchema: schema("team") }, { key: "team" })
        .result((call) => `${String(call.answers.user_name.content?.name)} in ${String(call.answers.team.content?.team)}`),
    );
    const headers = await initializedHeaders(mock.url, { elicitation: {}, tasks: {} });
    await (await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
    const dataOf = (text: string): Array<{ id?: number; method?: string; result?: Record<string, unknown> }> => text.split("\n").filter((l) => l.startsWith("data: {")).map((l) => JSON.parse(l.slice(6)) as never);
    const call = await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "onboard", arguments: {}, task: {} } }) });
    const asked = dataOf(await readUntil(call, "elicitation/create")).find((m) => m.method === "elicitation/create") as { id: number };
    await (await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: asked.id, result: accept({ name: "Ada" }) }) })).text();
    const created = dataOf(await readUntil(call, '"result"')).find((m) => m.result !== undefined);
    const taskId = (created?.result?.["task"] as { taskId: string }).taskId;
    expect(taskId).toBe("task-1");
    const get = await fetch(mock.url, { method: "GET", headers: { ...headers, accept: "text/event-stream" } });
    const second = dataOf(await readUntil(get, "Team?")).find((m) => m.method === "elicitation/create") as { id: number };
    await (await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: second.id, result: accept({ team: "core" }) }) })).text();
    const result = (await (await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tasks/result", params: { taskId } }) })).json()) as Reply["body"];
    expect(result.result?.["content"]).toEqual([{ type: "text", text: "Ada in core" }]);
    await get.body?.cancel();
  });

  test("a session's requests group goes out at once and is awaited together; answers by key", async () => {
    mock = await McpMock.start({ onUnmatched: "silent", tools: [{ name: "both" }] });
    mock.toolsCall("both").streams((s) =>
      s.requests({ a: { method: "elicitation/create", params: { message: "A?", requestedSchema: schema("a") } }, r: { method: "roots/list" } }).result((call) => `${String(call.answers.a.content?.a)} ${String(call.answers.r.roots.length)}`),
    );
    const headers = await initializedHeaders(mock.url, { elicitation: {}, roots: {} });
    const res = await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "both", arguments: {} } }) });
    const seen = await readUntil(res, "roots/list");
    const asked = seen.split("\n").filter((l) => l.startsWith("data: ") && l.includes('"method"')).map((l) => JSON.parse(l.slice(6)) as { id: number; method: string });
    expect(asked.map((m) => m.method).sort()).toEqual(["elicitation/create", "roots/list"]);
    for (const m of asked) {
      const result = m.method === "roots/list" ? { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] } : accept({ a: "x" });
      await (await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: m.id, result }) })).text();
    }
    const rest = await readUntil(res, '"result"');
    expect(rest).toContain('"text":"x 2"');
  });
});
