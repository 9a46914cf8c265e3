/**
 * The stdio transport under bad input, in process (`transport: "none"` + `serveStdio` on
 * PassThrough streams) and through the built command (`node dist/cli.js stdio`): garbage
 * lines, partial lines completed later, lines split inside a UTF-8 character, an over-long
 * line, stdin closing mid-request and mid-stream, stdout closed by the client. Nothing
 * crashes, later requests are answered, and stdout carries nothing but protocol: every line
 * parses as a JSON-RPC message.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";
import { FINISH_GRACE_MS, MAX_LINE_BYTES, MAX_LOG_BACKLOG_BYTES } from "../../src/transports/stdio.js";
import { Waiters } from "../support/waiters.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = join(ROOT, "dist", "cli.js");

const tools = [
  { name: "echo", inputSchema: { type: "object" } },
  { name: "slow", inputSchema: { type: "object" } },
  { name: "stream", inputSchema: { type: "object" } },
] as const;

const initRequest = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "stdio", version: "1" } } };
const call = (id: number | string, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
const line = (message: unknown) => `${JSON.stringify(message)}\n`;

/** Whether a value is a JSON-RPC message (request, notification, result or error). */
function isJsonRpcMessage(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  if (m["jsonrpc"] !== "2.0") return false;
  const id = m["id"];
  const validId = typeof id === "string" || Number.isSafeInteger(id);
  if (typeof m["method"] === "string") return !("id" in m) || validId;
  if ("result" in m) return validId;
  if ("error" in m) return id === undefined || id === null || validId;
  return false;
}

/** Every stdout line is a JSON-RPC message; returns them. */
function protocolOnly(stdout: string): Array<Record<string, unknown>> {
  expect(stdout === "" || stdout.endsWith("\n"), `stdout ends mid-line: ${JSON.stringify(stdout.slice(-100))}`).toBe(true);
  const lines = stdout.split("\n").filter((l) => l !== "");
  return lines.map((l) => {
    let parsed: unknown;
    expect(() => (parsed = JSON.parse(l)), `stdout line is not JSON: ${l.slice(0, 200)}`).not.toThrow();
    expect(isJsonRpcMessage(parsed), `stdout line is not a JSON-RPC message: ${l.slice(0, 200)}`).toBe(true);
    return parsed as Record<string, unknown>;
  });
}

// ---------------------------------------------------------------------------------------------
// In process
// ---------------------------------------------------------------------------------------------

/** A writable that reads nothing until `release()` (a client that stops reading), keeping what it was given. */
function heldWriter(highWaterMark?: number): { readonly stream: Writable; readonly text: string; release(): void } {
  const waiting: Array<() => void> = [];
  let reading = false;
  let text = "";
  const stream = new Writable({
    ...(highWaterMark === undefined ? {} : { highWaterMark }),
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString("utf8");
      if (reading) callback();
      else waiting.push(() => callback());
    },
  });
  return {
    stream,
    get text() {
      return text;
    },
    release() {
      reading = true;
      for (const release of waiting.splice(0)) release();
    },
  };
}

class Pipe {
  readonly input = new PassThrough();
  readonly output = new PassThrough();
  readonly log = new PassThrough();
  stdout = "";
  stderr = "";
  readonly done: Promise<void>;
  readonly mock: McpMock;
  readonly #waiters = new Waiters();

  private constructor(mock: McpMock) {
    this.mock = mock;
    this.output.on("data", (c: Buffer) => {
      this.stdout += c.toString("utf8");
      this.#waiters.wake();
    });
    this.log.on("data", (c: Buffer) => (this.stderr += c.toString("utf8")));
    this.done = mock.serveStdio({ input: this.input, output: this.output, log: this.log });
  }

  static async start(): Promise<Pipe> {
    const mock = (await McpMock.start({ transport: "none", tools, onUnmatched: "silent" })) as McpMock<typeof tools>;
    mock.toolsCall("echo").respondsWith((c) => ({ echoed: c.args }));
    mock.toolsCall("slow").withDelay(300).respondsWith("slow done");
    mock.toolsCall("stream").streams((s) => s.log("info", "started").delay(10_000).result("never"));
    return new Pipe(mock as unknown as McpMock);
  }

  messages(): Array<Record<string, unknown>> {
    return protocolOnly(this.stdout);
  }

  /** Resolves with the answer to `id` once it is on stdout. */
  answer(id: number | string, timeout = 3000): Promise<Record<string, unknown>> {
    return this.#waiters.until(
      () => {
        const complete = this.stdout.slice(0, this.stdout.lastIndexOf("\n") + 1);
        return protocolOnly(complete).find((m) => m["id"] === id && ("result" in m || "error" in m));
      },
      timeout,
      () => `no answer to ${JSON.stringify(id)} within ${timeout} ms; stdout: ${this.stdout.slice(0, 2000)}`,
    );
  }

  async initialize(): Promise<void> {
    this.input.write(line(initRequest));
    expect(await this.answer(0)).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
  }

  async close(): Promise<void> {
    this.input.end();
    await this.done;
    await this.mock.close();
  }

  /** `await using pipe = await Pipe.start()`: closed at the end of the test, passed or failed. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

const echoed = (id: number | string, args: unknown) => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: JSON.stringify({ echoed: args }) }] } });

describe("stdio in process", () => {
  test("garbage lines get no answer; the requests around them are answered", async () => {
    await using pipe = await Pipe.start();
    await pipe.initialize();
    pipe.input.write("hello\n");
    pipe.input.write("{not json}\n");
    pipe.input.write("\u0000\u0001\u00ff\n");
    pipe.input.write("   \n\n");
    pipe.input.write('{"jsonrpc":"2.0","method":5}\n');
    pipe.input.write(line(call(1, "echo", { after: "garbage" })));
    expect(await pipe.answer(1)).toStrictEqual(echoed(1, { after: "garbage" }));
    expect(pipe.messages().map((m) => m["id"])).toEqual([0, 1]);
    expect(pipe.stderr.split("\n").filter(Boolean)).toEqual([
      "[mcpmock] ignored a line that is not JSON (as the SDK does): hello",
      "[mcpmock] ignored a line that is not JSON (as the SDK does): {not json}",
      "[mcpmock] ignored a line that is not JSON (as the SDK does): \\u0000\\u0001\u00ff", // control characters escaped
      '[mcpmock] ignored an invalid JSON-RPC message: "method" must be a string, received number',
    ]);
  });

  test("a partial line completed later, a line split inside a UTF-8 character, CRLF and many lines in one chunk", async () => {
    await using pipe = await Pipe.start();
    await pipe.initialize();
    const partial = line(call(1, "echo", { text: "split" }));
    pipe.input.write(partial.slice(0, 20));
    await new Promise((r) => setTimeout(r, 50));
    expect(pipe.messages().map((m) => m["id"])).toEqual([0]);
    pipe.input.write(partial.slice(20));
    expect(await pipe.answer(1)).toStrictEqual(echoed(1, { text: "split" }));

    const bytes = Buffer.from(line(call(2, "echo", { text: "café ☕" })));
    const cut = bytes.indexOf(Buffer.from("☕")) + 1; // inside the 3-byte character
    pipe.input.write(bytes.subarray(0, cut));
    await new Promise((r) => setTimeout(r, 20));
    pipe.input.write(bytes.subarray(cut));
    expect(await pipe.answer(2)).toStrictEqual(echoed(2, { text: "café ☕" }));

    pipe.input.write(`${JSON.stringify(call(3, "echo", { crlf: true }))}\r\n${line(call(4, "echo", { n: 4 }))}${line(call(5, "echo", { n: 5 }))}`);
    expect(await pipe.answer(3)).toStrictEqual(echoed(3, { crlf: true }));
    expect(await pipe.answer(5)).toStrictEqual(echoed(5, { n: 5 }));
    expect(await pipe.answer(4)).toStrictEqual(echoed(4, { n: 4 }));
    expect(pipe.stderr).toBe("");
  });

  // Before: the bytes that are not UTF-8 were read as U+FFFD, so the call was answered and
  // journaled with text the client never sent (over HTTP such a body is refused, B03).
  test("a line that is not valid UTF-8 gets no answer and a log line; a line holding U+FFFD itself is answered", async () => {
    await using pipe = await Pipe.start();
    await pipe.initialize();
    const [before, after] = JSON.stringify(call(1, "echo", { text: "caf@" })).split("@") as [string, string];
    pipe.input.write(Buffer.concat([Buffer.from(before), Buffer.from([0xe9]), Buffer.from(`${after}\n`)])); // é in Latin-1
    pipe.input.write(line(call(2, "echo", { text: "caf\ufffd" })));
    expect(await pipe.answer(2)).toStrictEqual(echoed(2, { text: "caf\ufffd" }));
    expect(pipe.messages().map((m) => m["id"])).toEqual([0, 2]);
    expect(pipe.mock.requests().map((e) => e.id)).toEqual([0, 2]);
    expect(pipe.stderr).toBe(`[mcpmock] ignored a line that is not valid UTF-8 (MCP messages are UTF-8 JSON): ${JSON.stringify(`${before}\u00e9${after}`)}\n`);
  });

  // Before: the start of a junk line went to stderr as it came, so a client could write escape
  // sequences to the terminal reading the mock's log (clear it, retitle it, hide lines).
  test("a junk line's control characters reach the log escaped, never raw", async () => {
    await using pipe = await Pipe.start();
    await pipe.initialize();
    pipe.input.write("\u001b[2J\u001b]0;owned\u0007 not json\r\n");
    pipe.input.write(line(call(1, "echo", { n: 1 })));
    expect(await pipe.answer(1)).toStrictEqual(echoed(1, { n: 1 }));
    expect(pipe.stderr).toBe("[mcpmock] ignored a line that is not JSON (as the SDK does): \\u001b[2J\\u001b]0;owned\\u0007 not json\n");
  });

  test(`a line longer than MAX_LINE_BYTES (${MAX_LINE_BYTES} bytes, the SDK's 10 MiB) is dropped without a crash`, async () => {
    expect(MAX_LINE_BYTES).toBe(10 * 1024 * 1024);
    await using pipe = await Pipe.start();
    await pipe.initialize();
    const chunk = "x".repeat(64 * 1024);
    for (let sent = 0; sent <= MAX_LINE_BYTES; sent += chunk.length) pipe.input.write(chunk);
    pipe.input.write("\n");
    pipe.input.write(line(call(1, "echo", { after: "long line" })));
    expect(await pipe.answer(1)).toStrictEqual(echoed(1, { after: "long line" }));
    expect(pipe.messages().map((m) => m["id"])).toEqual([0, 1]);
    // The limit is passed before the newline arrives: one log line, and the rest is discarded.
    expect(pipe.stderr).toBe(`[mcpmock] a line longer than ${MAX_LINE_BYTES} bytes was dropped (up to its newline).\n`);
  });

  // Guards the reader's discard mode (src/values/line-reader.ts, read by src/transports/stdio.ts): once an unterminated line passes
  // MAX_LINE_BYTES, everything up to its newline is dropped, so the tail of the line (10.5 MiB
  // of spaces, then a ping) is not read as a line of its own and the ping is not answered.
  test("the rest of an over-long line is dropped too, not read as a new line", async () => {
    await using pipe = await Pipe.start();
    await pipe.initialize();
    const chunk = " ".repeat(64 * 1024);
    for (let sent = 0; sent <= MAX_LINE_BYTES + 512 * 1024; sent += chunk.length) pipe.input.write(chunk);
    pipe.input.write(line({ jsonrpc: "2.0", id: "tail", method: "ping" }));
    pipe.input.write(line(call("next", "echo", { n: 1 })));
    expect(await pipe.answer("next")).toStrictEqual(echoed("next", { n: 1 }));
    expect(pipe.messages().map((m) => m["id"])).toEqual([0, "next"]);
    expect(pipe.stderr).toBe(`[mcpmock] a line longer than ${MAX_LINE_BYTES} bytes was dropped (up to its newline).\n`);
  });

  // Guards the limit on complete lines (src/values/line-reader.ts, read by src/transports/stdio.ts): a line longer than
  // MAX_LINE_BYTES that arrives in one chunk together with its newline is dropped too, with
  // its own log line, and is not parsed or answered.
  test("a line over MAX_LINE_BYTES arriving in one chunk is dropped too", async () => {
    await using pipe = await Pipe.start();
    await pipe.initialize();
    pipe.input.write(`${" ".repeat(MAX_LINE_BYTES + 1)}${line({ jsonrpc: "2.0", id: "big", method: "ping" })}`);
    pipe.input.write(line(call("next", "echo", { n: 1 })));
    expect(await pipe.answer("next")).toStrictEqual(echoed("next", { n: 1 }));
    expect(pipe.messages().map((m) => m["id"])).toEqual([0, "next"]);
    expect(pipe.stderr).toBe(`[mcpmock] a line longer than ${MAX_LINE_BYTES} bytes was dropped.\n`);
  });

  // Before: every chunk was appended to one string that was searched again from its start for a
  // newline, so a line arriving in small pieces cost the square of its length: this 4 MB line,
  // 16 bytes a write, took hours of CPU (200 KB a byte at a time: 14 s) and held every other
  // message back. The pieces are kept as they come now, and only each new one is searched.
  test("a 4 MB line arriving 16 bytes at a time is answered, and the next line after it", async () => {
    await using pipe = await Pipe.start();
    await pipe.initialize();
    const big = Buffer.from(line(call("big", "echo", { text: "y".repeat(4 * 1024 * 1024) })));
    for (let at = 0; at < big.length; at += 16) {
      pipe.input.write(big.subarray(at, at + 16));
      if (at % (16 * 4096) === 0) await new Promise((r) => setImmediate(r)); // lets a test timeout fire
    }
    pipe.input.write(line(call("next", "echo", { n: 1 })));
    expect(await pipe.answer("next", 30_000)).toStrictEqual(echoed("next", { n: 1 }));
    expect((await pipe.answer("big")).result).toBeDefined();
    expect(pipe.stderr).toBe("");
  }, 60_000);

  test("many requests in one write while stdout is full wait for it to drain, then each is answered, in order", async () => {
    const mock = (await McpMock.start({ transport: "none", tools, onUnmatched: "silent" })) as McpMock<typeof tools>;
    mock.toolsCall("echo").respondsWith((c) => ({ echoed: c.args, pad: "p".repeat(8 * 1024) }));
    const input = new PassThrough();
    // A client that reads nothing of stdout until told to.
    const held = heldWriter(16 * 1024);
    const output = held.stream;
    const done = mock.serveStdio({ input, output, log: new PassThrough() });
    try {
      input.write(line(initRequest));
      input.write(Array.from({ length: 200 }, (_, i) => line(call(i + 1, "echo", { n: i + 1 }))).join(""));
      await new Promise((r) => setTimeout(r, 200));
      expect(input.isPaused()).toBe(true); // held back, as by a pipe
      const before = held.text.split("\n").length - 1;
      expect(before).toBeLessThan(20);
      held.release();
      for (let i = 0; i < 200 && (held.text.match(/\n/g)?.length ?? 0) < 201; i++) await new Promise((r) => setTimeout(r, 10));
      const ids = protocolOnly(held.text).map((m) => m["id"]);
      expect(ids).toEqual(Array.from({ length: 201 }, (_, i) => i));
    } finally {
      held.release();
      input.end();
      await done;
      await mock.close();
    }
  });

  test("request ids: a repeat inside a batch and a repeat while the first is in flight get -32600; once answered, an id can be used again", async () => {
    const pipe = await Pipe.start();
    pipe.input.write(line({ ...initRequest, params: { ...initRequest.params, protocolVersion: "2025-03-26" } }));
    await pipe.answer(0);
    const duplicate = { code: -32600, message: "Invalid Request: duplicate request id in flight" };
    // Every request of a batch is pending at once, even those answered without waiting.
    pipe.input.write(line([call(1, "echo", { n: 1 }), call(1, "echo", { n: 2 })]));
    await expect.poll(() => pipe.messages().filter((m) => m["id"] === 1)).toHaveLength(2);
    expect(pipe.messages().filter((m) => m["id"] === 1)).toEqual([echoed(1, { n: 1 }), { jsonrpc: "2.0", id: 1, error: expect.objectContaining(duplicate) }]);
    // A slow answer keeps its id in flight; a quick one does not.
    pipe.input.write(line(call(2, "slow")));
    pipe.input.write(line(call(2, "echo", { n: 3 })));
    await expect.poll(() => pipe.messages().filter((m) => m["id"] === 2)).toHaveLength(2);
    expect(pipe.messages().filter((m) => m["id"] === 2)[0]).toEqual({ jsonrpc: "2.0", id: 2, error: expect.objectContaining(duplicate) });
    pipe.input.write(line(call(1, "echo", { n: 4 })));
    pipe.input.write(line(call(1, "echo", { n: 5 })));
    await expect.poll(() => pipe.messages().filter((m) => m["id"] === 1)).toHaveLength(4);
    expect(pipe.messages().filter((m) => m["id"] === 1).slice(2)).toEqual([echoed(1, { n: 4 }), echoed(1, { n: 5 })]);
    await pipe.close();
  });

  // Before: an empty batch was dropped without a word, and a batch holding an initialize after
  // the session opened was played: its ping answered, the initialize answered and the session
  // negotiated again (2025-03-26 became 2024-11-05), where HTTP refuses such a batch whole.
  test("at 2025-03-26, an empty batch and a batch holding an initialize are ignored with a log line; nothing of them is played", async () => {
    await using pipe = await Pipe.start();
    pipe.input.write(line({ ...initRequest, params: { ...initRequest.params, protocolVersion: "2025-03-26" } }));
    await pipe.answer(0);
    pipe.input.write(line([]));
    pipe.input.write(line([{ jsonrpc: "2.0", id: 1, method: "ping" }, { ...initRequest, id: 2, params: { ...initRequest.params, protocolVersion: "2024-11-05" } }]));
    pipe.input.write(line([{ jsonrpc: "2.0", id: 3, method: "ping" }, call(4, "echo", { n: 4 })]));
    expect(await pipe.answer(4)).toStrictEqual(echoed(4, { n: 4 })); // a batch still works: the version did not change
    expect(pipe.messages().map((m) => m["id"])).toEqual([0, 3, 4]);
    expect(pipe.mock.sessions().map((s) => s.protocolVersion)).toEqual(["2025-03-26"]);
    expect(pipe.mock.requests().map((e) => e.id)).toEqual([0, 3, 4]);
    expect(pipe.stderr).toBe(
      "[mcpmock] ignored an empty batch: a batch must hold at least one message.\n" +
        "[mcpmock] ignored a batch holding an initialize: initialize comes alone, never in a batch; nothing of the batch was played.\n",
    );
  });

  // Before: over stdio a listen stub was never consulted (its refusal, its streams(), an
  // openStream() script: all ignored; the stream just opened), and every listen added a listener
  // to the connection's abort signal, so the 11th printed a MaxListenersExceededWarning.
  test("subscriptions/listen (2026-07-28): a stub's refusal answers it; scripts play with the subscription id; an open id cannot listen twice", async () => {
    const pipe = await Pipe.start();
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const listen = (id: number): string => line({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } });
      const subscriptionId = (m: Record<string, unknown>): unknown => ((m["params"] as Record<string, unknown> | undefined)?.["_meta"] as Record<string, unknown> | undefined)?.["io.modelcontextprotocol/subscriptionId"];
      pipe.mock.subscriptionsListen().once().respondsWithError(-32603, "Subscription limit reached");
      pipe.input.write(listen(1));
      expect(await pipe.answer(1)).toStrictEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Subscription limit reached" } });
      pipe.mock.openStream().sends((s) => s.notify("notifications/message", { level: "info", data: "from openStream" }));
      pipe.input.write(listen(2));
      await expect.poll(() => pipe.messages().filter((m) => subscriptionId(m) === 2).map((m) => m["method"])).toEqual(["notifications/subscriptions/acknowledged", "notifications/message"]);
      for (let i = 0; i < 12; i++) pipe.input.write(listen(2));
      await expect.poll(() => pipe.messages().filter((m) => m["id"] === 2)).toHaveLength(12);
      expect(pipe.messages().filter((m) => m["id"] === 2)[0]).toMatchObject({ error: { code: -32600, message: "Invalid Request: duplicate request id in flight" } });
      await pipe.mock.notify("notifications/tools/list_changed");
      await expect.poll(() => pipe.messages().filter((m) => m["method"] === "notifications/tools/list_changed").map(subscriptionId)).toEqual([2]);
      expect(warnings).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      await pipe.close();
    }
  });

  // Before: stderr on a pipe is asynchronous, so a client that never read it while writing junk
  // lines made the mock hold a log line (up to about 180 bytes) for each 2-byte junk line, without
  // bound. Now at most MAX_LOG_BACKLOG_BYTES wait; the rest are counted, and said once it drains.
  test(`a client that does not read stderr leaves at most MAX_LOG_BACKLOG_BYTES (${MAX_LOG_BACKLOG_BYTES}) of log unread; the dropped lines are counted`, async () => {
    const mock = (await McpMock.start({ transport: "none", tools, onUnmatched: "silent" })) as McpMock<typeof tools>;
    mock.toolsCall("echo").respondsWith((c) => ({ echoed: c.args }));
    const input = new PassThrough();
    const output = new PassThrough();
    let stdout = "";
    output.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    const held = heldWriter();
    const log = held.stream;
    const done = mock.serveStdio({ input, output, log });
    try {
      const junk = `${"j".repeat(100)}\n`.repeat(20_000); // 20,000 lines that are not JSON: about 3 MB of log
      input.write(junk);
      input.write(line(call(1, "echo", { n: 1 })));
      await expect.poll(() => stdout.includes('"id":1')).toBe(true);
      expect(log.writableLength).toBeLessThan(MAX_LOG_BACKLOG_BYTES + 1024);
      held.release();
      await expect.poll(() => /\[mcpmock\] (\d+) log lines were dropped: more than 1048576 bytes of the log were waiting unread\.\n$/.exec(held.text)?.[1]).toBeDefined();
      const logged = held.text.split("\n").filter((l) => l.startsWith("[mcpmock] ignored a line that is not JSON")).length;
      const dropped = Number(/(\d+) log lines were dropped/.exec(held.text)?.[1]);
      expect(logged + dropped).toBe(20_000);
    } finally {
      held.release();
      input.end();
      await done;
      await mock.close();
    }
  });

  test("stdin closing mid-request: the answer in flight is still written, then serving ends", async () => {
    const pipe = await Pipe.start();
    await pipe.initialize();
    pipe.input.write(line(call(1, "slow")));
    pipe.input.end();
    await pipe.done;
    expect(pipe.messages().find((m) => m["id"] === 1)).toStrictEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "slow done" }] } });
    await pipe.mock.close();
  });

  test(`stdin closing mid-stream: the stream is stopped after FINISH_GRACE_MS (${FINISH_GRACE_MS} ms) and serving ends`, async () => {
    const pipe = await Pipe.start();
    await pipe.initialize();
    pipe.input.write(line(call(1, "stream")));
    await new Promise<void>((resolve) => {
      const check = () => (pipe.stdout.includes('"data":"started"') ? resolve() : setTimeout(check, 10));
      check();
    });
    const started = performance.now();
    pipe.input.end();
    await pipe.done;
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(FINISH_GRACE_MS - 100);
    expect(waited).toBeLessThan(FINISH_GRACE_MS + 1000);
    const messages = pipe.messages();
    expect(messages.filter((m) => m["method"] === "notifications/message")).toHaveLength(1);
    expect(messages.filter((m) => m["id"] === 1)).toEqual([]); // no result: the stream was cut
    await pipe.mock.close();
  });

  test("an input stream that errors ends serving without a crash", async () => {
    const pipe = await Pipe.start();
    await pipe.initialize();
    pipe.input.write(line(call(1, "echo", { n: 1 })));
    await pipe.answer(1);
    pipe.input.destroy(new Error("EPIPE-like failure"));
    await pipe.done;
    protocolOnly(pipe.stdout);
    await pipe.mock.close();
  });

  test("a client that closes its end of stdout does not crash the mock", async () => {
    const pipe = await Pipe.start();
    await pipe.initialize();
    pipe.output.destroy();
    pipe.input.write(line(call(1, "echo", { n: 1 })));
    pipe.input.write(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
    await new Promise((r) => setTimeout(r, 50));
    pipe.input.end();
    await pipe.done;
    await pipe.mock.close();
    // The call still reached the mock: it is in the journal.
    expect(pipe.mock.requests().filter((e) => e.method === "tools/call")).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// The built command
// ---------------------------------------------------------------------------------------------

// dist/ is built by vitest's globalSetup (test/support/build.ts), with the rest of the build:
// a bare tsc here wrote unbundled modules into dist/ while other files' tests read it.
let workDir = "";
let definition = "";

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), "mcpmock-stdio-"));
  definition = join(workDir, "robust.mock.json");
  writeFileSync(
    definition,
    JSON.stringify({
      tools: [{ name: "echo" }, { name: "slow" }],
      responses: [
        { tool: "echo", result: { echoed: "{{args.text}}" } },
        { tool: "slow", delay: 300, result: "slow done" },
      ],
    }),
  );
}, 120_000);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Spawns `mcpmock stdio`, lets `drive` write to it, and resolves when it exits. */
function runCli(drive: (stdin: NodeJS.WritableStream, stdout: () => string) => Promise<void>, timeout = 10_000, flags: readonly string[] = []): Promise<Run> {
  const child = spawn(process.execPath, [CLI, "stdio", definition, ...flags], { stdio: ["pipe", "pipe", "pipe"], env: { PATH: process.env["PATH"] ?? "" } });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeout);
  return drive(child.stdin, () => stdout)
    .then(() => exited)
    .then((code) => ({ code, stdout, stderr }))
    .finally(() => clearTimeout(timer));
}

async function until(read: () => string, text: string, timeout = 5000): Promise<void> {
  const started = Date.now();
  while (!read().includes(text)) {
    if (Date.now() - started > timeout) throw new Error(`${JSON.stringify(text)} did not appear within ${timeout} ms; got ${read().slice(0, 1000)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("mcpmock stdio (the built command)", () => {
  test("garbage, a partial line completed later and an invalid message: no crash, exit 0, stdout is protocol only", async () => {
    const run = await runCli(async (stdin, stdout) => {
      stdin.write(line(initRequest));
      stdin.write("garbage line\n");
      const partial = line(call(1, "echo", { text: "partial" }));
      stdin.write(partial.slice(0, 25));
      await new Promise((r) => setTimeout(r, 100));
      stdin.write(partial.slice(25));
      stdin.write('{"jsonrpc":"2.0","id":{},"method":"ping"}\n');
      stdin.write(line({ jsonrpc: "2.0", id: 2, method: "ping" }));
      await until(stdout, '"id":2');
      stdin.end();
    });
    expect(run.code).toBe(0);
    const messages = protocolOnly(run.stdout);
    expect(messages.map((m) => m["id"])).toEqual([0, 1, 2]);
    expect(messages[1]).toStrictEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: '{"echoed":"partial"}' }] } });
    expect(run.stderr).toContain("[mcpmock] ignored a line that is not JSON (as the SDK does): garbage line");
    expect(run.stderr).toContain('[mcpmock] ignored an invalid JSON-RPC message: "id" must be a string or an integer, received {} (object)');
  });

  // Before: --verbose and the miss report wrote a request's method as it came, so a client could
  // put escape sequences (or a newline, which forges a log line) on the terminal reading stderr.
  test("--verbose: a method holding control characters is logged, and reported as a miss, with them escaped", async () => {
    const method = "x\u001b]0;owned\u0007\n[mcpmock] forged";
    const run = await runCli(async (stdin, stdout) => {
      stdin.write(line(initRequest));
      stdin.write(line({ jsonrpc: "2.0", id: 1, method }));
      await until(stdout, '"id":1');
      stdin.end();
    }, 10_000, ["--verbose"]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/); // no control character but the lines' own newlines
    expect(run.stderr).toContain("← x\\u001b]0;owned\\u0007\\u000a[mcpmock] forged {}"); // the verbose line
    expect(run.stderr).toContain('[mcpmock] No stub answers "x\\u001b]0;owned\\u0007\\n[mcpmock] forged" with no params.'); // the miss report
    expect(run.stderr.split("\n").filter((l) => l.startsWith("[mcpmock] forged"))).toEqual([]);
  });

  test("stdin closing mid-request: the answer is written, then the process exits 0", async () => {
    const run = await runCli(async (stdin, stdout) => {
      stdin.write(line(initRequest));
      await until(stdout, '"id":0');
      stdin.write(line(call(1, "slow")));
      stdin.end();
    });
    expect(run.code).toBe(0);
    expect(protocolOnly(run.stdout).find((m) => m["id"] === 1)).toStrictEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "slow done" }] } });
  });

  test("a line over 10 MiB is dropped with a message on stderr; the next request is answered", async () => {
    const run = await runCli(async (stdin, stdout) => {
      stdin.write(line(initRequest));
      const chunk = "x".repeat(1024 * 1024);
      for (let i = 0; i < 11; i++) if (!stdin.write(chunk)) await new Promise((r) => stdin.once("drain", r));
      stdin.write("\n");
      stdin.write(line(call(1, "echo", { text: "after" })));
      await until(stdout, '"id":1');
      stdin.end();
    }, 20_000);
    expect(run.code).toBe(0);
    expect(protocolOnly(run.stdout).map((m) => m["id"])).toEqual([0, 1]);
    // Pipe reads are small: the limit is passed about 1 MiB before the newline arrives.
    expect(run.stderr).toContain(`[mcpmock] a line longer than ${MAX_LINE_BYTES} bytes was dropped (up to its newline).`);
  }, 30_000);
});
