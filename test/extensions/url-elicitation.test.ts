/**
 * URL-mode elicitation (SEP-1036) through real clients in both eras: `elicitUrl` in a stream
 * (2025-11-25: a request on the call's stream, v1 client; 2026-07-28: an input request, v2
 * client pinned), `completeElicitation` as a step and from the mock, the `-32042` error, and
 * what a client that did not declare `elicitation.url` gets.
 */
import { describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { McpMock, McpMockError } from "../../src/index.js";

const LOGIN = { message: "Sign in to Example", url: "https://example.com/login", elicitationId: "login-1" };

function start(): Promise<McpMock> {
  return McpMock.start({ onUnmatched: "silent", tools: [{ name: "connect", inputSchema: { type: "object" } }, { name: "pay", inputSchema: { type: "object" } }] });
}

async function v1(mock: McpMock, elicitation: Record<string, unknown>, seen: unknown[] = []): Promise<Client> {
  const client = new Client({ name: "v1", version: "1" }, { capabilities: { elicitation } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    seen.push(request.params);
    return { action: "accept" };
  });
  client.fallbackNotificationHandler = async (n) => void seen.push(n);
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  return client;
}

describe("2025-11-25 (v1 client)", () => {
  test("elicitUrl sends mode url with its id; completeElicitation follows; the answer reaches the result", async () => {
    await using mock = await start();
    mock.toolsCall("connect").streams((s) => s.elicitUrl(LOGIN).completeElicitation("login-1").result((call) => `user ${String(call.answer.action)}`));
    const seen: unknown[] = [];
    const client = await v1(mock, { url: {} }, seen);
    expect(await client.callTool({ name: "connect", arguments: {} })).toMatchObject({ content: [{ text: "user accept" }] });
    expect(seen[0]).toEqual({ mode: "url", ...LOGIN });
    expect(seen).toContainEqual(expect.objectContaining({ method: "notifications/elicitation/complete", params: { elicitationId: "login-1" } }));
    await client.close();
  });

  test("mock.completeElicitation for an id it sent, on the GET stream; an unknown id is refused with the ids sent", async () => {
    await using mock = await start();
    mock.toolsCall("connect").streams((s) => s.elicitUrl(LOGIN).result("started"));
    const seen: unknown[] = [];
    const client = await v1(mock, { url: {} }, seen);
    await client.callTool({ name: "connect", arguments: {} });
    expect(() => mock.completeElicitation("nope")).toThrow(McpMockError);
    expect(() => mock.completeElicitation("nope")).toThrow(/no URL elicitation with this id was sent \(sent: "login-1"\)/);
    const [sessionId] = mock.sessions().map((s) => s.id);
    expect(await mock.completeElicitation("login-1", { sessionId: sessionId as string })).toEqual([sessionId]);
    await expect.poll(() => seen).toContainEqual(expect.objectContaining({ method: "notifications/elicitation/complete", params: { elicitationId: "login-1" } }));
    await client.close();
  });

  test("a client without elicitation.url: the call fails and says what to declare", async () => {
    await using mock = await start();
    mock.toolsCall("connect").streams((s) => s.elicitUrl(LOGIN).result("never"));
    const seen: unknown[] = [];
    const client = await v1(mock, {}, seen);
    await expect(client.callTool({ name: "connect", arguments: {} })).rejects.toThrow(/did not declare "elicitation\.url"/);
    expect(seen).toEqual([]);
    await client.close();
  });

  test("respondsWithUrlElicitationRequired: -32042 with data.elicitations, as the SDK reads it", async () => {
    await using mock = await start();
    mock.toolsCall("pay").respondsWithUrlElicitationRequired([{ message: "Authorize", url: "https://example.com/pay", elicitationId: "pay-1" }]);
    const client = await v1(mock, { url: {} });
    const error = await client.callTool({ name: "pay", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32042);
    expect((error as McpError).data).toEqual({ elicitations: [{ mode: "url", message: "Authorize", url: "https://example.com/pay", elicitationId: "pay-1" }] });
    await client.close();
  });

  test("bad input is refused at the DSL call", async () => {
    await using mock = await start();
    expect(() => mock.toolsCall("pay").respondsWithUrlElicitationRequired([])).toThrow(/at least one elicitation/);
    expect(() => mock.toolsCall("pay").respondsWithUrlElicitationRequired({ message: "x", url: "javascript:alert(1)" })).toThrow(/absolute http\(s\) URL/);
    expect(() => mock.toolsCall("connect").streams((s) => s.elicitUrl({ message: 1 } as never).result("x"))).toThrow(/message must be a string/);
    // Without an id, each elicitation gets a fresh one.
    const handle = mock.toolsCall("pay").respondsWithUrlElicitationRequired({ message: "x", url: "https://example.com" });
    expect(handle.toString()).toContain("-32042");
  });
});

describe("2026-07-28 (v2 client pinned)", () => {
  async function v2(mock: McpMock, elicitation: Record<string, unknown>): Promise<ClientV2> {
    const client = new ClientV2({ name: "v2", version: "1" }, { capabilities: { elicitation }, versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
    client.setRequestHandler("elicitation/create", async (request) => ({ action: (request.params as { mode?: string }).mode === "url" ? "accept" : "decline" }));
    await client.connect(new TransportV2(new URL(mock.url)));
    return client;
  }

  test("elicitUrl is an input request; the retry's answer reaches the result", async () => {
    await using mock = await start();
    mock.toolsCall("connect").streams((s) => s.elicitUrl(LOGIN, { key: "login" }).result((call) => `user ${String(call.answer.action)}`));
    const client = await v2(mock, { url: {} });
    expect(await client.callTool({ name: "connect", arguments: {} })).toMatchObject({ content: [{ text: "user accept" }] });
    const first = mock.requests().find((e) => e.method === "tools/call");
    expect((first?.answer as { result: { inputRequests: unknown } }).result.inputRequests).toEqual({ login: { method: "elicitation/create", params: { mode: "url", ...LOGIN } } });
    await client.close();
  });

  test("a request without elicitation.url gets -32021 naming it", async () => {
    await using mock = await start();
    mock.toolsCall("connect").streams((s) => s.elicitUrl(LOGIN).result("never"));
    const client = await v2(mock, {});
    const error = (await client.callTool({ name: "connect", arguments: {} }).catch((e: unknown) => e)) as { code?: number; data?: unknown };
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
    await client.close();
  });
});
