/**
 * Issue 30 through the official v2 client (`@modelcontextprotocol/client`) in its three modes
 * (legacy: initialize and a session; auto: server/discover first; pinned to 2026-07-28), against
 * stubs written once: a named request and a group of two answered in one round (2026) or
 * together (a session), read by key; a streamed prompt that asks first; and a `notify` step of
 * `tools/list_changed`, which in 2026-07-28 goes to the listen stream that asked for it.
 */
import { describe, expect, test } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpMock } from "../../src/index.js";

type Mode = { pin: string } | "auto" | "legacy";
const MODES: Array<[string, Mode, string]> = [
  ["legacy", "legacy", "2025-11-25"],
  ["auto", "auto", "2026-07-28"],
  ["pinned to 2026-07-28", { pin: "2026-07-28" }, "2026-07-28"],
];

async function start(): Promise<McpMock> {
  const mock = await McpMock.start({ onUnmatched: "silent", tools: [{ name: "signup", inputSchema: { type: "object" } }], prompts: [{ name: "brief" }] });
  const ask = (field: string): { method: string; params: Record<string, unknown> } => ({
    method: "elicitation/create",
    params: { message: `${field}?`, requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] } },
  });
  mock.toolsCall("signup").streams((s) =>
    s
      .request(ask("name").method, ask("name").params, { key: "user_name" })
      .requests({ team: ask("team"), roots: { method: "roots/list" } })
      .result((call) => {
        const group = call.answer as { team: { content: { team: string } } };
        return `${String(call.answers.user_name.content.name)} in ${group.team.content.team}, ${String(call.answers.roots.roots.length)} root(s)`;
      }),
  );
  mock.promptsGet("brief").streams((s) => s.request(ask("context").method, ask("context").params, { key: "context" }).result((call) => `Brief: ${String(call.answers.context.content.context)}`));
  return mock;
}

async function client(mock: McpMock, mode: Mode): Promise<Client> {
  const c = new Client({ name: "v2", version: "1" }, { capabilities: { elicitation: { form: {} }, roots: {} }, versionNegotiation: { mode } } as never);
  c.setRequestHandler("elicitation/create", async (request) => {
    const field = Object.keys((request.params as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema.properties)[0] as string;
    return { action: "accept", content: { [field]: field === "name" ? "Ada" : field === "team" ? "core" : "tests" } };
  });
  c.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
  await c.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  return c;
}

describe.each(MODES)("the v2 client, %s", (_name, mode, revision) => {
  test("a named request, then a group of two, read by key; the prompt asks first", async () => {
    await using mock = await start();
    const c = await client(mock, mode);
    const result = await c.callTool({ name: "signup", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "Ada in core, 1 root(s)" }]);
    const prompt = await c.getPrompt({ name: "brief" });
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Brief: tests" } }]);
    const calls = mock.requests().filter((e) => e.method === "tools/call");
    expect(calls.every((e) => e.protocolVersion === revision)).toBe(true);
    // 2026-07-28: three rounds on the wire (the name, the group, the result); a session: one call.
    expect(calls.length).toBe(revision === "2026-07-28" ? 3 : 1);
    await c.close();
  });
});

test("2026-07-28: a notify step of tools/list_changed reaches the listen stream that asked, not the call's stream", async () => {
  await using mock = await McpMock.start({ onUnmatched: "silent", tools: [{ name: "grow", inputSchema: { type: "object" } }] });
  mock.toolsCall("grow").streams((s) => s.notify("notifications/tools/list_changed").result("grown"));
  const c = new Client({ name: "v2", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
  await c.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  const changed = new Promise<{ params?: { _meta?: Record<string, unknown> } }>((resolve) => c.setNotificationHandler("notifications/tools/list_changed", (n) => resolve(n as never)));
  const subscription = await c.listen({ toolsListChanged: true });
  expect((await c.callTool({ name: "grow", arguments: {} })).content).toEqual([{ type: "text", text: "grown" }]);
  expect((await changed).params?._meta?.["io.modelcontextprotocol/subscriptionId"]).toBeDefined();
  await subscription.close();
  await c.close();
});
