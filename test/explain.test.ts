/**
 * Reports are UI: the texts a user reads, checked against golden files in test/fixtures/.
 * Each is produced the way a user meets it: through a real client over HTTP.
 */
import { expect, test } from "vitest";
import { ANY, McpMock } from "../src/index.js";
import { connect, textOf } from "./support/clients.js";

const tools = [
  {
    name: "get_weather",
    inputSchema: {
      type: "object",
      properties: {
        city: { type: "string", minLength: 2 },
        days: { type: "integer", minimum: 1, maximum: 7 },
        units: { enum: ["c", "f"] },
        stops: { type: "array", items: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
      },
      required: ["city"],
      additionalProperties: false,
    },
  },
  { name: "add", inputSchema: { type: "object" } },
] as const;

test("the miss answer for a tool call (the seed's rule 4)", async () => {
  await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
  const client = await connect("v1", mock.url);
  mock.toolsCall("get_weather").withArgs({ city: "Seoul" }).respondsWith({ temp: 21 });
  mock.toolsCall("get_weather").withArgs({ city: "Jeju", days: 2 }).withSessionId("other").respondsWith({ temp: 18 });
  mock.toolsCall("get_weather").withArgsMatching({ units: "f" }).respondsWith({ temp: 70 });
  mock.toolsCall("get_weather").withArgs({ city: "Busan", units: "c" }).respondsWith({ temp: 19 });
  const result = await client.callTool("get_weather", { city: "Jeju", days: 3 });
  expect(result["isError"]).toBe(true);
  await expect(textOf(result)).toMatchFileSnapshot("fixtures/tool-miss.txt");
  await client.close();
});

test("the miss answer when nothing is stubbed for the tool", async () => {
  await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
  const client = await connect("v2", mock.url);
  const result = await client.callTool("add", { a: 1 });
  await expect(textOf(result)).toMatchFileSnapshot("fixtures/tool-miss-nothing-stubbed.txt");
  await client.close();
});

test("the schema diagnostic (the seed's rule 2) names the field, the rule and the value", async () => {
  await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
  mock.toolsCall("get_weather").withArgs(ANY).respondsWith({ temp: 0 });
  const client = await connect("v1", mock.url);
  const result = await client.callTool("get_weather", {
    city: "X",
    days: 0,
    units: "k",
    stops: [{ name: "a" }, { label: "b" }],
    extra: true,
  });
  expect(result["isError"]).toBe(true);
  await expect(textOf(result)).toMatchFileSnapshot("fixtures/schema-violation.txt");
  await client.close();
});

test("the miss report for a method, in the JSON-RPC error data", async () => {
  await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
  mock.method("custom/thing").withParams({ id: 1, mode: "fast" }).respondsWith({ ok: true });
  const client = await connect("v1", mock.url);
  const error = await client.request("custom/thing", { id: 2, mode: "fast" }).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: -32601 });
  await expect((error as { data: string }).data).toMatchFileSnapshot("fixtures/method-miss.txt");
  const typo = await client.request("tools/lst", {}).catch((e: unknown) => e);
  await expect((typo as { data: string }).data).toMatchFileSnapshot("fixtures/method-miss-typo.txt");
  await client.close();
});

test("every stub explains itself in one sentence", async () => {
  await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
  const sentences = [
    mock.toolsCall("get_weather").withArgs({ city: "Paris" }).respondsWith("Sunny").toString(),
    mock.toolsCall("add").withArgs(ANY).times(3).respondsWith({ sum: 3 }).andThen({ sum: 4 }).toString(),
    mock.toolsCall("add").withArgsMatching({ a: 1 }).withSessionId("s-1").priority(2).respondsWith("x", { isError: true }).toString(),
    mock.toolsCall().withHeader("authorization", /^Bearer /).withDelay(50).respondsWithError(-32603, "internal").toString(),
    mock.method("custom/thing").withParams({ id: 7 }).times(3).respondsWith({ ok: true }).toString(),
    mock.ping().withProtocolVersion("2025-03-26").respondsWith(() => ({})).toString(),
    mock.deleteSession().respondsWithStatus(405).toString(),
    mock.initialize().withBodyContaining("claude").respondsWith({ instructions: "hi" }, { sessionId: "s-9" }).toString(),
  ];
  await expect(sentences.join("\n") + "\n").toMatchFileSnapshot("fixtures/stub-sentences.txt");
});
