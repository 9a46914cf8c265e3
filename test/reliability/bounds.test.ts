/**
 * Issue 20's defects, each reproduced as a hostile client would and asserted fixed: deep
 * nesting, the session cap against held GET streams, memory bounded by bytes, SSE
 * backpressure. (Host and admin checks are in security.test.ts.)
 */
import { describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";
import { ACCEPT_BOTH } from "../support/raw-http.js";

const tools = [{ name: "echo", inputSchema: { type: "object" } }] as const;
const init = (id: number | string = 0) => ({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bounds", version: "1" } } });

function post(url: string, body: string | object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
}

async function session(url: string): Promise<Record<string, string>> {
  const res = await post(url, init());
  expect(res.status, await res.text()).toBe(200);
  return { "mcp-session-id": res.headers.get("mcp-session-id") as string, "mcp-protocol-version": "2025-11-25" };
}

const deep = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

describe("deep nesting (issue 20, defect 4)", () => {
  // Before: arguments 5,000 deep were answered and journaled; then verify() threw RangeError
  // and GET /__admin/requests and POST /__admin/verify answered 500 until a reset.
  test("arguments 5,000 deep are refused when parsed; verify() and the admin API keep working", async () => {
    await using mock = await McpMock.start({ tools, admin: true, onUnmatched: "silent" });
    mock.toolsCall("echo").respondsWith("ok");
    const headers = await session(mock.url);
    const res = await post(mock.url, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":${deep(5000)}}}}`, headers);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { data: string } }).error.data).toContain("deeper than 514 levels");
    expect(() => mock.verify(mock.toolsCall("echo").withArgs({ a: 1 }))).toThrow(/never|0 times|expected/i);
    const admin = mock.url.replace(/\/mcp$/, "/__admin");
    expect((await fetch(`${admin}/requests`)).status).toBe(200);
    const verify = await fetch(`${admin}/verify`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pattern: { tool: "echo" }, count: 0 }) });
    expect(await verify.json()).toStrictEqual({ ok: true, matched: 0 });
    const deepVerify = await fetch(`${admin}/verify`, { method: "POST", headers: { "content-type": "application/json" }, body: `{"pattern":{"tool":"echo","args":{"a":${deep(100_000)}}}}` });
    expect(deepVerify.status).toBe(400);
    expect(await deepVerify.json()).toStrictEqual({ error: "[mcpmock] the request body must not nest deeper than 514 levels; send a flatter value." });
  });
});
