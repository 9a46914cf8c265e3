/**
 * The official v2 client (`@modelcontextprotocol/client`) pinned to 2026-07-28 over HTTP,
 * against stubs written once for both eras: tools, streams with progress and logs, resources,
 * prompts, completion, elicitation and sampling through input_required rounds, list_changed on
 * a listen stream; `auto` mode picking the revision; the v1 client unchanged beside it.
 */
import { describe, expect, test } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { exactly, McpMock, toolsCall } from "../../src/index.js";
import { CLI, ROOT } from "../support/build.js";

type Mode = { pin: string } | "auto" | "legacy";

async function v2(mock: McpMock, mode: Mode = { pin: "2026-07-28" }, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client({ name: "v2", version: "1" }, { capabilities, versionNegotiation: { mode } } as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  return client;
}

/** One mock whose stubs every test below uses, for either era. */
async function start(): Promise<McpMock> {
  const mock = await McpMock.start({
    onUnmatched: "silent",
    tools: [
      { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } }, outputSchema: { type: "object", properties: { sum: { type: "number" } } } },
      { name: "fail", inputSchema: { type: "object" } },
      { name: "work", inputSchema: { type: "object" } },
      { name: "deploy", inputSchema: { type: "object", properties: { env: { type: "string" } } } },
    ],
    resources: [{ uri: "test://readme", name: "readme", text: "Read me" }, { uriTemplate: "test://users/{id}", name: "user" }],
    prompts: [{ name: "greet", arguments: [{ name: "name", required: true }] }],
  });
  mock.toolsCall("add").respondsWith((call) => ({ sum: Number(call.args["a"]) + Number(call.args["b"]) }));
  mock.toolsCall("fail").respondsWith("it broke", { isError: true });
  mock.toolsCall("work").streams((s) => s.progress(1, 2).log("debug", "fine detail").log("warning", "careful").progress(2, 2).result("done"));
  mock.toolsCall("deploy").streams((s) =>
    s
      .request("elicitation/create", { message: "Deploy?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } })
      .request("sampling/createMessage", { messages: [{ role: "user", content: { type: "text", text: "summarize" } }], maxTokens: 10 })
      .result((call) => {
        const [confirm, summary] = call.answers as [{ content?: { ok?: boolean } }, { content?: { text?: string } }];
        return `ok=${String(confirm.content?.ok)} summary=${String(summary.content?.text)} env=${String(call.args["env"])}`;
      }),
  );
  mock.resourcesRead("test://users/{id}").respondsWith((call) => ({ text: `user ${String(call.variables["id"])}` }));
  mock.promptsGet("greet").respondsWith((call) => `Hello, ${String(call.args["name"])}`);
  mock.completionComplete().forPrompt("greet").withArgument("name").respondsWith(["Ada", "Alan"]);
  return mock;
}

describe("the v2 client pinned to 2026-07-28", () => {
  test("tools: list, call, an isError result, structured content; the journal records the revision", async () => {
    await using mock = await start();
    const client = await v2(mock);
    expect(client.getNegotiatedProtocolVersion?.() ?? "2026-07-28").toBe("2026-07-28");
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["add", "fail", "work", "deploy"]);
    const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    expect(sum.structuredContent).toEqual({ sum: 5 });
    const failed = await client.callTool({ name: "fail", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(failed.content).toEqual([{ type: "text", text: "it broke" }]);
    mock.verify(toolsCall("add").withArgs({ a: 2, b: 3 }));
    const entry = mock.requests().find((e) => e.method === "tools/call");
    expect([entry?.protocolVersion, entry?.sessionId]).toEqual(["2026-07-28", undefined]);
    await client.close();
  });

  test("a streamed call: progress always, logs only at the level the request sets", async () => {
    await using mock = await start();
    const client = await v2(mock);
    const logs: unknown[] = [];
    client.setNotificationHandler("notifications/message", (n) => void logs.push(n.params));
    const progress: unknown[] = [];
    const quiet = await client.callTool({ name: "work", arguments: {} }, { onprogress: (p: unknown) => void progress.push(p) } as never);
    expect(quiet.content).toEqual([{ type: "text", text: "done" }]);
    expect(progress).toHaveLength(2);
    expect(logs).toEqual([]);
    await client.callTool({ name: "work", arguments: {}, _meta: { "io.modelcontextprotocol/logLevel": "info" } });
    expect(logs).toEqual([{ level: "warning", data: "careful" }]);
    await client.close();
  });

  test("resources (list, read, templates, not found as -32602), prompts and completion", async () => {
    await using mock = await start();
    const client = await v2(mock);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["test://readme"]);
    expect((await client.readResource({ uri: "test://readme" })).contents).toEqual([{ uri: "test://readme", text: "Read me" }]);
    expect((await client.readResource({ uri: "test://users/7" })).contents).toEqual([{ uri: "test://users/7", text: "user 7" }]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(["test://users/{id}"]);
    const missing = await client.readResource({ uri: "test://nope" }).catch((e: unknown) => e);
    expect((missing as { code?: number }).code).toBe(-32602);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
    expect((await client.getPrompt({ name: "greet", arguments: { name: "Ada" } })).messages).toEqual([{ role: "user", content: { type: "text", text: "Hello, Ada" } }]);
    const completion = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "A" } });
    expect(completion.completion.values).toEqual(["Ada", "Alan"]);
    await client.close();
  });

  test("an elicitation and a sampling request answered through input_required rounds", async () => {
    await using mock = await start();
    const client = await v2(mock, { pin: "2026-07-28" }, { elicitation: { form: {} }, sampling: {} });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { ok: true } }));
    client.setRequestHandler("sampling/createMessage", async () => ({ role: "assistant", content: { type: "text", text: "short" }, model: "m" }));
    const result = await client.callTool({ name: "deploy", arguments: { env: "prod" } });
    expect(result.content).toEqual([{ type: "text", text: "ok=true summary=short env=prod" }]);
    // Three requests on the wire, one call of the stub and one call for verify(), as in a session.
    expect(mock.requests().filter((e) => e.method === "tools/call")).toHaveLength(3);
    expect(mock.stubs().find((s) => s.sentence.includes('"deploy"'))?.calls).toBe(1);
    mock.verify(toolsCall("deploy").withArgs({ env: "prod" }), exactly(1));
    await client.close();
  });

  test("a client without the capability a script needs gets -32021 naming it", async () => {
    await using mock = await start();
    const client = await v2(mock, { pin: "2026-07-28" }, { elicitation: { form: {} } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { ok: true } }));
    const error = await client.callTool({ name: "deploy", arguments: {} }).catch((e: unknown) => e);
    expect((error as { code?: number }).code).toBe(-32021);
    await client.close();
  });

  test("list_changed reaches a listen stream, with the subscription id", async () => {
    await using mock = await start();
    const client = await v2(mock);
    const changed = new Promise<unknown>((resolve) => client.setNotificationHandler("notifications/tools/list_changed", (n) => resolve(n)));
    const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true, promptsListChanged: true });
    mock.declareTool({ name: "late", inputSchema: { type: "object" } });
    const notification = (await changed) as { params?: { _meta?: Record<string, unknown> } };
    expect(notification.params?._meta?.["io.modelcontextprotocol/subscriptionId"]).toBeDefined();
    expect(await mock.notify("notifications/prompts/list_changed")).toEqual([expect.stringMatching(/^subscription:/)]);
    await subscription.close();
    await client.close();
  });
});

describe("the 2026 revision without HTTP", () => {
  test("in memory: the v2 client pinned to 2026-07-28 over mock.clientTransport(), rounds and a listen stream", async () => {
    await using mock = await start();
    const client = new Client({ name: "v2", version: "1" }, { capabilities: { elicitation: { form: {} }, sampling: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { ok: false } }));
    client.setRequestHandler("sampling/createMessage", async () => ({ role: "assistant", content: { type: "text", text: "s" }, model: "m" }));
    await client.connect(mock.clientTransport() as never);
    expect((await client.callTool({ name: "add", arguments: { a: 1, b: 2 } })).structuredContent).toEqual({ sum: 3 });
    expect((await client.callTool({ name: "deploy", arguments: { env: "dev" } })).content).toEqual([{ type: "text", text: "ok=false summary=s env=dev" }]);
    const changed = new Promise<unknown>((resolve) => client.setNotificationHandler("notifications/tools/list_changed", (n) => resolve(n)));
    const subscription = await client.listen({ toolsListChanged: true });
    mock.declareTool({ name: "late", inputSchema: { type: "object" } });
    await changed;
    expect(mock.requests().every((e) => e.transport === "memory" && (e.protocolVersion === "2026-07-28" || e.kind === "notification"))).toBe(true);
    await subscription.close();
    await client.close();
  });

  test("over stdio: the v2 client pinned to 2026-07-28 spawning mcpmock stdio", async () => {
    const client = new Client({ name: "v2", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "stdio", "examples/weather.mock.json"], cwd: ROOT, stderr: "pipe" }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("get_weather");
    const result = await client.callTool({ name: "get_weather", arguments: { city: "Seoul" } });
    expect(JSON.stringify(result.content)).toContain("Seoul");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    await client.close();
  });
});

describe("a definition file in the 2026 revision", () => {
  test("its stream's request step plays as a round, {{answer...}} sees the answer, options narrow the versions", async () => {
    await using mock = await McpMock.fromDefinition({
      server: { name: "weather", version: "1.0.0" },
      options: { protocolVersions: ["2026-07-28"], cacheHints: { ttlMs: 1000, cacheScope: "public" } },
      tools: [{ name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "string" } } } }],
      responses: [
        {
          tool: "get_weather",
          stream: [{ progress: 1, total: 2 }, { request: "elicitation/create", params: { message: "Units?", requestedSchema: { type: "object", properties: { units: { type: "string" } } } } }],
          result: "Weather in {{args.city}}, in {{answer.content.units}}",
        },
      ],
    });
    const client = await v2(mock, "auto", { elicitation: { form: {} } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { units: "celsius" } }));
    const listed = await client.listTools();
    expect(listed).toMatchObject({ ttlMs: 1000, cacheScope: "public" });
    const result = await client.callTool({ name: "get_weather", arguments: { city: "Seoul" } });
    expect(result.content).toEqual([{ type: "text", text: "Weather in Seoul, in celsius" }]);
    expect(client.getDiscoverResult()?.supportedVersions).toEqual(["2026-07-28"]);
    await client.close();
  });
});

describe("version negotiation", () => {
  test("auto mode picks 2026-07-28 from server/discover", async () => {
    await using mock = await start();
    const client = await v2(mock, "auto");
    await client.listTools();
    expect(mock.requests().map((e) => e.method)).toEqual(["server/discover", "tools/list"]);
    expect(mock.requests()[1]?.protocolVersion).toBe("2026-07-28");
    await client.close();
  });

  test("auto mode picks 2025-11-25 from a mock limited to 2025 versions", async () => {
    await using mock = await McpMock.start({ protocolVersions: ["2025-11-25"], tools: [{ name: "t", inputSchema: { type: "object" } }] });
    const client = await v2(mock, "auto");
    await client.listTools();
    const listed = mock.requests().find((e) => e.method === "tools/list");
    expect(listed?.protocolVersion).toBe("2025-11-25");
    expect(listed?.sessionId).toBe("session-1");
    await client.close();
  });

  test("v1 and v2 clients in the 2025 era get the same answers from the same stubs", async () => {
    await using mock = await start();
    const v1 = new V1Client({ name: "v1", version: "1" });
    await v1.connect(new V1Transport(new URL(mock.url)));
    const legacy = await v2(mock, "legacy");
    const modern = await v2(mock);
    for (const client of [v1, legacy, modern] as unknown as Client[]) {
      expect((await client.callTool({ name: "add", arguments: { a: 1, b: 1 } })).structuredContent).toEqual({ sum: 2 });
    }
    expect(mock.requests().filter((e) => e.method === "tools/call").map((e) => e.protocolVersion)).toEqual(["2025-11-25", "2025-11-25", "2026-07-28"]);
    await v1.close();
    await legacy.close();
    await modern.close();
  });
});
