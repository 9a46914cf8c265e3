/**
 * Issue 20's defects, each reproduced as a hostile client would and asserted fixed: deep
 * nesting, the session cap against held GET streams, memory bounded by bytes, SSE
 * backpressure. (Host and admin checks are in security.test.ts.)
 */
import http from "node:http";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, onTestFinished, test, vi } from "vitest";
import { McpMock } from "../../src/index.js";
import { heapAfterGc } from "../support/heap.js";
import { ACCEPT_BOTH } from "../support/raw-http.js";

const tools = [{ name: "echo", inputSchema: { type: "object" } }] as const;
const init = (id: number | string = 0) => ({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bounds", version: "1" } } });

function post(url: string, body: string | object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
}

async function session(url: string): Promise<Record<string, string>> {
  const res = await post(url, init());
  expect(res.status, await res.text()).toBe(200);
  return { "mcp-session-id": res.headers.get("mcp-session-id") as string, "mcp-protocol-version": "2025-11-25" };
}

const deep = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

describe("deep nesting (issue 20, defect 4)", () => {
  // Before: arguments 5,000 deep were answered and journaled; then verify() threw RangeError
  // and GET /__admin/requests and POST /__admin/verify answered 500 until a reset.
  test("arguments 5,000 deep are refused when parsed; verify() and the admin API keep working", async () => {
    await using mock = await McpMock.start({ tools, admin: true, onUnmatched: "silent" });
    mock.toolsCall("echo").respondsWith("ok");
    const headers = await session(mock.url);
    const res = await post(mock.url, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":${deep(5000)}}}}`, headers);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { data: string } }).error.data).toContain("deeper than 514 levels");
    expect(() => mock.verify(mock.toolsCall("echo").withArgs({ a: 1 }))).toThrow(/never|0 times|expected/i);
    const admin = mock.url.replace(/\/mcp$/, "/__admin");
    expect((await fetch(`${admin}/requests`)).status).toBe(200);
    const verify = await fetch(`${admin}/verify`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pattern: { tool: "echo" }, count: 0 }) });
    expect(await verify.json()).toStrictEqual({ ok: true, matched: 0 });
    const deepVerify = await fetch(`${admin}/verify`, { method: "POST", headers: { "content-type": "application/json" }, body: `{"pattern":{"tool":"echo","args":{"a":${deep(100_000)}}}}` });
    expect(deepVerify.status).toBe(400);
    expect(await deepVerify.json()).toStrictEqual({ error: "[mcpmock] the request body must not nest deeper than 514 levels; send a flatter value." });
  });
});

describe("memory bounded by bytes (issue 20, defect 1)", () => {
  // Before: the journal was capped by entries only and kept each body about twice (the raw
  // text and the parsed params): 680 calls with 3 MiB arguments ended in a heap OOM. Here
  // 40 calls with 1 MiB arguments against an 8 MiB budget: 80 MiB retained before.
  test("the journal keeps at most journalBytes of messages, each body once", async () => {
    const budget = 8 * 1024 * 1024;
    await using mock = await McpMock.start({ tools, journalBytes: budget, onUnmatched: "silent" });
    mock.toolsCall("echo").respondsWith("ok");
    const headers = await session(mock.url);
    const before = heapAfterGc();
    for (let i = 0; i < 40; i++) {
      const res = await post(mock.url, { jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "echo", arguments: { blob: String(i % 10).repeat(1024 * 1024) } } }, headers);
      expect(res.status).toBe(200);
      await res.text();
    }
    const grown = heapAfterGc() - before;
    expect(grown, `the heap grew ${(grown / 2 ** 20).toFixed(1)} MiB`).toBeLessThan(budget * 1.5);
    const kept = mock.requests();
    expect(kept.length).toBeLessThan(10);
    expect(kept.length).toBeGreaterThan(3);
    expect(kept.at(-1)?.id).toBe(40);
    expect(() => mock.verify(mock.toolsCall("echo"), 41)).toThrow(/journalBytes/);
  });

  // Before: only the requests' text counted, so an answer function returning 1 MiB per call
  // kept every answer (40 MiB here against an 8 MiB budget).
  test("the answers the journal keeps count against journalBytes too; a constant answer costs nothing", async () => {
    const budget = 8 * 1024 * 1024;
    await using mock = await McpMock.start({ tools, journalBytes: budget, onUnmatched: "silent" });
    mock.toolsCall("echo").respondsWith((call) => String((call.args as Record<string, unknown>)["n"]).repeat(1024 * 1024));
    const headers = await session(mock.url);
    const before = heapAfterGc();
    for (let i = 0; i < 40; i++) {
      const res = await post(mock.url, { jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "echo", arguments: { n: i % 10 } } }, headers);
      await res.text();
    }
    const grown = heapAfterGc() - before;
    expect(grown, `the heap grew ${(grown / 2 ** 20).toFixed(1)} MiB`).toBeLessThan(budget * 1.5);
    const kept = mock.requests();
    expect(kept.length).toBeLessThan(10);
    expect(kept.at(-1)?.answer).toMatchObject({ result: { content: [{ type: "text" }] } });
    // A constant answer is one object every entry shares: 200 of them fit in a small budget.
    await using small = await McpMock.start({ tools, journalBytes: 64 * 1024, onUnmatched: "silent" });
    small.toolsCall("echo").respondsWith("x".repeat(32 * 1024));
    const h = await session(small.url);
    for (let i = 0; i < 200; i++) await (await post(small.url, { jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "echo", arguments: {} } }, h)).text();
    expect(small.requests().filter((e) => e.method === "tools/call")).toHaveLength(200);
  });

  // Before: each message of a batch counted the whole batch's text, so a batch of ten filled a
  // budget ten times too soon and the journal kept one of its ten requests.
  test("a message in a batch counts its share of the batch's text", async () => {
    await using mock = await McpMock.start({ tools, journalBytes: 1536 * 1024, onUnmatched: "silent" });
    mock.toolsCall("echo").respondsWith("ok");
    const init = await fetch(mock.url, {
      method: "POST",
      headers: { accept: ACCEPT_BOTH, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "b", version: "1" } } }),
    });
    await init.text();
    const headers = { "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-03-26" };
    const batch = Array.from({ length: 10 }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "echo", arguments: { blob: "b".repeat(100 * 1024) } } }));
    const res = await fetch(mock.url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json", ...headers }, body: JSON.stringify(batch) });
    expect(((await res.json()) as unknown[]).length).toBe(10);
    expect(mock.requests().filter((e) => e.method === "tools/call")).toHaveLength(10);
  });

  test("an answer larger than the whole budget is kept as its size", async () => {
    await using mock = await McpMock.start({ tools, journalBytes: 1024 * 1024, onUnmatched: "silent" });
    mock.toolsCall("echo").respondsWith(() => "y".repeat(2 * 1024 * 1024));
    const headers = await session(mock.url);
    const res = await post(mock.url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {} } }, headers);
    expect((await res.text()).length).toBeGreaterThan(2 * 1024 * 1024);
    expect(mock.requests().find((e) => e.id === 1)?.answer).toEqual({ truncated: true, bytes: expect.any(Number) as number });
  });

  test("a message larger than journalBytes is kept without its params, and reports and verification say so", async () => {
    await using mock = await McpMock.start({ tools, journalBytes: 1024 * 1024, onUnmatched: "silent" });
    mock.toolsCall("echo").respondsWith("ok");
    const headers = await session(mock.url);
    const res = await post(mock.url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { blob: "x".repeat(2 * 1024 * 1024) } } }, headers);
    expect(res.status).toBe(200);
    await res.text();
    const [entry] = mock.requests().filter((e) => e.id === 1);
    expect(entry).toMatchObject({ params: { name: "echo" }, truncated: { bytes: expect.any(Number) as number } });
    mock.verify(mock.toolsCall("echo"), 1);
    expect(() => mock.verify(mock.toolsCall("echo").withArgs({ blob: "x" }), 1)).toThrow(
      /#2 tools\/call "echo" \[params not kept: \d+ bytes, over journalBytes\][\s\S]*1 kept without its params \(each over journalBytes, 1048576 bytes\)/,
    );
  });
});

/** POSTs a tools/call and hands back the raw Node response, paused: the client reads nothing. */
function pausedCall(url: string, headers: Record<string, string>, id: number): Promise<import("node:http").IncomingMessage> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: {} } });
    const req = http.request(url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json", ...headers } }, (res) => {
      res.pause();
      resolve(res);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const frame = "x".repeat(16 * 1024);

describe("SSE backpressure (issue 20, defect 2)", () => {
  const count = 2000;

  // A browser client sends an Origin header; its answer is handed to the adapter as a Response
  // body (for the CORS headers), not written to the socket. Before (2026-12-07): that body's
  // queue took every event whatever the client read (2,000 x 16 KiB, RSS +81 MB), and the
  // client was never dropped.
  const clients: Array<{ client: string; origin: Record<string, string> }> = [
    { client: "without an Origin header", origin: {} },
    { client: "with an Origin header (a browser)", origin: { origin: "http://localhost:5173" } },
  ];

  // Before: the stream ran to its end whatever the client read (10,000 x 16 KiB took RSS from
  // 83 to 596 MB within a second). Now the player waits for the socket to drain.
  test.each(clients)("a stream to a client that reads nothing waits; the client then reads every event ($client)", async ({ origin }) => {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
    let produced = 0;
    mock.toolsCall("echo").streams(function* () {
      for (let i = 0; i < count; i++) {
        produced++;
        yield { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: frame } };
      }
    });
    const headers = { ...(await session(mock.url)), ...origin };
    const res = await pausedCall(mock.url, headers, 1);
    await sleep(500);
    expect(produced, `${produced} of ${count} events produced while the client read nothing`).toBeLessThan(count / 2);
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => (text += chunk));
    res.resume();
    await new Promise((resolve) => res.on("end", resolve));
    expect(produced).toBe(count);
    expect(text.split("event: message").length - 1).toBe(count);
  });

  test.each(clients)("a client that stops reading longer than sseStallMs is dropped, and the journal says so, and nothing else ($client)", async ({ origin }) => {
    // Erroring a Response body made the HTTP adapter print the error with its stack (console.error).
    const printed = [vi.spyOn(console, "error"), vi.spyOn(console, "info")];
    onTestFinished(() => printed.forEach((spy) => spy.mockRestore()));
    await using mock = await McpMock.start({ tools, onUnmatched: "silent", sseStallMs: 300 });
    mock.toolsCall("echo").streams(function* () {
      for (let i = 0; i < count; i++) yield { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: frame } };
    });
    const headers = { ...(await session(mock.url)), ...origin };
    const res = await pausedCall(mock.url, headers, 1);
    const started = Date.now();
    while (mock.requests().find((e) => e.id === 1)?.answer === undefined && Date.now() - started < 3000) await sleep(20);
    expect(Date.now() - started).toBeLessThan(2000);
    const entry = mock.requests().find((e) => e.id === 1);
    expect(entry?.answer).toStrictEqual({ cancelled: true, reason: "the client read nothing for 300 ms (sseStallMs) with the socket's buffer full; the stream was dropped" });
    await sleep(100);
    for (const spy of printed) expect(spy).not.toHaveBeenCalled();
    res.destroy();
  });
});

describe("SSE backpressure on the legacy HTTP+SSE transport", () => {
  const count = 2000;
  const stream = (produced: { n: number }) =>
    function* () {
      for (let i = 0; i < count; i++) {
        produced.n++;
        yield { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: frame } };
      }
    };

  /** Opens GET /sse, reads up to its endpoint event, then reads nothing; initializes, and calls echo. */
  async function pausedLegacyCall(mock: McpMock): Promise<http.IncomingMessage> {
    const { res, endpoint } = await new Promise<{ res: http.IncomingMessage; endpoint: string }>((resolve, reject) => {
      http.get(mock.sseUrl, { headers: { accept: "text/event-stream" } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        const onData = (chunk: string): void => {
          text += chunk;
          const found = /event: endpoint\ndata: (.*)\n/.exec(text);
          if (!found) return;
          res.off("data", onData);
          res.pause();
          resolve({ res, endpoint: new URL(found[1] as string, mock.sseUrl).href });
        };
        res.on("data", onData);
      }).on("error", reject);
    });
    const send = async (message: object): Promise<void> => {
      const answer = await fetch(endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(message) });
      expect(answer.status, await answer.text()).toBe(202);
    };
    await send(init(1));
    await sleep(100);
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: {} } });
    return res;
  }

  // Before (2026-12-07): a legacy connection wrote whatever was sent to it; a client that read
  // nothing had all 2,000 x 16 KiB queued in the mock, and was never dropped.
  test("a stream to a client that reads nothing waits; the client then reads every event", async () => {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent" });
    const produced = { n: 0 };
    mock.toolsCall("echo").streams(stream(produced));
    const res = await pausedLegacyCall(mock);
    await sleep(500);
    expect(produced.n, `${produced.n} of ${count} events produced while the client read nothing`).toBeLessThan(count / 2);
    let text = "";
    res.on("data", (chunk: string) => (text += chunk));
    res.resume();
    const events = (): number => text.split("event: message").length - 1;
    for (let i = 0; i < 100 && events() < count + 1; i++) await sleep(50);
    expect(produced.n).toBe(count);
    expect(events()).toBe(count + 1); // the initialize answer, then the stream
    res.destroy();
  });

  test("a client that stops reading longer than sseStallMs is dropped, its session ends, and the journal says why", async () => {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent", sseStallMs: 300 });
    mock.toolsCall("echo").streams(stream({ n: 0 }));
    const res = await pausedLegacyCall(mock);
    const started = Date.now();
    // The client hears of it only when it reads again (the mock's end waits behind its unread bytes).
    while (mock.sessions().length > 0 && Date.now() - started < 3000) await sleep(20);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(mock.requests().find((e) => e.id === 2)?.answer).toStrictEqual({ cancelled: true, reason: "the client read nothing for 300 ms (sseStallMs) with the socket's buffer full; the stream was dropped" });
    res.destroy();
  });
});

describe("stdio backpressure (issue 20, defect 2)", () => {
  // Before: stdout's buffer took every line of a stream whatever the client read: 10,000
  // notifications of 16 KiB queued 160 MB in the process while the client read nothing.
  test("a stream over stdio waits while stdout's buffer is full, then sends every line", async () => {
    await using mock = await McpMock.start({ transport: "none", tools, onUnmatched: "silent" });
    const line = "z".repeat(16 * 1024);
    mock.toolsCall("echo").streams(function* () {
      for (let i = 0; i < 2000; i++) yield { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: line } };
    });
    const input = new PassThrough();
    let written = 0;
    let reading = false;
    const waiting: Array<() => void> = [];
    // A client that reads nothing until told to: the writes wait in its callback.
    const output = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        written += chunk.length;
        if (reading) callback();
        else waiting.push(() => callback());
      },
    });
    const served = mock.serveStdio({ input, output, log: new PassThrough() });
    input.write(`${JSON.stringify(init(1))}\n`);
    input.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: {} } })}\n`);
    await sleep(300);
    // Held: no more than the buffer and the line that filled it are queued.
    expect(output.writableLength).toBeLessThan(256 * 1024);
    reading = true;
    for (const release of waiting.splice(0)) release();
    for (let i = 0; i < 200 && written < 2000 * line.length; i++) {
      await sleep(20);
      for (const release of waiting.splice(0)) release();
    }
    expect(written).toBeGreaterThan(2000 * line.length);
    input.end();
    await served;
  });
});

describe("the resumption log is bounded by bytes (issue 20, defect 2)", () => {
  // Before: finished streams were kept by count (10,000 events, 16 streams a session): about
  // 160 MB for one 16 KiB x 10,000 stream until the session ended.
  test("a finished stream keeps at most maxStreamBytes of events, a session maxSessionStreamBytes", async () => {
    await using mock = await McpMock.start({ tools, onUnmatched: "silent", maxStreamBytes: 1024 * 1024, maxSessionStreamBytes: 2 * 1024 * 1024 });
    mock.toolsCall("echo").streams(function* () {
      for (let i = 0; i < 200; i++) yield { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: frame } };
    });
    const headers = await session(mock.url);
    for (let id = 1; id <= 4; id++) {
      const res = await post(mock.url, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: {} } }, headers);
      expect((await res.text()).split("event: message").length - 1).toBe(200);
    }
    const [info] = mock.sessions();
    expect(info?.resumableBytes).toBeGreaterThan(1024 * 1024);
    expect(info?.resumableBytes).toBeLessThanOrEqual(2 * 1024 * 1024);
    // Resuming the last stream from its start replays what is kept: its newest events, up to 1 MiB.
    const resumed = await fetch(mock.url, { headers: { accept: "text/event-stream", ...headers, "last-event-id": "4-0" } });
    const text = await resumed.text();
    const ids = [...text.matchAll(/^id: 4-(\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids.length).toBeGreaterThan(30);
    expect(ids.length * frame.length).toBeLessThanOrEqual(1024 * 1024);
    expect(ids.at(-1)).toBe(200);
    // Before: the events dropped to the bound were skipped silently; now the replay says which.
    expect(text).toMatch(new RegExp(`^: mcpmock: Last-Event-ID 4-0: events 4-1 to 4-${(ids[0] as number) - 1} of session-1 were dropped`, "m"));
    const whole = await fetch(mock.url, { headers: { accept: "text/event-stream", ...headers, "last-event-id": `4-${(ids[0] as number) - 1}` } });
    expect(await whole.text()).not.toContain("were dropped");
  });
});
