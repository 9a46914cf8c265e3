/**
 * Sampling with tools (SEP-1577) through the v1 client: a request step offering `tools` and
 * `toolChoice`, the client's `tool_use` answer read by the script, two turns (the tool result
 * sent back), and the refusals: a wrong tool use, 10,000 of them, a client without
 * `sampling.tools`, a malformed offer at the DSL call.
 */
import { expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpMock } from "../../src/index.js";

const WEATHER = { name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "string" } } } };
const ASK = { messages: [{ role: "user", content: { type: "text", text: "Weather in Paris?" } }], maxTokens: 100, tools: [WEATHER], toolChoice: { mode: "auto" } };

async function start(): Promise<McpMock> {
  const mock = await McpMock.start({ onUnmatched: "silent", tools: [{ name: "plan", inputSchema: { type: "object" } }] });
  mock.toolsCall("plan").streams((s) =>
    s
      .request("sampling/createMessage", ASK, { key: "first" })
      .request(
        "sampling/createMessage",
        (call) => {
          const use = (call.answers.first.content as unknown as Array<{ id: string }>)[0] as { id: string };
          return { ...ASK, messages: [...ASK.messages, { role: "assistant", content: [call.answers.first.content].flat() }, { role: "user", content: [{ type: "tool_result", toolUseId: use.id, content: [{ type: "text", text: "Sunny" }] }] }] };
        },
        { key: "second" },
      )
      .result((call) => `model said: ${String((call.answers.second.content as unknown as { text: string }).text)}`),
  );
  return mock;
}

async function client(mock: McpMock, sampling: Record<string, unknown>, answer: (turn: number, params: Record<string, unknown>) => unknown): Promise<Client> {
  const c = new Client({ name: "v1", version: "1" }, { capabilities: { sampling } });
  let turn = 0;
  c.setRequestHandler(CreateMessageRequestSchema, async (request) => answer(++turn, request.params as never) as never);
  await c.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  return c;
}

test("two turns: the client uses the tool, the mock sends the result back, the model answers", async () => {
  await using mock = await start();
  const seen: Array<Record<string, unknown>> = [];
  const c = await client(mock, { tools: {} }, (turn, params) => {
    seen.push(params);
    return turn === 1
      ? { role: "assistant", model: "m", stopReason: "toolUse", content: [{ type: "tool_use", id: "use-1", name: "get_weather", input: { city: "Paris" } }] }
      : { role: "assistant", model: "m", stopReason: "endTurn", content: { type: "text", text: "Sunny in Paris" } };
  });
  expect(await c.callTool({ name: "plan", arguments: {} })).toMatchObject({ content: [{ text: "model said: Sunny in Paris" }] });
  expect(seen[0]).toMatchObject({ tools: [WEATHER], toolChoice: { mode: "auto" } });
  expect((seen[1]?.["messages"] as unknown[]).at(-1)).toMatchObject({ content: [{ type: "tool_result", toolUseId: "use-1" }] });
  await c.close();
});

test("a tool use of a tool not offered, or 10,000 of them, fails the call with the reason", async () => {
  await using mock = await start();
  const wrong = await client(mock, { tools: {} }, () => ({ role: "assistant", model: "m", content: [{ type: "tool_use", id: "u", name: "rm_rf", input: {} }] }));
  await expect(wrong.callTool({ name: "plan", arguments: {} })).rejects.toThrow(/uses the tool "rm_rf", which the request did not offer/);
  await wrong.close();
  const many = Array.from({ length: 10_000 }, (_, i) => ({ type: "tool_use", id: `u${i}`, name: "get_weather", input: {} }));
  const flood = await client(mock, { tools: {} }, () => ({ role: "assistant", model: "m", content: many }));
  await expect(flood.callTool({ name: "plan", arguments: {} })).rejects.toThrow(/10000 content blocks; at most 1000 are read/);
  await flood.close();
});

test("a client without sampling.tools is not asked; the call says what to declare", async () => {
  await using mock = await start();
  let asked = 0;
  const c = await client(mock, {}, () => ++asked);
  await expect(c.callTool({ name: "plan", arguments: {} })).rejects.toThrow(/did not declare "sampling\.tools"/);
  expect(asked).toBe(0);
  await c.close();
});

test("a malformed offer is refused at the DSL call", async () => {
  await using mock = await start();
  expect(() => mock.toolsCall("plan").streams((s) => s.request("sampling/createMessage", { ...ASK, toolChoice: { mode: "always" } }).result("x"))).toThrow(/toolChoice must be \{ mode: "auto" \| "required" \| "none" \}/);
  expect(() => mock.toolsCall("plan").streams((s) => s.request("sampling/createMessage", { ...ASK, tools: [{ name: "x" }] }).result("x"))).toThrow(/tools\[0\] must be \{ name, inputSchema/);
});
