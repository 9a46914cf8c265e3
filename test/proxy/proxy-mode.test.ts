/**
 * Proxy mode against a real server nobody here wrote (@modelcontextprotocol/server-everything),
 * over stdio and over Streamable HTTP, through the SDK v1 and v2 clients: stubs win, the rest is
 * the real server's, lists merge, progress, resources and prompts pass through, a transform
 * alters an answer, and the journal says what the upstream answered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpMock } from "../../src/index.js";
import { CLIENT_KINDS, connect, textOf } from "../support/clients.js";
import { everythingOverHttp, STDIO_UPSTREAM } from "./everything.js";

let http: Awaited<ReturnType<typeof everythingOverHttp>>;
beforeAll(async () => {
  http = await everythingOverHttp();
});
afterAll(async () => {
  await http.stop();
});

const UPSTREAMS = {
  stdio: () => STDIO_UPSTREAM,
  http: () => ({ target: http.url }),
} as const;

describe.each(Object.keys(UPSTREAMS) as Array<keyof typeof UPSTREAMS>)("proxy mode in front of server-everything over %s", (wire) => {
  it.each(CLIENT_KINDS)("a stubbed tool wins, an unstubbed one is the real server's, lists merge (%s client)", async (kind) => {
    await using mock = await McpMock.start({ proxy: UPSTREAMS[wire](), tools: [{ name: "local", inputSchema: { type: "object" } }, { name: "echo", description: "the mock's echo", inputSchema: { type: "object" } }] });
    mock.toolsCall("echo").withArgs({ message: "stubbed" }).respondsWith("from the stub");
    mock.toolsCall("local").respondsWith("only in the mock");
    const client = await connect(kind, mock.url);
    try {
      expect(textOf(await client.callTool("echo", { message: "stubbed" }))).toBe("from the stub");
      expect(textOf(await client.callTool("echo", { message: "real" }))).toBe("Echo: real");
      expect(textOf(await client.callTool("get-sum", { a: 2, b: 3 }))).toBe("The sum of 2 and 3 is 5.");
      expect(textOf(await client.callTool("local"))).toBe("only in the mock");
      const tools = (await client.listTools()).tools;
      const names = tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["local", "echo", "get-sum", "trigger-long-running-operation"]));
      expect(names.filter((n) => n === "echo")).toHaveLength(1);
      expect(tools.find((t) => t.name === "echo")?.["description"]).toBe("the mock's echo");
      const read = (await client.request("resources/read", { uri: "demo://resource/static/document/architecture.md" })) as { contents: Array<{ text?: string }> };
      expect(read.contents[0]?.text).toMatch(/architecture/i);
      const prompt = (await client.request("prompts/get", { name: "args-prompt", arguments: { city: "Paris", state: "TX" } })) as { messages: Array<{ content: { text: string } }> };
      expect(prompt.messages[0]?.content.text).toContain("Paris");
    } finally {
      await client.close();
    }
    const proxied = mock.requests().filter((e) => e.proxied === true);
    expect(proxied.map((e) => e.method)).toEqual(expect.arrayContaining(["tools/call", "tools/list", "resources/read", "prompts/get"]));
    const sum = proxied.find((e) => e.params?.["name"] === "get-sum");
    expect(sum?.upstream?.answer).toEqual({ result: { content: [{ type: "text", text: "The sum of 2 and 3 is 5." }] } });
    expect(sum?.upstream?.durationMs).toBeGreaterThanOrEqual(0);
    // The stubbed call is in the journal, answered by the mock, not the upstream.
    const stubbed = mock.requests().filter((e) => (e.params?.["arguments"] as { message?: string } | undefined)?.message === "stubbed");
    expect(stubbed).toHaveLength(1);
    expect(stubbed[0]?.proxied).toBeUndefined();
    expect(stubbed[0]?.upstream).toBeUndefined();
    expect(mock.unmatched()).toEqual([]);
  }, 30_000);

  it("progress passes through as it comes, and a transform alters the real answer", async () => {
    await using mock = await McpMock.start({ proxy: UPSTREAMS[wire]() });
    mock.toolsCall("get-sum").proxies((answer, call) => ({ ...answer, isError: true, content: [{ type: "text", text: `altered ${JSON.stringify(call.args)}: ${(answer["content"] as Array<{ text: string }>)[0]?.text}` }] }));
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
    try {
      // The mock introduces itself as the upstream does, unless told otherwise.
      expect(client.getServerVersion()?.name).toBe("mcp-servers/everything");
      expect(client.getInstructions()).toBe(mock.snapshot().server?.instructions);
      expect(client.getInstructions()?.length).toBeGreaterThan(0);
      const progress: Array<{ progress: number; total?: number }> = [];
      const long = await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: (p) => progress.push(p) });
      expect(progress).toEqual([{ progress: 1, total: 3 }, { progress: 2, total: 3 }, { progress: 3, total: 3 }]);
      expect(JSON.stringify(long)).toContain("Long running operation completed");
      const sum = await client.callTool({ name: "get-sum", arguments: { a: 1, b: 1 } });
      expect(sum).toEqual({ isError: true, content: [{ type: "text", text: 'altered {"a":1,"b":1}: The sum of 1 and 1 is 2.' }] });
    } finally {
      await client.close();
    }
    const entry = mock.requests().find((e) => e.params?.["name"] === "get-sum");
    expect(entry?.proxied).toBe(true);
    expect(entry?.upstream?.answer).toEqual({ result: { content: [{ type: "text", text: "The sum of 1 and 1 is 2." }] } });
  }, 30_000);
});
