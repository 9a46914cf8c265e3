/**
 * `mcpmock stdio`: the process is the server. Driven by the SDK's StdioClientTransport (which
 * spawns the built command) and by hand, line by line, to check that stdout carries nothing
 * but JSON-RPC, that anything else goes to stderr, and that the process ends with its stdin.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, test } from "vitest";
import type { MockDefinition } from "../../src/index.js";
import { CLI, ROOT } from "../support/build.js";
import { Waiters } from "../support/waiters.js";

const dir = mkdtempSync(join(tmpdir(), "mcpmock-stdio-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function definitionFile(name: string, definition: MockDefinition): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(definition));
  return file;
}

const catalog = definitionFile("catalog.mock.json", {
  server: { name: "catalog", version: "2.0.0" },
  tools: [
    { name: "slow", inputSchema: { type: "object" } },
    { name: "stall", inputSchema: { type: "object" } },
    { name: "wait", inputSchema: { type: "object" } },
  ],
  responses: [
    {
      tool: "slow",
      stream: [
        { progress: 1, total: 3, message: "starting" },
        { log: "info", data: "working on {{args.job}}" },
        { progress: 2, total: 3 },
        { delay: 20 },
        { progress: 3, total: 3, message: "done" },
        // The SDK client handles a notification a microtask after a response in the same read,
        // and drops progress that comes after its response (typescript-sdk#2580): a pause
        // keeps the last progress and the result in separate reads.
        { delay: 20 },
      ],
      result: { job: "{{args.job}}", token: "{{progressToken}}" },
    },
    { tool: "stall", stream: [{ progress: 1 }, { delay: 30_000 }], result: "too late" },
    { tool: "wait", delay: 30_000, result: "too late" },
  ],
  resources: [
    { uri: "test://hello", name: "hello", mimeType: "text/plain", text: "Hello, world" },
    { uriTemplate: "test://items/{id}", name: "item", mimeType: "application/json", text: '{"id":"{{uri.id}}"}' },
  ],
  prompts: [{ name: "greet", arguments: [{ name: "name", required: true }], messages: "Hello, {{args.name}}" }],
});

/** The SDK client over stdio, spawning the built `mcpmock stdio <file>`. */
async function stdioClient(file: string): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string; [Symbol.asyncDispose](): Promise<void> }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "stdio", file], cwd: ROOT, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    async [Symbol.asyncDispose]() {
      await client.close(); // closes stdin, then ends the process if it lingers
    },
  };
}

describe.concurrent("the SDK's StdioClientTransport", { timeout: 30_000 }, () => {
  test("lists and calls the tools of examples/weather.mock.json", async () => {
    await using ctx = await stdioClient("examples/weather.mock.json");
    expect(ctx.client.getServerVersion()).toEqual({ name: "weather", version: "1.0.0" });
    expect((await ctx.client.listTools()).tools.map((t) => t.name)).toEqual(["get_weather"]);
    expect((await ctx.client.callTool({ name: "get_weather", arguments: { city: "Seoul" } })).content).toEqual([
      { type: "text", text: '{"city":"Seoul","temp":21,"condition":"clear"}' },
    ]);
    expect((await ctx.client.callTool({ name: "get_weather", arguments: { city: "Daegu" } })).content).toEqual([
      { type: "text", text: '{"city":"Daegu","temp":15,"condition":"cloudy"}' },
    ]);
    const atlantis = await ctx.client.callTool({ name: "get_weather", arguments: { city: "Atlantis" } });
    expect(atlantis.isError).toBe(true);
    await expect(ctx.client.callTool({ name: "get_forecast", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect(await ctx.client.ping()).toEqual({});
    expect(ctx.stderr()).toBe(""); // misses are answered, not logged, without --verbose
  });

  test("reads resources and gets prompts, placeholders filled", async () => {
    await using ctx = await stdioClient(catalog);
    expect((await ctx.client.listResources()).resources.map((r) => r.uri)).toEqual(["test://hello"]);
    expect((await ctx.client.readResource({ uri: "test://hello" })).contents).toEqual([{ uri: "test://hello", mimeType: "text/plain", text: "Hello, world" }]);
    expect((await ctx.client.readResource({ uri: "test://items/7" })).contents).toEqual([{ uri: "test://items/7", mimeType: "application/json", text: '{"id":"7"}' }]);
    await expect(ctx.client.readResource({ uri: "test://nope" })).rejects.toMatchObject({ code: -32002 });
    expect((await ctx.client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
    expect((await ctx.client.getPrompt({ name: "greet", arguments: { name: "Ada" } })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Hello, Ada" } },
    ]);
  });

  // The order is read on the wire (the transport's onmessage), not from onprogress: the SDK client
  // drops progress that arrives in the same read as its response (typescript-sdk#2580), and on a
  // loaded machine the 20 ms pauses do not always keep them apart (seen: progress 2 and 3 lost).
  test("a streamed answer delivers its progress notifications and logs, then the result", async () => {
    await using ctx = await stdioClient(catalog);
    const wire: Array<Record<string, unknown>> = [];
    const deliver = ctx.transport.onmessage;
    ctx.transport.onmessage = (message) => {
      wire.push(message as Record<string, unknown>);
      deliver?.(message);
    };
    const logs: unknown[] = [];
    ctx.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = await ctx.client.callTool({ name: "slow", arguments: { job: "build" } }, undefined, {
      onprogress: (p) => progress.push({ progress: p.progress, total: p.total, message: p.message }),
    });
    const sent = wire.map((m) => {
      const params = m["params"] as Record<string, unknown> | undefined;
      if (m["method"] === "notifications/progress") return { progress: params?.["progress"], total: params?.["total"], message: params?.["message"] };
      if (m["method"] === "notifications/message") return { log: params?.["data"] };
      return "result" in m ? "result" : m;
    });
    expect(sent).toEqual([
      { progress: 1, total: 3, message: "starting" },
      { log: "working on build" },
      { progress: 2, total: 3, message: undefined },
      { progress: 3, total: 3, message: "done" },
      "result",
    ]);
    // What onprogress saw is the start of that (all of it unless the SDK dropped the last ones).
    expect(progress).toEqual(sent.filter((m) => typeof m === "object" && "progress" in m).slice(0, progress.length));
    expect(logs).toEqual(["working on build"]);
    const payload = JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? "{}") as { job: string; token: unknown };
    expect(payload.job).toBe("build");
    expect(typeof payload.token).toBe("number"); // the SDK's progress token: the request id
  });
});

interface Raw {
  readonly child: ChildProcessWithoutNullStreams;
  readonly out: { stdout: string; stderr: string };
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  send(text: string): void;
  /** Resolves with stdout's complete lines once `until` holds for them. */
  lines(until: (lines: string[]) => boolean, timeoutMs?: number): Promise<string[]>;
  kill(): void;
}

/** `mcpmock stdio <file>` spawned by hand. */
function raw(file: string): Raw {
  const child = spawn(process.execPath, [CLI, "stdio", file], { cwd: ROOT, stdio: "pipe" });
  const out = { stdout: "", stderr: "" };
  const waiters = new Waiters();
  const notify = (): void => waiters.wake();
  child.stdout.setEncoding("utf8").on("data", (c: string) => ((out.stdout += c), notify()));
  child.stderr.setEncoding("utf8").on("data", (c: string) => ((out.stderr += c), notify()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  const complete = (): string[] => out.stdout.split("\n").slice(0, -1);
  return {
    child,
    out,
    exited,
    send: (text) => void child.stdin.write(text),
    lines: (until, timeoutMs = 15_000) =>
      waiters.until(
        () => (until(complete()) ? complete() : undefined),
        timeoutMs,
        () => `timed out; stdout: ${out.stdout}\nstderr: ${out.stderr}`,
      ),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "by-hand", version: "1.0.0" } },
});
const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });

/** Every line is a JSON-RPC 2.0 message. */
function expectJsonRpc(lines: readonly string[]): Array<Record<string, unknown>> {
  return lines.map((line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    expect(message["jsonrpc"]).toBe("2.0");
    expect("result" in message || "error" in message || typeof message["method"] === "string").toBe(true);
    return message;
  });
}

describe.concurrent("stdout carries nothing but JSON-RPC", { timeout: 30_000 }, () => {
  test("garbage and a line split across writes: the answers on stdout, the complaints on stderr", async () => {
    const p = raw("examples/weather.mock.json");
    try {
      p.send(`${initialize}\n`);
      await p.lines((l) => l.length >= 1);
      p.send(`${initialized}\n`);
      p.send("this is not JSON at all\n");
      p.send('{"hello":"world"}\n');
      p.send('{"jsonrpc":"2.0","id":2,"method":"tools/ca');
      await new Promise((r) => setTimeout(r, 100));
      expect(p.out.stdout.split("\n").filter(Boolean)).toHaveLength(1); // nothing answers half a line
      p.send('ll","params":{"name":"get_weather","arguments":{"city":"Seoul"}}}\r\n');
      p.send('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
      const lines = await p.lines((l) => l.length >= 3);
      await new Promise((r) => setTimeout(r, 50)); // anything late would show up now
      const messages = expectJsonRpc(p.out.stdout.split("\n").filter(Boolean));
      expect(p.out.stdout.endsWith("\n")).toBe(true);
      expect(lines.length).toBe(3);
      expect(messages.map((m) => m["id"]).sort()).toEqual([1, 2, 3]);
      expect(messages.find((m) => m["id"] === 2)).toEqual({
        jsonrpc: "2.0",
        id: 2,
        result: { content: [{ type: "text", text: '{"city":"Seoul","temp":21,"condition":"clear"}' }] },
      });
      expect(p.out.stderr).toContain("[mcpmock] ignored a line that is not JSON (as the SDK does): this is not JSON at all\n");
      expect(p.out.stderr).toContain("[mcpmock] ignored an invalid JSON-RPC message");
      expect(p.out.stdout).not.toContain("this is not JSON");
    } finally {
      p.kill();
    }
  });

  test("a miss is answered on stdout and not reported on stderr (onUnmatched is silent without --verbose)", async () => {
    const file = definitionFile("seoul-only.mock.json", {
      tools: [{ name: "get_weather", inputSchema: { type: "object" } }],
      responses: [{ tool: "get_weather", args: { city: "Seoul" }, result: { temp: 21 } }],
    });
    const p = raw(file);
    try {
      p.send(`${initialize}\n${initialized}\n`);
      await p.lines((l) => l.length >= 1);
      p.send(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_weather", arguments: { city: "Jeju" } } })}\n`);
      p.send(`${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "custom/nope" })}\n`);
      const messages = expectJsonRpc(await p.lines((l) => l.length >= 3));
      const miss = messages.find((m) => m["id"] === 2) as { result: { isError: boolean; content: Array<{ text: string }> } };
      expect(miss.result.isError).toBe(true);
      expect(miss.result.content[0]?.text).toContain("responses of seoul-only.mock.json");
      expect(messages.find((m) => m["id"] === 3)).toMatchObject({ error: { code: -32601 } });
      expect(p.out.stderr).toBe("");
    } finally {
      p.kill();
    }
  });

  test("a broken definition: exit 1, the problem on stderr, nothing on stdout", async () => {
    const file = definitionFile("broken.mock.json", { tools: [{ name: "a" }], responses: [{ tool: "b", result: 1 }] } as MockDefinition);
    const p = raw(file);
    try {
      const { code } = await p.exited;
      expect(code).toBe(1);
      expect(p.out.stdout).toBe("");
      expect(p.out.stderr).toContain("Invalid mock definition — broken.mock.json: responses[0].tool");
    } finally {
      p.kill();
    }
  });
});

describe.concurrent("the process ends with its stdin", { timeout: 30_000 }, () => {
  test("stdin closes when idle: exit 0 at once", async () => {
    const p = raw("examples/weather.mock.json");
    try {
      p.send(`${initialize}\n`);
      await p.lines((l) => l.length >= 1);
      const closed = performance.now();
      p.child.stdin.end();
      const { code, at } = await p.exited;
      expect(code).toBe(0);
      expect(at - closed).toBeLessThan(1_500); // not the 2 s grace: nothing was in flight
    } finally {
      p.kill();
    }
  });

  test("answers in flight are still written when stdin closes right after the request", async () => {
    const p = raw("examples/weather.mock.json");
    try {
      p.send(`${initialize}\n${initialized}\n`);
      await p.lines((l) => l.length >= 1);
      p.child.stdin.end(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_weather", arguments: { city: "Seoul" } } })}\n`);
      expect((await p.exited).code).toBe(0);
      expect(expectJsonRpc(p.out.stdout.split("\n").filter(Boolean)).map((m) => m["id"])).toEqual([1, 2]);
    } finally {
      p.kill();
    }
  });

  test("stdin closes in the middle of a long stream: the stream stops and the process exits 0", async () => {
    const p = raw(catalog);
    try {
      p.send(`${initialize}\n${initialized}\n`);
      await p.lines((l) => l.length >= 1);
      p.send(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "stall", arguments: {}, _meta: { progressToken: "t" } } })}\n`);
      await p.lines((l) => l.some((line) => line.includes("notifications/progress")));
      const closed = performance.now();
      p.child.stdin.end();
      const { code, at } = await p.exited;
      expect(code).toBe(0);
      expect(at - closed).toBeLessThan(5_000); // the 2 s grace for answers in flight, not the stream's 30 s
      expectJsonRpc(p.out.stdout.split("\n").filter(Boolean));
    } finally {
      p.kill();
    }
  });

  // Guards the grace period: answers in flight get up to 2 s after stdin closes, then the process
  // ends; a stub delay (here 30 s) does not keep it alive longer, and its answer is not written.
  test("stdin closes while a delayed answer waits: the process exits after the 2 s grace period", async () => {
    const p = raw(catalog);
    try {
      p.send(`${initialize}\n${initialized}\n`);
      await p.lines((l) => l.length >= 1);
      p.send(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "wait", arguments: {} } })}\n`);
      await new Promise((r) => setTimeout(r, 100));
      const closed = performance.now();
      p.child.stdin.end();
      const exited = await Promise.race([p.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 8_000))]);
      expect(exited, "the process still runs 8 s after its stdin closed").toBeDefined();
      expect(exited?.code).toBe(0);
      const after = (exited?.at ?? Number.POSITIVE_INFINITY) - closed;
      expect(after).toBeGreaterThanOrEqual(1_900); // the answer in flight had its 2 s
      expect(after).toBeLessThan(5_000); // and not the stub's 30 s (the margin is for a loaded machine)
      expect(expectJsonRpc(p.out.stdout.split("\n").filter(Boolean)).map((m) => m["id"])).toEqual([1]);
    } finally {
      p.kill();
    }
  });
});
