/**
 * Issue 32, item 3: the stub suggested for a miss works as pasted. For a call to a tool (or a
 * prompt) that is not declared, the suggestion declares it: the DSL chain runs on a mock
 * without throwing, and the definition fragment is accepted by `POST /__admin/stubs` and then
 * answers the call.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "vitest";
import { ANY, McpMock } from "mcpmock";

interface Suggested {
  method: string;
  target?: string;
  suggestion: { definition: Record<string, unknown>; dsl: string };
}

async function missesOf(setup: (client: Client, mock: McpMock) => Promise<unknown>, options: Parameters<typeof McpMock.start>[0] = {}): Promise<{ mock: McpMock; admin: string; misses: Suggested[]; client: Client }> {
  const mock = await McpMock.start({ admin: true, onUnmatched: "silent", ...options });
  const client = new Client({ name: "first-hour", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  await setup(client, mock).catch(() => undefined);
  const admin = `${new URL(mock.url).origin}/__admin`;
  const misses = (await (await fetch(`${admin}/requests/unmatched`)).json()) as Suggested[];
  return { mock, admin, misses, client };
}

/** Runs a suggested DSL chain as a user pastes it, on a mock with nothing declared. */
async function runsAsPasted(dsl: string): Promise<void> {
  await using mock = await McpMock.start({ transport: "none" });
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function("mock", "ANY", dsl)(mock, ANY);
}

test("a call to an undeclared tool: the DSL suggestion declares the tool, and the fragment is accepted and answers", async () => {
  const { mock, admin, misses, client } = await missesOf((c) => c.callTool({ name: "nope", arguments: { q: 1 } }));
  try {
    const miss = misses.find((m) => m.method === "tools/call");
    expect(miss?.suggestion.dsl).toContain('mock.declareTool({ name: "nope"');
    await expect(runsAsPasted(miss?.suggestion.dsl ?? "")).resolves.toBeUndefined();
    const posted = await fetch(`${admin}/stubs`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(miss?.suggestion.definition) });
    expect(posted.status, await posted.clone().text()).toBe(201);
    expect(await client.callTool({ name: "nope", arguments: { q: 1 } })).toMatchObject({ content: [{ type: "text", text: "TODO: the answer" }] });
  } finally {
    await client.close();
    await mock.close();
  }
});

test("a call to an undeclared prompt: the DSL suggestion declares the prompt first", async () => {
  const { mock, misses, client } = await missesOf((c) => c.getPrompt({ name: "greet", arguments: { who: "Ada" } }));
  try {
    const miss = misses.find((m) => m.method === "prompts/get");
    expect(miss?.suggestion.dsl).toContain('mock.declarePrompt({ name: "greet"');
    await expect(runsAsPasted(miss?.suggestion.dsl ?? "")).resolves.toBeUndefined();
  } finally {
    await client.close();
    await mock.close();
  }
});

test("a call to a declared tool with other arguments: the suggestion does not declare it again", async () => {
  // The stub for other arguments is there before the call, so the call misses a stub of its tool.
  const { mock, misses, client } = await missesOf(
    (c, m) => (m.toolsCall("add").withArgs({ a: 1 }).respondsWith("one"), c.callTool({ name: "add", arguments: { a: 9 } })),
    { tools: [{ name: "add" }] },
  );
  try {
    const miss = misses.find((m) => m.method === "tools/call");
    expect(miss?.suggestion.dsl).toBe('mock.toolsCall("add").withArgs({"a":9}).respondsWith("TODO: the answer");');
    expect(miss?.suggestion.definition).toEqual({ responses: [{ tool: "add", args: { a: 9 }, result: "TODO: the answer" }] });
  } finally {
    await client.close();
    await mock.close();
  }
});
