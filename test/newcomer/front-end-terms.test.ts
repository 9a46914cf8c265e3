/**
 * Issue 21, item 5: each front end answered in its own terms. A mock the CLI serves says what
 * to add to its definition file (JSON), never `mock.method(...)`; the admin API's verify
 * report points at admin routes; a definition's stubs keep their ids across reset; and
 * `GET /__admin/requests/unmatched` lists the misses. Driven through `mcpmock serve` (a child
 * process), the SDK client and plain HTTP to the admin API.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { McpMock, toolsCall } from "../../src/index.js";
import { startCli, type RunningCli } from "../support/cli-run.js";

const dir = mkdtempSync(join(tmpdir(), "mcpmock-terms-"));
const file = join(dir, "shop.mock.json");
writeFileSync(
  file,
  JSON.stringify({
    tools: [
      { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] } },
      { name: "echo", inputSchema: { type: "object" } },
    ],
    resources: [{ uri: "test://hello", name: "hello", text: "Hello" }],
    prompts: [{ name: "greet", arguments: [{ name: "name", required: true }], responses: [{ args: { name: "Ada" }, messages: "Hi Ada" }] }],
    responses: [
      { tool: "add", args: { a: 1 }, result: { sum: 1 } },
      { method: "custom/ping", params: { n: 1 }, result: { ok: true } },
    ],
  }),
);

let serve: RunningCli;
let mcpUrl: string;
let admin: string;
let client: Client;

beforeAll(async () => {
  serve = startCli(["serve", file, "--port", "0"]);
  const out = await serve.waitFor("stdout", (text) => text.includes("stub-3"));
  mcpUrl = /at (http:\/\/\S+\/mcp)/.exec(out)?.[1] as string;
  admin = mcpUrl.replace(/\/mcp$/, "/__admin");
  client = new Client({ name: "terms", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
});

afterAll(async () => {
  await client?.close();
  serve?.kill();
  await serve?.exited;
  rmSync(dir, { recursive: true, force: true });
});

const json = { "content-type": "application/json" };
const post = (path: string, body: unknown): Promise<Response> => fetch(`${admin}${path}`, { method: "POST", headers: json, body: JSON.stringify(body) });

describe("a mock served by the CLI explains misses as definition JSON", () => {
  test("every kind of miss names the file and the entry to add, and no DSL call", async () => {
    const calls = [
      () => client.request({ method: "custom/ping", params: { n: 2 } } as never, z.looseObject({}) as never),
      () => client.request({ method: "custom/other" } as never, z.looseObject({}) as never),
      () => client.callTool({ name: "add", arguments: { a: 2 } }),
      () => client.callTool({ name: "echo", arguments: { x: 1 } }),
      () => client.callTool({ name: "ad", arguments: {} }),
      () => client.getPrompt({ name: "greet", arguments: { name: "Alan" } }),
      () => client.getPrompt({ name: "greet" }),
      () => client.getPrompt({ name: "great", arguments: { name: "Ada" } }),
      () => client.readResource({ uri: "test://helo" }),
    ];
    for (const call of calls) await call().catch(() => undefined);
    // The schema's rejection is an answer, not a miss: its fix is in the text the client gets.
    const rejected = (await client.callTool({ name: "add", arguments: { a: "one" } })) as { content: Array<{ text: string }> };
    const entries = (await (await fetch(`${admin}/requests/unmatched`)).json()) as Array<{ missReport: string }>;
    const misses = [...entries.map((e) => e.missReport), rejected.content[0]?.text as string];
    expect(misses).toHaveLength(calls.length);
    for (const report of misses) {
      expect(report).toContain("shop.mock.json");
      expect(report).not.toMatch(/mock\.\w+\(/);
    }
    await expect(misses.join("\n\n") + "\n").toMatchFileSnapshot("../fixtures/cli-miss-reports.txt");
    // A prompt call without its required argument is refused (not a miss), with the fix in the file's terms.
    const refused = await client.getPrompt({ name: "greet" }).catch((error: unknown) => error as { data?: unknown });
    expect((refused as { data?: unknown }).data).toBe(
      `[mcpmock] Invalid params: prompt "greet" requires the argument "name". If the rejection is intended, add to the responses of prompt "greet" in shop.mock.json: { "args": {}, "messages": "..." }`,
    );
  });
});

describe("the admin API", () => {
  test("a failed verify points at the admin routes, not at mock.requests()", async () => {
    await client.callTool({ name: "add", arguments: { a: 1 } });
    const response = await post("/verify", { pattern: { tool: "add", args: { a: 5 } } });
    expect(response.status).toBe(422);
    const { message } = (await response.json()) as { message: string };
    expect(message).toContain("To see everything received: GET /__admin/requests.");
    expect(message).not.toContain("mock.");
    const nothing = await McpMock.start({ admin: true, tools: [{ name: "add" }] });
    try {
      const none = await fetch(nothing.url.replace(/\/mcp$/, "/__admin/verify"), { method: "POST", headers: json, body: JSON.stringify({ pattern: { tool: "add" } }) });
      expect(((await none.json()) as { message: string }).message).toContain("No requests were received at all. Is the client pointed at the mock's MCP URL?");
      // The library's own verify keeps the DSL's names.
      expect(() => nothing.verify(toolsCall("add"))).toThrow("Is the client pointed at mock.url?");
    } finally {
      await nothing.close();
    }
  });

  test("GET /__admin/requests/unmatched lists only the requests no stub answered, with their reports", async () => {
    await post("/reset", {});
    await client.callTool({ name: "add", arguments: { a: 1 } });
    await client.callTool({ name: "add", arguments: { a: 3 } });
    const response = await fetch(`${admin}/requests/unmatched`);
    expect(response.status).toBe(200);
    const entries = (await response.json()) as Array<{ method: string; params: { arguments: unknown }; unmatched: boolean; missReport: string }>;
    expect(entries.map((e) => [e.method, e.params.arguments, e.unmatched])).toEqual([["tools/call", { a: 3 }, true]]);
    expect(entries[0]?.missReport).toContain(`add one: { "tool": "add", "args": {"a":3}, "result": ... }`);
  });

  test("reset brings the definition's stubs back with the ids they had", async () => {
    const ids = async (): Promise<string[]> =>
      ((await (await fetch(`${admin}/stubs`)).json()) as Array<{ id: string; source: unknown }>).filter((s) => s.source !== "default").map((s) => s.id);
    const before = await ids();
    expect(before).toEqual(["stub-1", "stub-2", "stub-3"]);
    for (let i = 0; i < 3; i++) {
      expect((await post("/stubs", { responses: [{ tool: "echo", result: i }] })).status).toBe(201);
      expect((await post("/reset", {})).status).toBe(204);
    }
    expect(await ids()).toEqual(before);
    // A stub added after a reset takes a new id, never one a definition stub has.
    const added = (await (await post("/stubs", { responses: [{ tool: "echo", result: "x" }] })).json()) as { ids: string[] };
    expect(added.ids).toHaveLength(1);
    expect(before).not.toContain(added.ids[0]);
    expect((await fetch(`${admin}/stubs/stub-2`, { method: "DELETE" })).status).toBe(204);
    await post("/reset", {});
    expect(await ids()).toEqual(before);
  });
});

test("McpMock.fromDefinition: reset() keeps the definition's ids too", async () => {
  await using mock = await McpMock.fromDefinition(file, { transport: "none" });
  const ids = (): string[] => mock.stubs().filter((s) => s.source !== "default").map((s) => s.id);
  expect(ids()).toEqual(["stub-1", "stub-2", "stub-3"]);
  mock.toolsCall("echo").respondsWith("x");
  mock.reset();
  mock.reset();
  expect(ids()).toEqual(["stub-1", "stub-2", "stub-3"]);
});
