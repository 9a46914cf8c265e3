/**
 * Tasks are bound to who created them (the tasks pages' security section: a task MUST be bound
 * to the authorization context that created it and refused to any other). A 2025-11-25 task
 * belongs to its session; with `auth`, to the client and user of its token too; a 2026-07-28
 * task to its token. Anyone else gets "not found", as if the task did not exist. With `auth`,
 * session ids are random, so another token cannot guess one.
 */
import { describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";
import { HEADERS } from "../support/raw-http.js";
import { LegacyStream } from "../support/legacy-sse.js";

const V26 = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const tools = [{ name: "build", inputSchema: { type: "object" as const }, execution: { taskSupport: "optional" as const } }];

let nextId = 1;
interface Reply {
  status: number;
  body: { result?: Record<string, unknown>; error?: { code: number; message: string } };
  sessionId: string | null;
}

async function post(url: string, headers: Record<string, string>, method: string, params: Record<string, unknown>): Promise<Reply> {
  const res = await fetch(url, { method: "POST", headers: { ...HEADERS, ...headers }, body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }) });
  const text = await res.text();
  const last = text.startsWith("event:") ? (text.split("\n").filter((l) => l.startsWith("data: ")).pop() ?? "").slice(6) : text;
  return { status: res.status, body: (last === "" ? {} : JSON.parse(last)) as Reply["body"], sessionId: res.headers.get("mcp-session-id") };
}

/** A 2025-11-25 session opened with `headers` (a bearer token, say); its POST headers. */
async function session(url: string, headers: Record<string, string> = {}): Promise<Record<string, string>> {
  const init = await post(url, headers, "initialize", { protocolVersion: "2025-11-25", capabilities: { tasks: {} }, clientInfo: { name: "binding", version: "1" } });
  expect(init.status, JSON.stringify(init.body)).toBe(200);
  return { ...headers, "mcp-session-id": init.sessionId ?? "", "mcp-protocol-version": "2025-11-25" };
}

/** A 2026-07-28 request (no session), opted into the tasks extension. */
function modern(url: string, headers: Record<string, string>, method: string, params: Record<string, unknown>): Promise<Reply> {
  const name = params["name"] ?? params["taskId"];
  const meta = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
  return post(url, { ...headers, "mcp-protocol-version": V26, "mcp-method": method, ...(typeof name === "string" ? { "mcp-name": name } : {}) }, method, { ...params, _meta: meta });
}

async function start(auth = false): Promise<McpMock> {
  const mock = await McpMock.start({ tools, onUnmatched: "silent", ...(auth ? { auth: true } : {}) });
  mock.toolsCall("build").withDelay(2000).respondsWith("built");
  return mock;
}

const notFound = "Failed to retrieve task: Task not found";
const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

describe("tasks are bound to who created them", () => {
  test("a 2025-11-25 session's task is not found by a request without a session (2026-07-28) nor by another session", async () => {
    await using mock = await start();
    const owner = await session(mock.url);
    const created = await post(mock.url, owner, "tools/call", { name: "build", arguments: {}, task: {} });
    const taskId = (created.body.result?.["task"] as { taskId: string }).taskId;
    for (const method of ["tasks/get", "tasks/cancel"]) {
      const stranger = await modern(mock.url, {}, method, { taskId });
      expect(stranger.body.error?.message, method).toBe(notFound);
      const other = await post(mock.url, await session(mock.url), method, { taskId });
      expect(other.body.error?.message, method).toBe(notFound);
    }
    // Still working for its own session: nobody else cancelled it.
    expect((await post(mock.url, owner, "tasks/get", { taskId })).body.result).toMatchObject({ taskId, status: "working" });
  });

  test("a 2026-07-28 task without auth is not found by a 2025-11-25 session", async () => {
    await using mock = await start();
    const created = await modern(mock.url, {}, "tools/call", { name: "build", arguments: {} });
    const taskId = created.body.result?.["taskId"] as string;
    expect((await post(mock.url, await session(mock.url), "tasks/get", { taskId })).body.error?.message).toBe(notFound);
    expect((await modern(mock.url, {}, "tasks/get", { taskId })).body.result).toMatchObject({ taskId, status: "working" });
  });

  test("with auth, another token sent with the owner's session id gets 'not found'; the owner's refreshed token still sees it", async () => {
    await using mock = await start(true);
    const mine = mock.auth.issueToken({ clientId: "app", subject: "alice" });
    const owner = await session(mock.url, bearer(mine));
    const created = await post(mock.url, owner, "tools/call", { name: "build", arguments: {}, task: {} });
    const taskId = (created.body.result?.["task"] as { taskId: string }).taskId;
    for (const other of [mock.auth.issueToken({ clientId: "app", subject: "mallory" }), mock.auth.issueToken({ clientId: "other", subject: "alice" }), mock.auth.issueToken()]) {
      for (const method of ["tasks/get", "tasks/cancel"]) {
        const stolen = await post(mock.url, { ...owner, ...bearer(other) }, method, { taskId });
        expect(stolen.body.error?.message ?? `status ${stolen.status}`, method).toMatch(/Task not found|Session not found/);
      }
    }
    const again = mock.auth.issueToken({ clientId: "app", subject: "alice" }); // a refresh: same client, same user
    expect((await post(mock.url, { ...owner, ...bearer(again) }, "tasks/get", { taskId })).body.result).toMatchObject({ taskId, status: "working" });
  });

  test("with auth, a 2026-07-28 task is bound to its token's client and user", async () => {
    await using mock = await start(true);
    const mine = mock.auth.issueToken({ clientId: "app", subject: "alice" });
    const created = await modern(mock.url, bearer(mine), "tools/call", { name: "build", arguments: {} });
    const taskId = created.body.result?.["taskId"] as string;
    for (const other of [mock.auth.issueToken({ clientId: "app", subject: "mallory" }), mock.auth.issueToken()]) {
      for (const method of ["tasks/get", "tasks/cancel"]) expect((await modern(mock.url, bearer(other), method, { taskId })).body.error?.message, method).toBe(notFound);
    }
    expect((await modern(mock.url, bearer(mine), "tasks/get", { taskId })).body.result).toMatchObject({ taskId, status: "working" });
  });

  test("with auth, session ids cannot be guessed: random UUIDs, not session-N", async () => {
    await using mock = await start(true);
    const token = mock.auth.issueToken();
    const ids = [(await session(mock.url, bearer(token)))["mcp-session-id"], (await session(mock.url, bearer(token)))["mcp-session-id"]];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  test("with auth, another token cannot use a session it did not open", async () => {
    await using mock = await start(true);
    const owner = await session(mock.url, bearer(mock.auth.issueToken({ clientId: "app", subject: "alice" })));
    const stolen = await post(mock.url, { ...owner, ...bearer(mock.auth.issueToken({ clientId: "app", subject: "mallory" })) }, "tools/list", {});
    expect(stolen.status).toBe(404);
    expect((await post(mock.url, owner, "tools/list", {})).status).toBe(200);
  });

  test("with auth, another token cannot POST to a legacy HTTP+SSE session it did not open", async () => {
    await using mock = await start(true);
    const mine = bearer(mock.auth.issueToken({ clientId: "app", subject: "alice" }));
    const stream = await LegacyStream.open(mock.sseUrl, mine);
    try {
      const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
      const stolen = await stream.post(ping, bearer(mock.auth.issueToken({ clientId: "app", subject: "mallory" })));
      expect(stolen.status).toBe(404);
      expect(await stolen.text()).toContain("a session belongs to the token");
      expect((await stream.post(ping, mine)).status).toBe(202);
    } finally {
      stream.close();
    }
  });

  test("with auth, a task's status notifications reach the listen streams of its own token only", async () => {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent", auth: true });
    // The task finishes only when the test says so: after both listen streams are open.
    let finish = (): void => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    mock.toolsCall("build").respondsWith(async () => (await finished, "built"));
    const mine = bearer(mock.auth.issueToken({ clientId: "app", subject: "alice" }));
    const theirs = bearer(mock.auth.issueToken({ clientId: "app", subject: "mallory" }));
    const taskId = (await modern(mock.url, mine, "tools/call", { name: "build", arguments: {} })).body.result?.["taskId"] as string;
    const listen = async (headers: Record<string, string>, abort: AbortController): Promise<{ text: () => string; done: Promise<void> }> => {
      const meta = { "io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
      const res = await fetch(mock.url, { method: "POST", signal: abort.signal, headers: { ...HEADERS, ...headers, "mcp-protocol-version": V26, "mcp-method": "subscriptions/listen" }, body: JSON.stringify({ jsonrpc: "2.0", id: 99, method: "subscriptions/listen", params: { notifications: { taskIds: [taskId] }, _meta: meta } }) });
      let text = "";
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const done = (async () => {
        try {
          for (;;) {
            const { value, done: ended } = await reader.read();
            if (ended) return;
            text += new TextDecoder().decode(value);
          }
        } catch {
          // aborted
        }
      })();
      return { text: () => text, done };
    };
    const aborts = [new AbortController(), new AbortController()];
    const [own, stranger] = await Promise.all([listen(mine, aborts[0] as AbortController), listen(theirs, aborts[1] as AbortController)]);
    for (const stream of [own, stranger]) await expect.poll(() => stream?.text() ?? "", { timeout: 5000 }).toContain("notifications/subscriptions/acknowledged");
    finish();
    await expect.poll(() => own?.text() ?? "", { timeout: 5000 }).toContain('"status":"completed"');
    await new Promise((r) => setTimeout(r, 100));
    expect(stranger?.text()).toContain("notifications/subscriptions/acknowledged");
    expect(stranger?.text()).not.toContain("notifications/tasks");
    for (const a of aborts) a.abort();
    await Promise.all([own?.done, stranger?.done]);
  });
});
