/**
 * The journal packs an answered entry outside the heap and makes it an object again when read:
 * what is read back is, field for field, what the entry was when it was answered (as a
 * listener saw it), for every form a message and an answer take.
 */
import { describe, expect, test } from "vitest";
import { Journal } from "../src/journal/journal.js";
import { type JournalEntry } from "../src/journal/entry.js";
import { EntryPacker } from "../src/journal/packed-entry.js";
import { McpCall, type McpCallInit } from "../src/stubs/call.js";
import { approxJsonBytes } from "../src/values/json-size.js";

/** An entry as plain data, its call by what a stub sees of it. */
function view(entry: JournalEntry): unknown {
  const { call, ...rest } = entry;
  return {
    ...rest,
    call: call && { method: call.method, params: call.params, id: call.id, sessionId: call.sessionId, headers: call.headers, protocolVersion: call.protocolVersion, transport: call.transport, body: call.body, args: call.args },
  };
}

interface Message {
  readonly kind?: JournalEntry["kind"];
  readonly method: string;
  readonly id?: string | number;
  readonly params?: Record<string, unknown>;
  readonly body?: string;
  readonly headers?: Record<string, string>;
  readonly stubId?: string;
  readonly answer?: unknown;
  readonly resultJson?: string;
  readonly miss?: string;
  readonly noCall?: boolean;
  /** Proxy mode: what the upstream answered (the entry is marked proxied before it is completed, as the core does). */
  readonly upstream?: NonNullable<JournalEntry["upstream"]>;
}

/** Records and answers each message; returns what a listener saw of each as it was answered. */
function journalOf(journal: Journal, messages: readonly Message[]): unknown[] {
  const seen: unknown[] = [];
  const off = journal.onComplete((entry) => seen.push(structuredClone(view(entry))));
  for (const m of messages) {
    const body = m.body ?? JSON.stringify({ jsonrpc: "2.0", ...(m.id === undefined ? {} : { id: m.id }), method: m.method, params: m.params });
    const init: McpCallInit = { method: m.method, params: m.params, id: m.id, sessionId: "s-1", headers: m.headers ?? { "content-type": "application/json" }, protocolVersion: "2025-11-25", body, transport: "http" };
    const call = m.noCall ? undefined : new McpCall(init);
    const entry: JournalEntry = journal.record({ kind: m.kind ?? (m.id === undefined ? "notification" : "request"), method: m.method, id: m.id, params: m.params, sessionId: init.sessionId, headers: init.headers, protocolVersion: init.protocolVersion, transport: init.transport, call }, body.length);
    if (m.upstream !== undefined) {
      entry.proxied = true;
      entry.upstream = m.upstream;
    }
    journal.complete(entry, m.stubId, m.answer, m.miss, undefined, m.resultJson);
  }
  off();
  return seen;
}

const result = (id: string | number, value: unknown): { answer: unknown; resultJson: string } => ({ answer: { jsonrpc: "2.0", id, result: value }, resultJson: JSON.stringify(value) });

describe("a packed journal entry read back", () => {
  test("is the entry as answered, whatever form its message and answer took", () => {
    const journal = new Journal();
    const messages: Message[] = [
      // The raw body is the message (method and id read from it), a computed result's JSON the answer.
      { method: "tools/call", id: 1, params: { name: "add", arguments: { a: 1, b: 2 } }, stubId: "stub-1", ...result(1, { content: [{ type: "text", text: "3" }] }) },
      // Again with the same fields and headers (their text is reused), a string id.
      { method: "tools/call", id: "two", params: { name: "add", arguments: { a: 2, b: 2 } }, stubId: "stub-1", ...result("two", { content: [{ type: "text", text: "4" }] }) },
      // Pretty-printed JSON, text beyond ASCII, other headers, another stub.
      {
        method: "tools/call",
        id: 3,
        params: { name: "greet", arguments: { who: "Zoë 🌍", nul: "a\u0000b" } },
        body: `{\n  "jsonrpc": "2.0", "id": 3, "method": "tools/call",\n  "params": {"name": "greet", "arguments": {"who": "Zoë 🌍", "nul": "a\\u0000b"}}\n}`,
        headers: { "content-type": "application/json", "x-name": "Zoë" },
        stubId: "stub-2",
        ...result(3, { content: [{ type: "text", text: "héllo\u0000" }] }),
      },
      // A batch's message: its body is the whole batch, so its params are kept instead.
      { method: "ping", id: 4, body: `[{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"2.0","id":5,"method":"ping"}]`, stubId: "default:ping", answer: { jsonrpc: "2.0", id: 4, result: {} } },
      // An answer without its result's JSON, an error, a raw status, no answer at all.
      { method: "resources/read", id: 6, params: { uri: "file:///a" }, stubId: "stub-3", answer: { jsonrpc: "2.0", id: 6, error: { code: -32002, message: "Resource not found" } } },
      { method: "tools/list", id: 7, stubId: "stub-4", answer: { status: 503 } },
      { method: "notifications/initialized" },
      // A client's response to a server request, with and without the method it answers.
      { kind: "response", method: "elicitation/create", id: 8, params: { jsonrpc: "2.0", id: 8, result: { action: "accept" } } },
      { kind: "response", method: "roots/list", id: 9, params: { jsonrpc: "2.0", id: 9, result: { roots: [] } }, noCall: true },
    ];
    const answered = journalOf(journal, messages);
    expect(journal.entries().map(view)).toEqual(answered);
    // Read again: the same objects (kept unpacked once read).
    expect(journal.entries()[0]).toBe(journal.entries()[0]);
  });

  test("a proxied entry is packed like any other, and reads back proxied, with the upstream's answer and time", () => {
    const journal = new Journal();
    const recorded: JournalEntry[] = [];
    const off = journal.onRecord((entry) => recorded.push(entry));
    const upstream = { answer: { result: { content: [{ type: "text", text: "from upstream" }] } }, durationMs: 12 };
    const answered = journalOf(journal, [
      { method: "tools/call", id: 1, params: { name: "real" }, stubId: "default:proxy", ...result(1, { content: [{ type: "text", text: "from upstream" }] }), upstream },
      { method: "tools/call", id: 2, params: { name: "real" }, stubId: "default:proxy", answer: { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "down" } }, upstream: { answer: { error: { code: -32603, message: "down" } }, durationMs: 3 } },
      { method: "tools/call", id: 3, params: { name: "local" }, stubId: "stub-1", ...result(3, { content: [] }) },
    ]);
    off();
    const entries = journal.entries();
    // Packed: what is read back is a new object, not the one recorded.
    expect(entries.map((entry, i) => entry === recorded[i])).toEqual([false, false, false]);
    expect(entries.map(view)).toEqual(answered);
    expect(entries.map((e) => [e.proxied, e.upstream?.durationMs])).toEqual([
      [true, 12],
      [true, 3],
      [undefined, undefined],
    ]);
    expect(entries[0]?.upstream?.answer).toEqual(upstream.answer);
    expect("proxied" in (entries[2] as object)).toBe(false);
  });

  test("a proxied entry whose answer passes the upstream's result on keeps one JSON for both; a transformed one keeps the upstream's own", () => {
    const journal = new Journal();
    const value = { content: [{ type: "text", text: "from upstream" }] };
    // The packer takes the answer's JSON as the result's (a marker shows which text was kept).
    const passedOn = { answer: { jsonrpc: "2.0", id: 1, result: value }, resultJson: '{"kept":"the answer\'s JSON"}', upstream: { answer: { result: value }, durationMs: 4 } };
    const transformed = { ...result(2, { content: [] }), upstream: { answer: { result: value }, durationMs: 6 } };
    journalOf(journal, [
      { method: "tools/call", id: 1, params: { name: "real" }, stubId: "default:proxy", ...passedOn },
      { method: "tools/call", id: 2, params: { name: "real" }, stubId: "default:proxy", ...transformed },
    ]);
    const [first, second] = journal.entries();
    expect(first?.answer).toEqual({ jsonrpc: "2.0", id: 1, result: { kept: "the answer's JSON" } });
    expect(first?.upstream).toEqual({ answer: { result: { kept: "the answer's JSON" } }, durationMs: 4 });
    expect(second?.answer).toEqual({ jsonrpc: "2.0", id: 2, result: { content: [] } });
    expect(second?.upstream).toEqual({ answer: { result: value }, durationMs: 6 });
  });

  test("a proxied entry's upstream answer counts against the byte budget, like its answer", () => {
    const text = "u".repeat(400);
    const upstream = { answer: { result: { content: [{ type: "text", text }] } }, durationMs: 5 };
    const call = (id: number, proxied: boolean): Message => ({ method: "tools/call", id, params: { name: "real" }, stubId: "default:proxy", ...result(id, { content: [{ type: "text", text }] }), ...(proxied ? { upstream } : {}) });
    const plain = new Journal();
    journalOf(plain, [call(1, false)]);
    const proxied = new Journal();
    journalOf(proxied, [call(1, true)]);
    expect(proxied.bytes - plain.bytes).toBe(approxJsonBytes(upstream.answer));
    // Under a budget that holds one such entry's message and answer but not its upstream answer too, the older one is dropped.
    const budget = plain.bytes + 100;
    const bounded = new Journal(10, budget);
    journalOf(bounded, [call(1, true), call(2, true)]);
    expect(bounded.entries().map((e) => [e.id, e.proxied])).toEqual([[2, true]]);
    expect(bounded.bytes).toBeLessThanOrEqual(Math.max(budget, proxied.bytes));
    // An upstream answer larger than the whole budget is kept as its size.
    const small = new Journal(10, 300);
    journalOf(small, [{ method: "ping", id: 1, stubId: "default:proxy", answer: { jsonrpc: "2.0", id: 1, result: {} }, upstream }]);
    expect(small.entries()[0]?.upstream).toEqual({ answer: { truncated: true, bytes: approxJsonBytes(upstream.answer) }, durationMs: 5 });
  });

  test("an answer JSON has no form for stays an object, and a miss is kept with its report", () => {
    const journal = new Journal();
    journalOf(journal, [
      { method: "tools/call", id: 1, params: { name: "big" }, stubId: "stub-1", answer: { jsonrpc: "2.0", id: 1, result: { n: 10n } } },
      { method: "tools/call", id: 2, params: { name: "nope" }, answer: { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "no stub" } }, miss: "nothing matched" },
    ]);
    const [big, miss] = journal.entries();
    expect((big?.answer as { result: { n: bigint } }).result.n).toBe(10n);
    expect(miss).toMatchObject({ unmatched: true, missReport: "nothing matched", params: { name: "nope" } });
  });

  test("entries across many chunks, one larger than a chunk, come back in order; clear() starts again", () => {
    const journal = new Journal(100_000, 64 * 1024 * 1024);
    const big = "x".repeat(3 * 1024 * 1024);
    const messages: Message[] = Array.from({ length: 5000 }, (_, i) => ({
      method: "tools/call",
      id: i,
      params: { name: "echo", arguments: { text: i === 2500 ? big : `message ${i}` } },
      stubId: `stub-${i % 3}`,
      ...result(i, { content: [{ type: "text", text: String(i) }] }),
    }));
    const answered = journalOf(journal, messages);
    const read = journal.entries();
    expect(read).toHaveLength(5000);
    expect(read.map(view)).toEqual(answered);
    journal.clear();
    journalOf(journal, messages.slice(0, 2));
    expect(journal.entries().map((e) => e.id)).toEqual([0, 1]);
  });

  test("a chunk is filled again once its entries are dropped or read, and what is kept reads back right", () => {
    const journal = new Journal(3000);
    const message = (i: number): Message => ({
      method: "tools/call",
      id: i,
      params: { name: "echo", arguments: { text: `message ${i} `.repeat(i % 7 === 0 ? 200 : 20) } },
      // Runs of entries with the same fields (their prefix written once), across chunks.
      stubId: `stub-${Math.floor(i / 5) % 2}`,
      ...result(i, { content: [{ type: "text", text: String(i) }] }),
    });
    let answered: unknown[] = [];
    for (let i = 0; i < 20_000; i++) {
      answered.push(...journalOf(journal, [message(i)]));
      // Now and then a read: the entries read are objects again, and their chunk's count goes down.
      if (i % 3001 === 0) expect(journal.entries().map(view)).toEqual(answered.slice(-3000));
      answered = answered.slice(-3000);
    }
    expect(journal.entries().map(view)).toEqual(answered);
  });

  test("a chunk still holding kept entries is not filled again, when new entries outgrow the ones dropped", () => {
    const journal = new Journal(1000);
    const message = (i: number, size: number): Message => ({ method: "tools/call", id: i, params: { name: "echo", arguments: { text: "z".repeat(size) } }, stubId: "stub-1", ...result(i, {}) });
    // A thousand small entries in one chunk, then large ones: each drops a small one, and fills a chunk in a few dozen.
    const answered = journalOf(journal, Array.from({ length: 1000 }, (_, i) => message(i, 700)));
    answered.push(...journalOf(journal, Array.from({ length: 200 }, (_, i) => message(1000 + i, 30_000))));
    expect(journal.entries().map(view)).toEqual(answered.slice(-1000));
  });

  test("a large entry takes a buffer of its size, not of the three bytes a character UTF-8 might need", () => {
    const journal = new Journal();
    const [answered] = journalOf(journal, [{ method: "tools/call", id: 1, params: { name: "echo", arguments: { text: "w".repeat(4 * 1024 * 1024) } }, stubId: "stub-1", ...result(1, {}) }]);
    const entry = journal.entries()[0] as JournalEntry;
    expect(view(entry)).toEqual(answered);
    // Packed again on its own, by the packer the journal uses: the buffer it lands in.
    const packer = new EntryPacker();
    expect(packer.pack(entry, entry.call?.body, "{}")).toBe(0);
    expect(packer.chunk.bytes.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(packer.chunk.bytes.length).toBeLessThan(4 * 1024 * 1024 + 4096);
  });

  test("after clear(), the first entry writes its fields and headers again, though they are the last ones", () => {
    const journal = new Journal();
    const same = (i: number): Message => ({ method: "tools/call", id: i, params: { name: "add" }, stubId: "stub-1", ...result(i, {}) });
    journalOf(journal, [same(1), same(2), same(3)]);
    journal.clear();
    const answered = journalOf(journal, [same(4), same(5)]);
    expect(journal.entries().map(view)).toEqual(answered);
  });

  test("a message over the byte budget keeps its key and counts as truncated until dropped", () => {
    const journal = new Journal(2, 1000);
    const answered = journalOf(journal, [{ method: "tools/call", id: 1, params: { name: "add", arguments: { text: "y".repeat(5000) } }, stubId: "stub-1", ...result(1, {}) }]);
    expect(journal.entries().map(view)).toEqual(answered);
    expect(journal.entries()[0]).toMatchObject({ params: { name: "add" }, truncated: { bytes: expect.any(Number) } });
    expect(journal.truncatedCount).toBe(1);
    journalOf(journal, [{ method: "ping", id: 2 }, { method: "ping", id: 3 }]);
    expect(journal.truncatedCount).toBe(0);
  });
});
