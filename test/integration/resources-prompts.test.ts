/**
 * The whole server surface with the real SDK clients (v1 and v2) over HTTP: resources
 * (exact, template, missing), prompts (with and without args, missing), completion, log
 * level, pagination and list_changed.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { describe, expect, test } from "vitest";
import { ANY, McpMock, promptsGet, resourcesRead, type McpMockOptions } from "../../src/index.js";
import { startWithClient } from "../support/setup.js";

type AnyClient = ClientV1 | ClientV2;

async function connect(kind: "v1" | "v2", url: string): Promise<AnyClient> {
  if (kind === "v1") {
    const client = new ClientV1({ name: "t", version: "1" });
    await client.connect(new TransportV1(new URL(url)));
    return client;
  }
  const client = new ClientV2({ name: "t", version: "1" });
  await client.connect(new TransportV2(new URL(url)));
  return client;
}

const options: McpMockOptions = {
  onUnmatched: "silent",
  resources: [
    { uri: "test://hello", name: "hello", mimeType: "text/plain", text: "Hello, world" },
    { uri: "test://logo", name: "logo", mimeType: "image/png", blob: "iVBORw0KGgo=" },
    { uri: "test://stubbed", name: "stubbed" },
    { uriTemplate: "test://items/{id}", name: "item", mimeType: "application/json" },
  ],
  prompts: [
    { name: "greet", description: "Greets", arguments: [{ name: "name", required: true }, { name: "mood" }] },
    { name: "simple", messages: "No arguments here" },
  ],
};

describe.each(["v1", "v2"] as const)("%s client", (kind) => {
  const setup = (extra: McpMockOptions = {}) => startWithClient({ ...options, ...extra }, (url) => connect(kind, url));

  test("advertises resources, prompts and completions", async () => {
    await using ctx = await setup();
    expect(ctx.client.getServerCapabilities()).toMatchObject({
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    });
  });

  test("lists resources and templates without their contents", async () => {
    await using ctx = await setup();
    const { resources } = await ctx.client.listResources();
    expect(resources).toEqual([
      { uri: "test://hello", name: "hello", mimeType: "text/plain" },
      { uri: "test://logo", name: "logo", mimeType: "image/png" },
      { uri: "test://stubbed", name: "stubbed" },
    ]);
    const { resourceTemplates } = await ctx.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([{ uriTemplate: "test://items/{id}", name: "item", mimeType: "application/json" }]);
  });

  test("reads declared contents, exact stubs and template stubs", async () => {
    await using ctx = await setup();
    expect(await ctx.client.readResource({ uri: "test://hello" })).toEqual({
      contents: [{ uri: "test://hello", mimeType: "text/plain", text: "Hello, world" }],
    });
    expect((await ctx.client.readResource({ uri: "test://logo" })).contents[0]).toMatchObject({ blob: "iVBORw0KGgo=" });
    ctx.mock.resourcesRead("test://stubbed").respondsWith("stubbed text");
    expect((await ctx.client.readResource({ uri: "test://stubbed" })).contents).toEqual([{ uri: "test://stubbed", text: "stubbed text" }]);
    ctx.mock.resourcesRead("test://items/{id}").respondsWith((call) => ({ text: JSON.stringify({ id: call.variables["id"] }) }), { mimeType: "application/json" });
    expect((await ctx.client.readResource({ uri: "test://items/42" })).contents).toEqual([
      { uri: "test://items/42", mimeType: "application/json", text: '{"id":"42"}' },
    ]);
    ctx.mock.verify(resourcesRead("test://items/{id}"), 1);
  });

  test("a read of an unknown URI is resource-not-found with the known URIs", async () => {
    await using ctx = await setup();
    const error = await ctx.client.readResource({ uri: "test://hellp" }).catch((e: unknown) => e);
    // On the wire it is -32002 (2025-11-25); the v2 client maps that to its ResourceNotFoundError (-32602).
    expect(error).toMatchObject({ code: kind === "v1" ? -32002 : -32602 });
    expect(ctx.mock.requests().at(-1)?.answer).toMatchObject({ error: { code: -32002, message: "Resource not found" } });
    const wire = ctx.mock.requests().at(-1)?.answer as { error: { data: { uri: string; knownUris: string[]; report: string } } };
    const data = wire.error.data;
    expect(data.uri).toBe("test://hellp");
    expect(data.knownUris).toEqual(["test://hello", "test://logo", "test://stubbed", "test://items/{id}"]);
    expect(data.report).toContain('Did you mean "test://hello"?');
  });

  test("the not-found code can follow the v2 SDK (-32602)", async () => {
    await using ctx = await setup({ resourceNotFoundCode: -32602 });
    await expect(ctx.client.readResource({ uri: "test://none" })).rejects.toMatchObject({ code: -32602 });
  });

  // Before: the SDK's template matcher throws on a URI over 1,000,000 characters, and that
  // came back as -32603 "answering resources/read failed: Error: URI exceeds maximum length",
  // from a declared template and from a template stub alike.
  test("a URI over a million characters matches no template: resource not found, not an internal error", async () => {
    await using ctx = await setup();
    ctx.mock.resourcesRead("stub://items/{id}").respondsWith("stubbed");
    for (const uri of [`test://items/${"a".repeat(1_000_001)}`, `stub://items/${"b".repeat(1_000_001)}`]) {
      const error = await ctx.client.readResource({ uri }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: kind === "v1" ? -32002 : -32602 });
      expect(ctx.mock.requests().at(-1)?.answer).toMatchObject({ error: { code: -32002, message: "Resource not found" } });
    }
    expect((await ctx.client.readResource({ uri: "stub://items/1" })).contents).toEqual([{ uri: "stub://items/1", text: "stubbed" }]);
  });

  test("subscribe and unsubscribe are answered and journaled", async () => {
    await using ctx = await setup();
    await ctx.client.subscribeResource({ uri: "test://hello" });
    await ctx.client.unsubscribeResource({ uri: "test://hello" });
    expect(ctx.mock.requests().map((e) => e.method)).toEqual(expect.arrayContaining(["resources/subscribe", "resources/unsubscribe"]));
  });

  test("prompts: listed, got with args, with declared messages, missing required argument, unknown", async () => {
    await using ctx = await setup();
    const { prompts } = await ctx.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["greet", "simple"]);
    expect(prompts[0]).toEqual({ name: "greet", description: "Greets", arguments: [{ name: "name", required: true }, { name: "mood" }] });
    ctx.mock.promptsGet("greet").withArgs({ name: "Ada" }).respondsWith("Hello, Ada");
    ctx.mock.promptsGet("greet").withArgs(ANY).respondsWith((call) => `Hi, ${call.args.name}`, { description: "fallback" });
    expect(await ctx.client.getPrompt({ name: "greet", arguments: { name: "Ada" } })).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "Hello, Ada" } }],
    });
    expect(await ctx.client.getPrompt({ name: "greet", arguments: { name: "Bob" } })).toEqual({
      description: "fallback",
      messages: [{ role: "user", content: { type: "text", text: "Hi, Bob" } }],
    });
    expect((await ctx.client.getPrompt({ name: "simple" })).messages).toEqual([{ role: "user", content: { type: "text", text: "No arguments here" } }]);
    await expect(ctx.client.getPrompt({ name: "greet", arguments: { mood: "happy" } })).rejects.toMatchObject({ code: -32602 });
    await expect(ctx.client.getPrompt({ name: "nope" })).rejects.toMatchObject({ code: -32602 });
    ctx.mock.verify(promptsGet("greet").withArgs({ name: "Ada" }));
  });

  test("completion by prompt argument, filtered by the typed prefix; unstubbed is empty", async () => {
    await using ctx = await setup();
    ctx.mock.completionComplete().forPrompt("greet").withArgument("name").respondsWith(["Ada", "Alan", "Grace"]);
    const ref = { type: "ref/prompt" as const, name: "greet" };
    expect((await ctx.client.complete({ ref, argument: { name: "name", value: "A" } })).completion).toEqual({ values: ["Ada", "Alan"], total: 2, hasMore: false });
    expect((await ctx.client.complete({ ref, argument: { name: "mood", value: "" } })).completion.values).toEqual([]);
  });

  test("logging/setLevel is answered and remembered", async () => {
    await using ctx = await setup();
    await ctx.client.setLoggingLevel("warning");
    expect(ctx.mock.sessions()[0]).toMatchObject({ id: "session-1", logLevel: "warning", initialized: true, clientInfo: { name: "t" } });
    const request = ctx.client.request.bind(ctx.client) as (r: unknown, s: unknown) => Promise<unknown>;
    await expect(request({ method: "logging/setLevel", params: { level: "loud" } }, (await import("zod")).z.looseObject({}))).rejects.toMatchObject({ code: -32602 });
    const session = ctx.mock.requests().find((e) => e.method === "logging/setLevel")?.sessionId;
    expect(session).toBe("session-1");
  });
});

describe("pagination", () => {
  const many = Array.from({ length: 250 }, (_, i) => ({ name: `tool-${i}` }));
  const resources = Array.from({ length: 250 }, (_, i) => ({ uri: `test://r/${i}`, name: `r${i}` }));

  test("v1 pages through tools/list and resources/list with cursors", async () => {
    await using mock = await McpMock.start({ tools: many, resources });
    const client = (await connect("v1", mock.url)) as ClientV1;
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(names).toEqual(many.map((t) => t.name));
    let count = 0;
    cursor = undefined;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      count += page.resources.length;
      cursor = page.nextCursor;
    } while (cursor);
    expect(count).toBe(250);
    await expect(client.listTools({ cursor: "not-a-cursor" })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  test("v2 walks every page by itself", async () => {
    await using mock = await McpMock.start({ tools: many, pageSize: 40 });
    const client = (await connect("v2", mock.url)) as ClientV2;
    expect((await client.listTools()).tools).toHaveLength(250);
    await client.close();
  });
});

describe("list_changed", () => {
  test.each(["v1", "v2"] as const)("%s: declaring or removing while connected notifies on the GET stream", async (kind) => {
    await using mock = await McpMock.start({ tools: [{ name: "a" }] });
    const client = await connect(kind, mock.url);
    const seen: string[] = [];
    const { z } = await import("zod");
    for (const list of ["tools", "resources", "prompts"]) {
      const method = `notifications/${list}/list_changed`;
      const handler = (): void => void seen.push(method);
      if (client instanceof ClientV1) client.setNotificationHandler(z.object({ method: z.literal(method) }).passthrough() as never, handler);
      else client.setNotificationHandler(method as never, handler);
    }
    await new Promise((r) => setTimeout(r, 100)); // the GET stream opens after initialized
    mock.declareTool({ name: "b" });
    mock.declareResource({ uri: "test://x", name: "x" });
    mock.declarePrompt({ name: "p" });
    mock.removeTool("a");
    await expect.poll(() => seen.length).toBe(4);
    expect(seen).toEqual([
      "notifications/tools/list_changed",
      "notifications/resources/list_changed",
      "notifications/prompts/list_changed",
      "notifications/tools/list_changed",
    ]);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["b"]);
    await client.close();
  });
});

test("a resources/read stub answers a list whose items carry bytes (sent as base64)", async () => {
  await using mock = await McpMock.start();
  mock.resourcesRead("test://pair").respondsWith([{ text: "a text item" }, { blob: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), mimeType: "image/png" }]);
  const client = new ClientV1({ name: "bytes", version: "1.0.0" });
  await client.connect(new TransportV1(new URL(mock.url)));
  const read = await client.readResource({ uri: "test://pair" });
  await client.close();
  expect(read.contents).toEqual([
    { uri: "test://pair", text: "a text item" },
    { uri: "test://pair", blob: "iVBORw==", mimeType: "image/png" },
  ]);
});

test("a resources/read answer of bytes, constant or from a function, goes out as base64", async () => {
  await using mock = await McpMock.start();
  mock.resourcesRead("test://one").respondsWith({ blob: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) }, { mimeType: "image/png" });
  mock.resourcesRead("test://fn/{n}").respondsWith(async (call) => ({ blob: new Uint8Array([Number(call.variables.n)]) }));
  const client = new ClientV1({ name: "bytes", version: "1.0.0" });
  await client.connect(new TransportV1(new URL(mock.url)));
  const one = await client.readResource({ uri: "test://one" });
  const fn = await client.readResource({ uri: "test://fn/255" });
  await client.close();
  expect(one.contents).toEqual([{ uri: "test://one", blob: "iVBORw==", mimeType: "image/png" }]);
  expect(fn.contents).toEqual([{ uri: "test://fn/255", blob: "/w==" }]);
});
