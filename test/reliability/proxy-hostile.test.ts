/**
 * Issue 44, proxy mode under hostile upstreams: hand-written servers over HTTP and stdio that
 * cut, flood, lie or die, driven through the mock by the SDK's client. Each fault is an answer
 * naming what it is, promptly, in bounded memory; a cancel and `close()` let go at once.
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, test, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpMock } from "../../src/index.js";
import { BIG_TEXT_BYTES, hostileHttpUpstream, hostileStdioScript } from "../support/hostile-upstream.js";

afterEach(() => {
  vi.restoreAllMocks();
});

async function connected(url: string): Promise<Client> {
  const client = new Client({ name: "hostile-test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** The error a call got, as `code: message`. */
async function failureOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return `${(error as { code?: number }).code}: ${(error as Error).message}`;
  }
  throw new Error("the call did not fail");
}

function quietStderr(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
  return lines;
}

describe("proxy mode in front of a hostile HTTP upstream", () => {
  test("an upstream that cuts its SSE stream in the middle of an event is reported as the cut, at once (not a timeout)", async () => {
    const upstream = await hostileHttpUpstream();
    try {
      await using mock = await McpMock.start({ proxy: { target: upstream.url }, clientTimeoutMs: 10_000 });
      const client = await connected(mock.url);
      try {
        const started = Date.now();
        const error = await failureOf(client.callTool({ name: "cut-mid-event", arguments: {} }));
        expect(error).toMatch(/^-32603: .*\[mcpmock\] the upstream http:\/\/127\.0\.0\.1:\d+\/mcp did not answer tools\/call: the upstream cut its SSE stream in the middle of an event, before answering/);
        expect(Date.now() - started).toBeLessThan(2_000);
        expect(JSON.stringify(await client.callTool({ name: "ok", arguments: {} }))).toContain("from upstream");
      } finally {
        await client.close();
      }
    } finally {
      await upstream.close();
    }
  });

  test("an upstream's HTTP 500 with a 1 MB HTML page gives the client a short message with the start of the page", async () => {
    const upstream = await hostileHttpUpstream();
    try {
      await using mock = await McpMock.start({ proxy: { target: upstream.url } });
      const client = await connected(mock.url);
      try {
        const error = await failureOf(client.callTool({ name: "html-500", arguments: {} }));
        expect(error).toMatch(/^-32603: /);
        expect(error).toMatch(/did not answer tools\/call: HTTP 500 Internal Server Error to POST tools\/call: <html><body><h1>Internal Server Error<\/h1><p>stack frame<\/p>/);
        expect(error).toMatch(/… \((\d+ bytes|over 1 MiB) in all\)/);
        expect(error.length).toBeLessThan(4_096);
      } finally {
        await client.close();
      }
    } finally {
      await upstream.close();
    }
  });

  test("a 10 MB answer to a call with a progress token reaches the client that reads it (one event over maxStreamBytes)", async () => {
    const upstream = await hostileHttpUpstream();
    try {
      await using mock = await McpMock.start({ proxy: { target: upstream.url } });
      const client = await connected(mock.url);
      try {
        const progress: number[] = [];
        const result = (await client.callTool({ name: "big", arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) })) as { content: Array<{ text: string }> };
        expect(progress).toEqual([1]);
        expect(result.content[0]?.text.length).toBe(BIG_TEXT_BYTES);
      } finally {
        await client.close();
      }
    } finally {
      await upstream.close();
    }
  });

  test("a client's cancel stops the mock reading the upstream's endless stream", async () => {
    const upstream = await hostileHttpUpstream();
    try {
      await using mock = await McpMock.start({ proxy: { target: upstream.url } });
      const client = await connected(mock.url);
      try {
        const abort = new AbortController();
        const closed = upstream.endlessClosed();
        let seen = 0;
        const call = failureOf(client.callTool({ name: "endless", arguments: {} }, undefined, { signal: abort.signal, onprogress: () => void (++seen === 3 && abort.abort()) }));
        expect(await call).toMatch(/abort/i);
        const started = Date.now();
        await closed;
        expect(Date.now() - started).toBeLessThan(1_000);
        expect(upstream.openEndless).toBe(0);
        expect(upstream.cancels).toBe(1);
      } finally {
        await client.close();
      }
    } finally {
      await upstream.close();
    }
  });

  test("400 proxied calls leave no listener behind: no warning, no notifications/cancelled on close(), which takes under a second", async () => {
    const upstream = await hostileHttpUpstream();
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    try {
      const mock = await McpMock.start({ proxy: { target: upstream.url } });
      // Raw POSTs (an SDK client per call costs more than the mock): one session, 16 at a time.
      const post = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
        fetch(mock.url, { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
      const init = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "soak", version: "1" } } });
      await init.text();
      const session = { "mcp-session-id": String(init.headers.get("mcp-session-id")), "mcp-protocol-version": "2025-11-25" };
      await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).text();
      let next = 0;
      let answered = 0;
      const worker = async (): Promise<void> => {
        while (next < 400) {
          const id = ++next;
          const text = await (await post({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "ok", arguments: {} } }, session)).text();
          if (text.includes("from upstream")) answered++;
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      expect(answered).toBe(400);
      const started = Date.now();
      await mock.close();
      expect(Date.now() - started).toBeLessThan(1_000);
      await new Promise((r) => setTimeout(r, 50));
      expect(upstream.cancels).toBe(0);
      expect(warnings).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      await upstream.close();
    }
  }, 60_000);
});

describe("proxy mode in front of a hostile stdio upstream", () => {
  const script = hostileStdioScript();

  test("30 MB on stdout without a newline ends that server with a clear error, and the next call starts it again", async () => {
    const stderr = quietStderr();
    await using mock = await McpMock.start({ proxy: { command: process.execPath, args: [script, "flood"] } });
    const client = await connected(mock.url);
    try {
      const first = JSON.stringify(await client.callTool({ name: "ok", arguments: {} }));
      const error = await failureOf(client.callTool({ name: "flood", arguments: {} }));
      expect(error).toMatch(/^-32603: /);
      expect(error).toMatch(/did not answer tools\/call: the connection to .*hostile-stdio\.mjs flood closed: it wrote more than 16777216 bytes \(16 MiB\) on stdout without a newline \(\d+ bytes so far\); it was stopped/);
      const again = JSON.stringify(await client.callTool({ name: "ok", arguments: {} }));
      expect(again).toMatch(/ok from \d+/);
      expect(again).not.toBe(first); // another process
      expect(stderr.join("")).toMatch(/the next call opens a new session \(the server is started again\)/);
    } finally {
      await client.close();
    }
  }, 20_000);

  test("a server that stops reading its stdin holds at most 16 MiB of what is written to it: later calls are refused at once, saying why", async () => {
    quietStderr();
    await using mock = await McpMock.start({ proxy: { command: process.execPath, args: [script] }, clientTimeoutMs: 1_500 });
    const client = await connected(mock.url);
    try {
      expect(JSON.stringify(await client.callTool({ name: "deafen", arguments: {} }))).toContain("deaf from now on");
      const pad = "x".repeat(3 * 1024 * 1024);
      const started = Date.now();
      const errors = await Promise.all(Array.from({ length: 8 }, () => failureOf(client.callTool({ name: "ok", arguments: { pad } }))));
      // Six calls of 3 MiB fit under 16 MiB unread (the sixth one written at 15.7 MB): they wait, in its pipe and in
      // memory, until the timeout; the two after them are refused at once.
      const refused = /has not read the \d+ bytes already written to its stdin \(over 16777216, 16 MiB\): it is not reading \(is its loop blocked, or does it read only at start\?\), so tools\/call was not written; calls are refused so until it reads/;
      const kinds = errors.map((e) => (refused.test(e) ? "refused" : /no answer within 1500 ms/.test(e) ? "waited" : e)).sort();
      expect(kinds).toEqual(["refused", "refused", "waited", "waited", "waited", "waited", "waited", "waited"]);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await client.close();
    }
  }, 20_000);

  // Before (2026-12-07): a client's session ended, its server was ended in the background, and
  // close() did not wait for it: a server that does not exit when its stdin ends was still in
  // its grace when close() returned, and a process that exited then (a test runner's worker)
  // left it running for good.
  test("close() waits for the server of a session a client ended, though it ignores its stdin's end: none is left running", async () => {
    quietStderr();
    const own = hostileStdioScript(); // in a directory of its own: the processes running it are this test's
    const running = (): number => processesRunning(`${process.execPath}\0${own}`);
    const mock = await McpMock.start({ proxy: { command: process.execPath, args: [own] } });
    const client = await connected(mock.url);
    expect(JSON.stringify(await client.callTool({ name: "deafen", arguments: {} }))).toContain("deaf from now on");
    await client.close(); // its session ends, and with it the upstream session of its server
    expect(running()).toBeGreaterThan(0);
    await mock.close();
    expect(running()).toBe(0);
  });

  test("a non-JSON line on stdout is skipped: calls are answered", async () => {
    await using mock = await McpMock.start({ proxy: { command: process.execPath, args: [script, "noise"] } });
    const client = await connected(mock.url);
    try {
      expect(JSON.stringify(await client.callTool({ name: "ok", arguments: {} }))).toMatch(/ok from \d+/);
    } finally {
      await client.close();
    }
  });

  test("an upstream that exits right after initialize: start() settles, and a call gets an error naming the command", async () => {
    const stderr = quietStderr();
    const started = Date.now();
    await using mock = await McpMock.start({ proxy: { command: process.execPath, args: [script, "exit-after-init"] }, clientTimeoutMs: 5_000 });
    expect(Date.now() - started).toBeLessThan(3_000);
    const client = await connected(mock.url);
    try {
      const callStarted = Date.now();
      const error = await failureOf(client.callTool({ name: "ok", arguments: {} }));
      expect(error).toMatch(/^-32603: .*\[mcpmock\] the upstream .*hostile-stdio\.mjs exit-after-init (did not answer tools\/call|could not be reached)/);
      expect(Date.now() - callStarted).toBeLessThan(3_000);
      expect(stderr.join("")).toMatch(/hostile-stdio\.mjs exit-after-init/);
    } finally {
      await client.close();
    }
  });
});

/** How many processes run with a command line that starts with `prefix` (its arguments joined by NUL, as /proc shows them). */
function processesRunning(prefix: string): number {
  let count = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith(prefix)) count++;
    } catch {
      // it ended meanwhile
    }
  }
  return count;
}
