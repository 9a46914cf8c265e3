/**
 * The inspector's server side, read the way the page reads it: the live feed
 * (GET /__admin/events) over real HTTP while an SDK v1 client calls the mock, its bounds
 * (pages at once, a page that does not read), its end at close(); the suggestions a miss
 * carries, each posted back to the admin API and then answering the call it came from; the
 * page's files and the policy they are served with; same-origin writes from the page.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import net from "node:net";
import { z } from "zod";
import { describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";
import { Journal } from "../../src/journal/journal.js";
import { FEED_CLIENT_BUDGET, LiveFeed, MAX_FEED_CLIENTS } from "../../src/admin/live-feed.js";

const tools = [{ name: "add", inputSchema: { type: "object" } }] as const;
const prompts = [{ name: "greet", arguments: [{ name: "name" }] }];

interface Frame {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

/** Reads SSE frames from a fetch response. */
function frames(response: Response): { next(until: (f: Frame) => boolean, timeoutMs?: number): Promise<Frame[]>; done(): Promise<boolean> } {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const seen: Frame[] = [];
  const pull = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (done) return false;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const raw = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(raw)?.[1];
      const data = /^data: (.*)$/m.exec(raw)?.[1];
      if (event && data) seen.push({ event, data: JSON.parse(data) as Record<string, unknown> });
    }
    return true;
  };
  return {
    async next(until, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!seen.some(until)) {
        if (Date.now() > deadline) throw new Error(`no such frame; saw ${JSON.stringify(seen.map((f) => f.event))}`);
        if (!(await pull())) throw new Error("the feed ended");
      }
      return seen;
    },
    /** Resolves once the stream ends: closed, or cut when the server closed its sockets. */
    async done() {
      try {
        while (await pull());
      } catch {
        // terminated: the socket went with the server
      }
      return true;
    },
  };
}

async function started() {
  const mock = await McpMock.start({ tools, prompts, admin: true, onUnmatched: "silent" });
  const client = new Client({ name: "feed-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  const admin = mock.url.replace(/\/mcp$/, "/__admin");
  return {
    mock,
    client,
    admin,
    async [Symbol.asyncDispose]() {
      await client.close();
      await mock.close();
    },
  };
}

describe("GET /__admin/events", () => {
  test("sends each entry as it arrives and again once answered, with its target and answer", async () => {
    await using ctx = await started();
    ctx.mock.toolsCall("add").respondsWith({ sum: 3 });
    const response = await fetch(`${ctx.admin}/events`);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const feed = frames(response);
    await feed.next((f) => f.event === "hello");
    await ctx.client.callTool({ name: "add", arguments: { a: 1 } });
    const seen = await feed.next((f) => f.event === "entry" && f.data["method"] === "tools/call" && f.data["durationMs"] !== undefined);
    const call = seen.filter((f) => f.data["method"] === "tools/call");
    expect(call.map((f) => f.data["durationMs"] === undefined)).toEqual([true, false]); // arrival, then the answer
    expect(call[1]?.data).toMatchObject({ target: "add", stubId: ctx.mock.stubs().find((s) => s.source === "dsl")?.id, unmatched: false, answer: { result: { content: [{ type: "text", text: '{"sum":3}' }] } } });
    expect(call[1]?.data["call"]).toBeUndefined();
  });

  test(`holds at most ${MAX_FEED_CLIENTS} pages at once and says so to the next; a page that goes frees its place`, async () => {
    await using ctx = await started();
    const pages = await Promise.all(Array.from({ length: MAX_FEED_CLIENTS }, () => new AbortController()).map(async (abort) => ({ abort, response: await fetch(`${ctx.admin}/events`, { signal: abort.signal }) })));
    expect(pages.map((p) => p.response.status)).toEqual(Array(MAX_FEED_CLIENTS).fill(200));
    const refused = await fetch(`${ctx.admin}/events`);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toBe(`[mcpmock] ${MAX_FEED_CLIENTS} pages already hold the live feed open; close one (or reload fewer inspector tabs).`);
    pages[0]?.abort.abort();
    await expect.poll(async () => {
      const again = await fetch(`${ctx.admin}/events`);
      void again.body?.cancel();
      return again.status;
    }, { timeout: 5000 }).toBe(200);
    for (const page of pages) page.abort.abort();
  });

  test("a page that stops reading is cut off when dropped: its socket ends, nothing queued for it stays", async () => {
    await using ctx = await started();
    const { port } = new URL(ctx.admin);
    const sockets = (): number => process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap").length;
    const before = sockets();
    const readers = await Promise.all(
      Array.from({ length: 3 }, () =>
        new Promise<net.Socket>((resolve) => {
          const socket = net.connect(Number(port), "127.0.0.1", () => {
            socket.write(`GET /__admin/events HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\naccept: text/event-stream\r\n\r\n`);
            socket.once("data", () => {
              socket.pause(); // reads the headers, then nothing more
              resolve(socket);
            });
          });
          socket.on("error", () => undefined);
        }),
      ),
    );
    // Their server sides are open (a paused client socket is not an active handle).
    expect(sockets()).toBeGreaterThanOrEqual(before + 3);
    const transport = ctx.mock.clientTransport();
    await transport.start();
    const big = { blob: "x".repeat(64 * 1024) };
    for (let i = 0; i < 400; i++) await transport.send({ jsonrpc: "2.0", method: "notifications/x", params: big });
    await expect.poll(sockets, { timeout: 5000 }).toBeLessThanOrEqual(before);
    await transport.close();
    for (const socket of readers) socket.destroy();
  });

  test(`a page that reads keeps the feed through an entry larger than ${FEED_CLIENT_BUDGET} characters, and gets it whole`, async () => {
    await using ctx = await started();
    const text = "x".repeat(FEED_CLIENT_BUDGET + 1024);
    ctx.mock.toolsCall("add").respondsWith({ text });
    const feed = frames(await fetch(`${ctx.admin}/events`));
    await feed.next((f) => f.event === "hello");
    await ctx.client.callTool({ name: "add", arguments: {} });
    const seen = await feed.next((f) => f.event === "entry" && f.data["method"] === "tools/call" && f.data["durationMs"] !== undefined);
    expect(JSON.stringify(seen.at(-1)?.data["answer"])).toContain(text);
    await ctx.client.ping();
    await feed.next((f) => f.event === "entry" && f.data["method"] === "ping" && f.data["durationMs"] !== undefined);
  });

  test("close() ends every open feed at once", async () => {
    const ctx = await started();
    const feed = frames(await fetch(`${ctx.admin}/events`));
    await feed.next((f) => f.event === "hello");
    await ctx.client.close();
    const t0 = Date.now();
    await ctx.mock.close();
    expect(await feed.done()).toBe(true);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  test("POST /__admin/reset tells the pages (event: reset)", async () => {
    await using ctx = await started();
    const feed = frames(await fetch(`${ctx.admin}/events`));
    await feed.next((f) => f.event === "hello");
    expect((await fetch(`${ctx.admin}/reset`, { method: "POST" })).status).toBe(204);
    await feed.next((f) => f.event === "reset");
  });

  test(`a page that reads nothing is dropped once ${FEED_CLIENT_BUDGET} characters wait for it, and stops costing the journal`, async () => {
    const journal = new Journal();
    const closing = new AbortController();
    const feed = new LiveFeed({ journal, closing: closing.signal });
    const response = feed.open(); // never read
    expect(feed.size).toBe(1);
    const big = { blob: "x".repeat(64 * 1024) };
    for (let i = 0; i < 200 && feed.size > 0; i++) journal.record({ kind: "notification", method: "notifications/x", id: undefined, params: big, sessionId: undefined, headers: {}, protocolVersion: "2025-11-25", transport: "http", call: undefined }, 0);
    expect(feed.size).toBe(0);
    closing.abort();
    await response.body?.cancel();
  });

  test("the mock closing ends every page's stream and lets go of the journal", async () => {
    const journal = new Journal();
    const closing = new AbortController();
    const feed = new LiveFeed({ journal, closing: closing.signal });
    const pages = [feed.open(), feed.open()];
    expect(feed.size).toBe(2);
    closing.abort();
    expect(feed.size).toBe(0);
    for (const page of pages) expect(await page.text()).toMatch(/^retry: 1000\nevent: hello\n/);
    const late = feed.open();
    expect(late.status).toBe(503);
    expect(await late.json()).toEqual({ error: "[mcpmock] the mock is closing; no live feed." });
  });
});

describe("suggestions for misses", () => {
  test("a missed tool call, prompt, resource and method each carry a definition fragment and a DSL chain; posted back, the fragment answers the same call", async () => {
    await using ctx = await started();
    const miss = {
      tool: () => ctx.client.callTool({ name: "add", arguments: { a: 1, b: { $any: true } } }),
      prompt: () => ctx.client.getPrompt({ name: "greet", arguments: { name: "Ada" } }),
      resource: () => ctx.client.readResource({ uri: "test://missing" }),
      method: () => ctx.client.request({ method: "custom/thing", params: { n: 1 } } as never, z.looseObject({})),
    };
    for (const call of Object.values(miss)) await call().catch(() => undefined);
    const entries = (await (await fetch(`${ctx.admin}/requests`)).json()) as Array<{ method: string; unmatched: boolean; suggestion?: { definition: unknown; dsl: string } }>;
    const suggestions = Object.fromEntries(entries.filter((e) => e.unmatched).map((e) => [e.method, e.suggestion]));
    expect(suggestions).toEqual({
      "tools/call": {
        definition: { responses: [{ tool: "add", args: { a: 1, b: { $literal: { $any: true } } }, result: "TODO: the answer" }] },
        dsl: 'mock.toolsCall("add").withArgs({"a":1,"b":{"$any":true}}).respondsWith("TODO: the answer");',
      },
      "prompts/get": {
        definition: { prompts: [{ name: "greet", responses: [{ args: { name: "Ada" }, messages: "TODO: the answer" }] }] },
        dsl: 'mock.promptsGet("greet").withArgs({"name":"Ada"}).respondsWith("TODO: the answer");',
      },
      "resources/read": {
        definition: { resources: [{ uri: "test://missing", name: "test://missing", text: "TODO: the answer" }] },
        dsl: 'mock.resourcesRead("test://missing").respondsWith({ text: "TODO: the answer" });',
      },
      "custom/thing": {
        definition: { responses: [{ method: "custom/thing", params: { n: 1 }, result: {} }] },
        dsl: 'mock.method("custom/thing").withParams({"n":1}).respondsWith({});',
      },
    });
    for (const suggestion of Object.values(suggestions)) {
      const posted = await fetch(`${ctx.admin}/stubs`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(suggestion?.definition) });
      expect(posted.status, JSON.stringify(suggestion)).toBe(201);
    }
    ctx.mock.resetJournal();
    for (const call of Object.values(miss)) await call();
    expect(ctx.mock.unmatched()).toEqual([]);
    expect((await miss.tool()).content).toEqual([{ type: "text", text: "TODO: the answer" }]);
  });
});

describe("the page's files", () => {
  test("GET /__admin/ui serves the page and its script and style, with a policy that allows nothing from elsewhere", async () => {
    await using ctx = await started();
    for (const [path, type] of [["/ui", "text/html"], ["/ui/", "text/html"], ["/ui/inspector.js", "text/javascript"], ["/ui/inspector.css", "text/css"]] as const) {
      const response = await fetch(`${ctx.admin}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toContain(type);
      expect(response.headers.get("content-security-policy")).toContain("default-src 'none'; script-src 'self'");
      expect(await response.text()).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    }
    const unknown = await fetch(`${ctx.admin}/ui/secrets.json`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'no inspector file "secrets.json"; the page is GET /__admin/ui.' });
    expect((await fetch(`${ctx.admin}/ui/..%2F..%2Fpackage.json`)).status).toBe(404);
  });

  test("the page's own origin may write (its reset button); another loopback origin still may not", async () => {
    await using ctx = await started();
    const origin = new URL(ctx.mock.url).origin;
    expect((await fetch(`${ctx.admin}/reset`, { method: "POST", headers: { origin } })).status).toBe(204);
    const foreign = await fetch(`${ctx.admin}/reset`, { method: "POST", headers: { origin: "http://127.0.0.1:1" } });
    expect(foreign.status).toBe(403);
  });

  test("GET /__admin/sessions and /scenarios: the JSON the page shows", async () => {
    await using ctx = await started();
    ctx.mock.toolsCall("add").inScenario("cart").whenState("Started").willSetState("Paid").respondsWith("ok");
    await ctx.client.callTool({ name: "add", arguments: {} });
    expect(await (await fetch(`${ctx.admin}/scenarios`)).json()).toEqual([{ name: "cart", state: "Paid" }]);
    const sessions = (await (await fetch(`${ctx.admin}/sessions`)).json()) as Array<{ id: string; clientInfo: unknown }>;
    expect(sessions).toEqual(JSON.parse(JSON.stringify(ctx.mock.sessions())));
    expect(sessions[0]?.clientInfo).toEqual({ name: "feed-test", version: "1.0.0" });
  });
});
