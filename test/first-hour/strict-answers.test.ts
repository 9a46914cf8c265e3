/**
 * Issue 32, item 1: `strict: true` refuses every answer a client would reject, not only the
 * ones the SDK's result schemas catch. A tool with an `outputSchema` answered with structured
 * content that breaks it (the SDK client then fails the call with -32602), or with no
 * structured content at all (the client fails it with -32600), is refused where the stub is
 * written when the answer is a constant, and at call time (an error that names the stub and
 * the broken rule, instead of the client's own) when it is a function of the call or the tool
 * was declared after the stub.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, test } from "vitest";
import { McpMock, McpMockError } from "mcpmock";

const repo = {
  name: "repo",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { stars: { type: "integer" } }, required: ["stars"] },
} as const;

let mock: McpMock | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await mock?.close();
  client = mock = undefined;
});

async function connected(m: McpMock): Promise<Client> {
  mock = m;
  client = new Client({ name: "first-hour", version: "1.0.0" });
  await client.connect(m.clientTransport());
  await client.listTools(); // the SDK client checks structured content against the schemas it listed
  return client;
}

describe("at stub time, for a constant answer", () => {
  test("structured content that breaks the outputSchema is refused, naming the field and the rule", async () => {
    mock = await McpMock.start({ transport: "none", strict: true, tools: [repo] });
    const write = () => mock?.toolsCall("repo").respondsWith({ stars: 1.5 });
    expect(write).toThrow(McpMockError);
    expect(write).toThrow(/outputSchema/);
    expect(write).toThrow(/structuredContent\.stars must be integer \(rule: type\), received 1\.5/);
  });

  test("an answer without structured content, for a tool that declares an outputSchema, is refused", async () => {
    mock = await McpMock.start({ transport: "none", strict: true, tools: [repo] });
    expect(() => mock?.toolsCall("repo").respondsWith("many stars")).toThrow(/declares an outputSchema.*no structuredContent/s);
    expect(() => mock?.toolsCall("repo").respondsWith({ content: [{ type: "text", text: "x" }], structuredContent: { stars: "3" } })).toThrow(/structuredContent\.stars must be integer/);
  });

  test("later answers (andThen) pass the same check", async () => {
    mock = await McpMock.start({ transport: "none", strict: true, tools: [repo] });
    const handle = mock.toolsCall("repo").respondsWith({ stars: 1 });
    expect(() => handle.andThen({ stars: "many" })).toThrow(/structuredContent\.stars must be integer/);
  });

  test("what a client accepts still passes: a matching object, an error answer, a tool without a schema", async () => {
    const c = await connected(await McpMock.start({ transport: "none", strict: true, tools: [repo, { name: "free" }] }));
    mock?.toolsCall("repo").respondsWith({ stars: 3 });
    mock?.toolsCall("free").respondsWith({ stars: 1.5 });
    expect(() => mock?.toolsCall("repo").withArgs({ broken: true }).respondsWith("down", { isError: true })).not.toThrow();
    expect((await c.callTool({ name: "repo", arguments: {} })).structuredContent).toEqual({ stars: 3 });
    expect(await c.callTool({ name: "free", arguments: {} })).toMatchObject({ content: [{ type: "text", text: '{"stars":1.5}' }] });
    expect(await c.callTool({ name: "repo", arguments: { broken: true } })).toMatchObject({ isError: true });
  });

  test("without strict the broken answer goes out, and the SDK client is the one to reject it", async () => {
    const c = await connected(await McpMock.start({ transport: "none", tools: [repo] }));
    mock?.toolsCall("repo").respondsWith({ stars: 1.5 });
    await expect(c.callTool({ name: "repo", arguments: {} })).rejects.toThrow(/-32602.*Structured content does not match/);
  });
});

describe("at call time, for an answer made by the call", () => {
  test("a function's result that breaks the outputSchema is answered with an error naming the stub and the rule", async () => {
    const c = await connected(await McpMock.start({ transport: "none", strict: true, tools: [repo] }));
    mock?.toolsCall("repo").respondsWith(() => ({ stars: 1.5 }));
    const call = c.callTool({ name: "repo", arguments: {} });
    await expect(call).rejects.toThrow(/-32603.*\[mcpmock\].*stub-1.*structuredContent\.stars must be integer/s);
  });

  test("a function's result with a broken content block is refused the same way", async () => {
    const c = await connected(await McpMock.start({ transport: "none", strict: true, tools: [{ name: "free" }] }));
    mock?.toolsCall("free").respondsWith(() => ({ content: [{ type: "text" }] }));
    await expect(c.callTool({ name: "free", arguments: {} })).rejects.toThrow(/-32603.*not a valid tools\/call result/s);
  });

  test("a constant answer to a tool declared after the stub is checked against the schema it has when called", async () => {
    const c = await connected(await McpMock.start({ transport: "none", strict: true, tools: [{ name: "late" }] }));
    mock?.toolsCall("late").respondsWith({ stars: 1.5 });
    mock?.declareTool({ name: "late", outputSchema: repo.outputSchema });
    await c.listTools();
    await expect(c.callTool({ name: "late", arguments: {} })).rejects.toThrow(/-32603.*structuredContent\.stars must be integer/s);
  });

  test("a constant answer that passed is checked again when its tool is declared anew (it is checked once per schema, not once for all)", async () => {
    const c = await connected(await McpMock.start({ transport: "none", strict: true, tools: [{ name: "late" }] }));
    mock?.toolsCall("late").respondsWith({ stars: 1.5 });
    for (let i = 0; i < 2; i++) expect((await c.callTool({ name: "late", arguments: {} })).isError).not.toBe(true);
    mock?.declareTool({ name: "late", outputSchema: repo.outputSchema });
    await c.listTools();
    await expect(c.callTool({ name: "late", arguments: {} })).rejects.toThrow(/-32603.*structuredContent\.stars must be integer/s);
  });

  test("a prompt answer function that returns no messages is refused at call time", async () => {
    const c = await connected(await McpMock.start({ transport: "none", strict: true, prompts: [{ name: "p" }] }));
    mock?.promptsGet("p").respondsWith((() => ({ messages: [{ role: "robot", content: { type: "text", text: "x" } }] })) as never);
    await expect(c.getPrompt({ name: "p" })).rejects.toThrow(/-32603.*not a valid prompts\/get result/s);
  });
});
