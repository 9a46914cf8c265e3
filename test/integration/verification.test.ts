/**
 * Verification, driven the way users meet it: the real SDK clients (v1 and v2) call the mock
 * over HTTP, then the test asks the mock what happened (verify, findRequests, waitFor,
 * verifyInOrder, unmatched, assertAllStubsUsed, reset, the journal bound, onUnmatched).
 */
import { describe, expect, test } from "vitest";
import {
  ANY,
  McpMock,
  McpMockError,
  VerificationError,
  atLeast,
  atMost,
  exactly,
  initialize,
  method,
  never,
  ping,
  toolsCall,
  toolsList,
  type JournalEntry,
  type McpMockOptions,
} from "../../src/index.js";
import { CLIENT_KINDS, connect, textOf, type ClientKind, type TestClient } from "../support/clients.js";
import { startWithClient } from "../support/setup.js";
import { addTool } from "../support/tools.js";

const tools = [
  addTool,
  { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
] as const;

/** A mock with the tools above and one connected client; both closed at the end of the scope. */
const setup = (kind: ClientKind = "v1", options: McpMockOptions<typeof tools> = {}) => startWithClient({ tools, ...options }, (url) => connect(kind, url));

/** What `fn` throws (fails the test when it does not throw). */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw, but nothing was thrown");
}

describe.each(CLIENT_KINDS)("verify with the %s client", (kind) => {
  test("verify(pattern) passes when a matching request arrived, and returns the matching entries", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    const entries = ctx.mock.verify(toolsCall("add").withArgs({ a: 1, b: 2 }));
    expect(entries).toHaveLength(1);
    expect(entries[0]?.params).toEqual({ name: "add", arguments: { a: 1, b: 2 } });
    // key order is free, as for stubs
    ctx.mock.verify(toolsCall("add").withArgs({ b: 2, a: 1 }));
    ctx.mock.verify(toolsCall("add").withArgsMatching({ a: 1 }));
    ctx.mock.verify(toolsCall("add").withArgsMatching((args) => args["b"] === 2));
    ctx.mock.verify(toolsCall().withArgs(ANY));
    ctx.mock.verify(toolsCall("add").withSessionId("session-1"));
    ctx.mock.verify(toolsCall("add").withHeader("mcp-protocol-version", "2025-11-25"));
    ctx.mock.verify(toolsCall("add").withProtocolVersion("2025-11-25"));
    ctx.mock.verify(toolsCall("add").withBodyContaining('"a":1'));
    // what the client sent by itself
    ctx.mock.verify(initialize(), 1);
    ctx.mock.verify(method("notifications/initialized"), 1);
  });

  test("verify(pattern) fails when no matching request arrived", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    await ctx.client.callTool("add", { a: 1, b: 3 });
    expect(() => ctx.mock.verify(toolsCall("add").withArgs({ a: 1, b: 2 }))).toThrow(VerificationError);
    expect(() => ctx.mock.verify(toolsCall("echo"))).toThrow(/Expected tools\/call "echo" at least once, but received it never/);
    expect(() => ctx.mock.verify(toolsCall("add").withSessionId("session-9"))).toThrow(VerificationError);
    expect(() => ctx.mock.verify(toolsCall("add").withProtocolVersion("2025-03-26"))).toThrow(VerificationError);
  });

  test("verify(pattern, n) checks an exact count", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    await ctx.client.callTool("add", { a: 5, b: 5 });
    expect(ctx.mock.verify(toolsCall("add").withArgs({ a: 1, b: 2 }), 2)).toHaveLength(2);
    expect(ctx.mock.verify(toolsCall("add"), 3)).toHaveLength(3);
    expect(ctx.mock.verify(toolsCall("echo"), 0)).toEqual([]);
    const error = thrown(() => ctx.mock.verify(toolsCall("add").withArgs({ a: 1, b: 2 }), 1));
    expect(error).toBeInstanceOf(VerificationError);
    expect(error.message).toMatch(/^\[mcpmock\] Expected tools\/call "add" with arguments equal to \{"a":1,"b":2\} exactly once, but received it twice\./);
    expect(error.message).toContain("Matching requests:");
    expect(() => ctx.mock.verify(toolsCall("add"), 4)).toThrow(/exactly 4 times, but received it 3 times/);
  });
});

describe("count helpers", () => {
  async function threeCalls() {
    const ctx = await setup("v2");
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    for (let i = 0; i < 3; i++) await ctx.client.callTool("add", { a: i, b: i });
    return ctx;
  }

  test("exactly(n) passes on n and fails on any other count", async () => {
    await using ctx = await threeCalls();
    expect(ctx.mock.verify(toolsCall("add"), exactly(3))).toHaveLength(3);
    expect(() => ctx.mock.verify(toolsCall("add"), exactly(2))).toThrow(/exactly twice, but received it 3 times/);
    expect(() => ctx.mock.verify(toolsCall("add"), exactly(4))).toThrow(/exactly 4 times, but received it 3 times/);
    expect(() => ctx.mock.verify(toolsCall("add"), exactly(0))).toThrow(/ never, but received it 3 times/);
  });

  test("atLeast(n) passes on n or more and fails below", async () => {
    await using ctx = await threeCalls();
    ctx.mock.verify(toolsCall("add"), atLeast(1));
    ctx.mock.verify(toolsCall("add"), atLeast(3));
    ctx.mock.verify(toolsCall("echo"), atLeast(0));
    expect(() => ctx.mock.verify(toolsCall("add"), atLeast(4))).toThrow(/at least 4 times, but received it 3 times/);
    expect(() => ctx.mock.verify(toolsCall("echo"), atLeast(1))).toThrow(/at least once, but received it never/);
  });

  test("atMost(n) passes on n or fewer and fails above", async () => {
    await using ctx = await threeCalls();
    ctx.mock.verify(toolsCall("add"), atMost(3));
    ctx.mock.verify(toolsCall("add"), atMost(10));
    ctx.mock.verify(toolsCall("echo"), atMost(0));
    expect(() => ctx.mock.verify(toolsCall("add"), atMost(2))).toThrow(/at most twice, but received it 3 times/);
    expect(() => ctx.mock.verify(toolsCall("add"), atMost(0))).toThrow(VerificationError);
  });

  test("never() passes on zero and fails on one", async () => {
    await using ctx = await threeCalls();
    expect(ctx.mock.verify(toolsCall("echo"), never())).toEqual([]);
    expect(ctx.mock.verify(toolsCall("add").withArgs({ a: 9, b: 9 }), never())).toEqual([]);
    const error = thrown(() => ctx.mock.verify(toolsCall("add").withArgs({ a: 0, b: 0 }), never()));
    expect(error).toBeInstanceOf(VerificationError);
    expect(error.message).toContain("never, but received it once");
    expect(error.message).toContain('#3 tools/call "add" {"a":0,"b":0} in session-1');
  });

  test("helpers and verify reject counts that are not whole numbers", async () => {
    await using ctx = await threeCalls();
    expect(() => exactly(-1)).toThrow(McpMockError);
    expect(() => atLeast(1.5)).toThrow(/atLeast\(1\.5\): the count must be a whole number/);
    expect(() => atMost(Number.NaN)).toThrow(/atMost\(NaN\)/);
    // A count given as JSON (1e400 in a definition or an admin request) reads as written, not as JSON's null.
    expect(() => exactly(Number.POSITIVE_INFINITY)).toThrow(/exactly\(Infinity\): the count must be a whole number/);
    expect(() => ctx.mock.verify(toolsCall("add"), -2)).toThrow(/exactly\(-2\)/);
    expect(() => ctx.mock.verify(toolsCall("add"), { description: "x" } as never)).toThrow(/verify takes a count/);
    expect(() => ctx.mock.verify({ method: "tools/call" } as never)).toThrow(/verify takes a pattern like toolsCall/);
  });
});

describe("patterns", () => {
  test("a partial chain from the mock is reused as the pattern to verify", async () => {
    await using ctx = await setup("v1");
    const p = ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 });
    const stub = p.respondsWith({ sum: 3 });
    expect(() => ctx.mock.verify(p)).toThrow(VerificationError);
    const result = await ctx.client.callTool("add", { a: 1, b: 2 });
    expect(textOf(result)).toBe('{"sum":3}');
    expect(ctx.mock.verify(p)).toHaveLength(1);
    expect(ctx.mock.verify(p, exactly(1))[0]?.stubId).toBe(stub.id);
    // the terminal did not change the chain: a narrower chain built from it is its own pattern
    ctx.mock.verify(p.withSessionId("session-1"));
    ctx.mock.verify(p.withSessionId("session-2"), never());
  });

  test("patterns from the standalone factories for ping, tools/list, initialize and any method", async () => {
    await using ctx = await setup("v2");
    await ctx.client.ping();
    await ctx.client.listTools();
    ctx.mock.method("custom/thing").withParams({ id: 7 }).respondsWith({ ok: true });
    await ctx.client.request("custom/thing", { id: 7 });
    ctx.mock.verify(ping(), 1);
    ctx.mock.verify(toolsList(), exactly(1));
    ctx.mock.verify(initialize().withBodyContaining("mcpmock-test"));
    ctx.mock.verify(method("custom/thing").withParams({ id: 7 }), 1);
    ctx.mock.verify(method("custom/thing").withParamsMatching({ id: 7 }));
    ctx.mock.verify(method("custom/thing").withParams((params) => params["id"] === 7));
    ctx.mock.verify(method("custom/thing").withParams({ id: 8 }), never());
    expect(() => ctx.mock.verify(method("custom/other"))).toThrow(/Expected custom\/other at least once/);
  });
});

describe.each(CLIENT_KINDS)("the journal with the %s client", (kind) => {
  test("findRequests returns the journal entries with params, session, headers, version, stub, answer and duration", async () => {
    await using ctx = await setup(kind);
    const stub = ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    await ctx.client.callTool("add", { a: 2, b: 2 });
    const found = ctx.mock.findRequests(toolsCall("add").withArgs({ a: 1, b: 2 }));
    expect(found).toHaveLength(1);
    const entry = found[0] as JournalEntry;
    expect(entry).toMatchObject({
      kind: "request",
      method: "tools/call",
      params: { name: "add", arguments: { a: 1, b: 2 } },
      sessionId: "session-1",
      protocolVersion: "2025-11-25",
      transport: "http",
      stubId: stub.id,
      unmatched: false,
      missReport: undefined,
    });
    expect(entry.headers["mcp-session-id"]).toBe("session-1");
    expect(entry.headers["mcp-protocol-version"]).toBe("2025-11-25");
    expect(entry.headers["content-type"]).toBe("application/json");
    expect(entry.answer).toEqual({ jsonrpc: "2.0", id: entry.id, result: { content: [{ type: "text", text: '{"sum":3}' }] } });
    expect(typeof entry.durationMs).toBe("number");
    expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    expect(entry.durationMs).toBeLessThan(1000);
    expect(entry.call?.args).toEqual({ a: 1, b: 2 });
    expect(ctx.mock.findRequests(toolsCall("add"))).toHaveLength(2);
    expect(ctx.mock.findRequests(toolsCall("echo"))).toEqual([]);
  });

  test("requests() lists every message kept, oldest first, with sequence numbers", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    await ctx.client.listTools();
    await ctx.client.callTool("add", { a: 1, b: 2 });
    const all = ctx.mock.requests();
    expect(all.map((e) => [e.seq, e.kind, e.method, e.stubId])).toEqual([
      [1, "request", "initialize", "default:initialize"],
      [2, "notification", "notifications/initialized", undefined],
      [3, "request", "tools/list", "default:tools/list"],
      [4, "request", "tools/call", "stub-1"],
    ]);
    expect(all[0]?.sessionId).toBeUndefined(); // initialize carries no session id yet
    expect(all[3]?.sessionId).toBe("session-1");
  });
});

describe("waitFor", () => {
  // Node fires a timer past 2^31 - 1 ms after 1 ms: waitFor timed out at once (with a
  // TimeoutOverflowWarning on stderr) instead of waiting.
  test("a timeout longer than a timer holds is refused", async () => {
    await using ctx = await setup("v1");
    expect(() => ctx.mock.waitFor(toolsCall("add"), { timeout: 3e9 })).toThrow(
      "[mcpmock] waitFor: timeout is at most 2147483647 ms (about 24.8 days, the longest a timer holds), received 3000000000.",
    );
  });

  test("resolves at once for a request already received", async () => {
    await using ctx = await setup("v1");
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    const started = performance.now();
    const entry = await ctx.mock.waitFor(toolsCall("add").withArgs({ a: 1, b: 2 }), { timeout: 5000 });
    expect(performance.now() - started).toBeLessThan(100);
    expect(entry.params).toEqual({ name: "add", arguments: { a: 1, b: 2 } });
  });

  // Guards that waitFor resolves when the request arrives, not when it is answered: the
  // (delayed) answer is not there yet, and the same entry gets it later.
  test.each(CLIENT_KINDS)("resolves for a request that arrives later, on arrival (%s client)", async (kind) => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("add").withArgs(ANY).withDelay(50).respondsWith({ sum: 0 });
    const pattern = toolsCall("add").withArgs({ a: 4, b: 5 });
    const call = ctx.client.callTool("add", { a: 4, b: 5 }); // not awaited yet
    expect(ctx.mock.findRequests(pattern)).toEqual([]); // nothing has arrived when waitFor starts
    const entry = await ctx.mock.waitFor(pattern, { timeout: 3000 });
    expect(entry.params).toEqual({ name: "add", arguments: { a: 4, b: 5 } });
    expect([entry.answer, entry.durationMs]).toEqual([undefined, undefined]); // resolved before the answer was ready
    expect(textOf(await call)).toBe('{"sum":0}');
    expect(entry.answer).toEqual({ jsonrpc: "2.0", id: entry.id, result: { content: [{ type: "text", text: '{"sum":0}' }] } });
    expect(entry.durationMs).toBeGreaterThanOrEqual(45);
  });

  test("rejects after a short timeout, with the near miss in the message", async () => {
    await using ctx = await setup("v2");
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    await ctx.client.callTool("add", { a: 1, b: 3 });
    const started = performance.now();
    const error = await ctx.mock.waitFor(toolsCall("add").withArgs({ a: 1, b: 2 }), { timeout: 100 }).then(
      () => undefined,
      (e: unknown) => e as VerificationError,
    );
    const took = performance.now() - started;
    expect(error).toBeInstanceOf(VerificationError);
    expect(took).toBeGreaterThanOrEqual(95);
    expect(took).toBeLessThan(1000);
    expect(error?.message).toMatch(/^\[mcpmock\] waitFor timed out after 100 ms\. Expected tools\/call "add" with arguments equal to \{"a":1,"b":2\} at least once/);
    expect(error?.message).toContain('1. #3 tools/call "add" {"a":1,"b":3} in session-1');
    expect(error?.message).toMatch(/args\.b: 2 +\| args\.b: 3 +<<<<< arguments do not match/);
    expect(error?.expected).toContain("args.b: 2");
    expect(error?.actual).toContain("args.b: 3");
  });

  test("rejects when the mock closes before such a request arrives", async () => {
    const mock = await McpMock.start({ tools });
    const waiting = mock.waitFor(toolsCall("add"), { timeout: 5000 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    await mock.close();
    const error = await waiting;
    expect(error).toBeInstanceOf(McpMockError);
    expect(error?.message).toBe('[mcpmock] waitFor(tools/call "add"): the mock closed before such a request arrived.');
  });

  test("rejects a negative timeout and a non-pattern at the call", async () => {
    await using ctx = await setup("v1");
    expect(() => ctx.mock.waitFor(toolsCall("add"), { timeout: -1 })).toThrow(/timeout is milliseconds/);
    expect(() => ctx.mock.waitFor("add" as never)).toThrow(/waitFor takes a pattern/);
  });
});

describe("verifyInOrder", () => {
  test("passes when the requests came in this order, others between", async () => {
    await using ctx = await setup("v1");
    ctx.mock.toolsCall().withArgs(ANY).respondsWith("ok");
    await ctx.client.listTools();
    await ctx.client.callTool("echo", { text: "hi" });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    const found = ctx.mock.verifyInOrder(initialize(), toolsList(), toolsCall("add"));
    expect(found.map((e) => e.method)).toEqual(["initialize", "tools/list", "tools/call"]);
    ctx.mock.verifyInOrder(toolsCall("echo"), toolsCall("add"));
    ctx.mock.verifyInOrder(); // nothing to check
  });

  test("fails when a request was never received", async () => {
    await using ctx = await setup("v2");
    ctx.mock.toolsCall().withArgs(ANY).respondsWith("ok");
    await ctx.client.listTools();
    await ctx.client.callTool("add", { a: 1, b: 2 });
    const error = thrown(() => ctx.mock.verifyInOrder(toolsList(), toolsCall("echo"), toolsCall("add")));
    expect(error).toBeInstanceOf(VerificationError);
    // each pattern is marked at the start of its line: ✓ found (with the request), ✗ the first missing one, blank after it
    expect(error.message).toContain(
      [
        "[mcpmock] Expected these requests in this order:",
        "  ✓ 1. tools/list   (#3 tools/list in session-1)",
        '  ✗ 2. tools/call "echo"',
        '    3. tools/call "add"',
        "Request 2 was never received after #3 tools/list in session-1.",
      ].join("\n"),
    );
  });

  test("fails when the requests came in another order", async () => {
    await using ctx = await setup("v1");
    ctx.mock.toolsCall().withArgs(ANY).respondsWith("ok");
    await ctx.client.callTool("add", { a: 1, b: 2 });
    await ctx.client.listTools();
    const error = thrown(() => ctx.mock.verifyInOrder(toolsList(), toolsCall("add")));
    expect(error).toBeInstanceOf(VerificationError);
    expect(error.message).toContain('  ✗ 2. tools/call "add"\n');
    expect(error.message).toContain('Request 2 was received (#3 tools/call "add" {"a":1,"b":2} in session-1), but before #4 tools/list in session-1, not after it.');
    ctx.mock.verifyInOrder(toolsCall("add"), toolsList());
  });

  test("the same pattern twice needs two matching requests", async () => {
    await using ctx = await setup("v2");
    ctx.mock.toolsCall().withArgs(ANY).respondsWith("ok");
    await ctx.client.callTool("add", { a: 1, b: 2 });
    expect(() => ctx.mock.verifyInOrder(toolsCall("add"), toolsCall("add"))).toThrow(VerificationError);
    await ctx.client.callTool("add", { a: 1, b: 2 });
    expect(ctx.mock.verifyInOrder(toolsCall("add"), toolsCall("add")).map((e) => e.seq)).toEqual([3, 4]);
  });

  // When the missing request's only match was used by an earlier pattern, the report says it
  // was never received after that request (it once said "was received (#3 ...), but not after
  // #3 ...", naming the same entry twice).
  test("a pattern whose only match was used by an earlier pattern is reported as never received", async () => {
    await using ctx = await setup("v1");
    ctx.mock.toolsCall().withArgs(ANY).respondsWith("ok");
    await ctx.client.callTool("add", { a: 1, b: 2 });
    const error = thrown(() => ctx.mock.verifyInOrder(toolsCall("add"), toolsCall("add")));
    expect(error).toBeInstanceOf(VerificationError);
    expect(error.message).not.toContain("was received");
    expect(error.message).toContain(
      [
        '  ✓ 1. tools/call "add"   (#3 tools/call "add" {"a":1,"b":2} in session-1)',
        '  ✗ 2. tools/call "add"',
        'Request 2 was never received after #3 tools/call "add" {"a":1,"b":2} in session-1.',
      ].join("\n"),
    );
  });
});

describe("unmatched requests", () => {
  test("unmatched() lists the requests no stub answered, with the report the client got", async () => {
    await using ctx = await setup("v1", { onUnmatched: "silent" });
    ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    expect(ctx.mock.unmatched()).toEqual([]);
    const result = await ctx.client.callTool("add", { a: 9, b: 9 });
    expect(result["isError"]).toBe(true);
    const unmatched = ctx.mock.unmatched();
    expect(unmatched).toHaveLength(1);
    expect(unmatched[0]).toMatchObject({ method: "tools/call", params: { name: "add", arguments: { a: 9, b: 9 } }, unmatched: true, stubId: undefined });
    expect(unmatched[0]?.missReport).toBe(textOf(result));
    expect(unmatched[0]?.missReport).toContain('No stub answers tools/call "add" with arguments {"a":9,"b":9}');
    // a method nobody stubbed is unmatched too
    await ctx.client.request("custom/nothing", {}).catch(() => undefined);
    expect(ctx.mock.unmatched().map((e) => e.method)).toEqual(["tools/call", "custom/nothing"]);
  });

  test("assertNoUnmatched() passes without misses and throws every miss report otherwise", async () => {
    await using ctx = await setup("v2", { onUnmatched: "silent" });
    ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    ctx.mock.assertNoUnmatched();
    await ctx.client.callTool("add", { a: 9, b: 9 });
    const error = thrown(() => ctx.mock.assertNoUnmatched());
    expect(error).toBeInstanceOf(McpMockError);
    expect(error.message).toMatch(/^\[mcpmock\] 1 request\(s\) matched no stub:/);
    expect(error.message).toContain('#4 tools/call "add" {"a":9,"b":9} in session-1');
    expect(error.message).toContain(ctx.mock.unmatched()[0]?.missReport ?? "(no report)");
  });
});

describe("assertAllStubsUsed", () => {
  test("passes when every stub was called", async () => {
    await using ctx = await setup("v1");
    ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    ctx.mock.assertAllStubsUsed();
  });

  test("fails listing each unused stub as a sentence", async () => {
    await using ctx = await setup("v1");
    ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    const unused = ctx.mock.toolsCall("echo").withArgs({ text: "hi" }).respondsWith("hi");
    await ctx.client.callTool("add", { a: 1, b: 2 });
    const error = thrown(() => ctx.mock.assertAllStubsUsed());
    expect(error).toBeInstanceOf(McpMockError);
    expect(error.message).toBe(
      [
        "[mcpmock] 1 stub(s) were not used:",
        `  ${unused.id}: tools/call "echo" with arguments equal to {"text":"hi"} → text "hi" (seen 0)`,
        "Mark a stub .optional() if the test does not need it called.",
      ].join("\n"),
    );
  });

  test("skips optional() stubs and the built-in answers", async () => {
    await using ctx = await setup("v2");
    ctx.mock.toolsCall("echo").optional().respondsWith("maybe");
    // nothing called ping, tools/list or server/discover: their built-in stubs do not count
    expect(ctx.mock.explain().some((line) => line.startsWith("default:ping"))).toBe(true);
    ctx.mock.assertAllStubsUsed();
  });

  test("a times(2) stub used once is still pending", async () => {
    await using ctx = await setup("v1");
    const twice = ctx.mock.toolsCall("add").times(2).respondsWith({ sum: 0 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    expect(twice.isPending()).toBe(true);
    expect(() => ctx.mock.assertAllStubsUsed()).toThrow(/tools\/call "add" → \{"sum":0\}, 2 times \(seen 1\)/);
    await ctx.client.callTool("add", { a: 1, b: 2 });
    expect(twice.isPending()).toBe(false);
    ctx.mock.assertAllStubsUsed();
  });
});

describe("reset", () => {
  test("reset() removes the stubs, clears the journal and keeps the built-in answers", async () => {
    await using ctx = await setup("v1", { onUnmatched: "silent" });
    const stub = ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    expect(stub.calls()).toBe(1);
    ctx.mock.reset();
    expect(ctx.mock.requests()).toEqual([]);
    ctx.mock.verify(toolsCall("add"), never());
    expect(stub.calls()).toBe(0);
    expect(stub.toString()).toBe(`${stub.id} (removed)`);
    const result = await ctx.client.callTool("add", { a: 1, b: 2 });
    expect(result["isError"]).toBe(true);
    expect(textOf(result)).toContain('Nothing is stubbed for "add" yet.');
    expect(await ctx.client.ping()).toEqual({}); // built-in answers stay, the session too
    expect(ctx.mock.requests().map((e) => e.method)).toEqual(["tools/call", "ping"]);
    ctx.mock.assertAllStubsUsed(); // no user stubs left
  });

  test("resetJournal() clears the journal only: stubs and their counts stay", async () => {
    await using ctx = await setup("v2");
    const stub = ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    ctx.mock.resetJournal();
    expect(ctx.mock.requests()).toEqual([]);
    ctx.mock.verify(toolsCall("add"), never());
    expect(stub.calls()).toBe(1);
    await ctx.client.callTool("add", { a: 3, b: 4 });
    expect(stub.calls()).toBe(2);
    const entries = ctx.mock.verify(toolsCall("add"), 1);
    expect(entries[0]?.params).toEqual({ name: "add", arguments: { a: 3, b: 4 } });
    // sequence numbers keep counting across the reset
    expect(entries[0]?.seq).toBe(4);
  });
});

describe("the journal bound", () => {
  test("journalSize: 5 keeps the last five entries; verify counts only the kept ones", async () => {
    await using ctx = await setup("v1", { journalSize: 5 });
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    // initialize and notifications/initialized are entries 1 and 2
    for (let i = 1; i <= 6; i++) await ctx.client.callTool("add", { a: i, b: i });
    const kept = ctx.mock.requests();
    expect(kept.map((e) => e.seq)).toEqual([4, 5, 6, 7, 8]);
    expect(kept.map((e) => e.call?.args["a"])).toEqual([2, 3, 4, 5, 6]);
    // Observed: six calls to "add" arrived, but verify sees only the five kept entries.
    expect(ctx.mock.verify(toolsCall("add"), 5)).toHaveLength(5);
    ctx.mock.verify(toolsCall("add").withArgs({ a: 1, b: 1 }), never()); // dropped, so "never"
    ctx.mock.verify(initialize(), never());
    const error = thrown(() => ctx.mock.verify(toolsCall("add"), 6));
    // ...while the report's total counts every message that arrived.
    expect(error.message).toContain("exactly 6 times, but received it 5 times.");
    expect(error.message).toContain("Requests received in all: 8.");
    // ...and the report says why the two differ
    expect(error.message.endsWith("Requests received in all: 8.\nThe journal keeps the last 5 (journalSize, journalBytes); verification sees only those.")).toBe(true);
    // a failure with no match says it too, before pointing at mock.requests()
    const missing = thrown(() => ctx.mock.verify(toolsCall("echo")));
    expect(missing.message).toContain("The journal keeps the last 5 (journalSize, journalBytes); verification sees only those.");
    expect(missing.message).toContain("To see everything received: mock.requests().");
  });

  test("while nothing was dropped, a failed verify does not mention the journal size", async () => {
    await using ctx = await setup("v1", { journalSize: 5 });
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    await ctx.client.callTool("add", { a: 1, b: 1 });
    const error = thrown(() => ctx.mock.verify(toolsCall("echo")));
    expect(error.message).toContain("Requests received in all: 3.");
    expect(error.message).not.toContain("journalSize");
    expect(error.message).toContain("To see everything received: mock.requests().");
  });
});

describe("onUnmatched", () => {
  test('"silent" reports nothing, and the client still gets the miss answer', async () => {
    const writes: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      writes.push(String(chunk));
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      await using ctx = await setup("v1", { onUnmatched: "silent" });
      const result = await ctx.client.callTool("add", { a: 1, b: 2 });
      expect(result["isError"]).toBe(true);
      expect(ctx.mock.unmatched()).toHaveLength(1);
    } finally {
      process.stderr.write = original;
    }
    expect(writes.filter((w) => w.includes("No stub answers"))).toEqual([]);
  });

  test("the default (warn) prints the miss report on stderr, through console.warn", async () => {
    const writes: string[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void writes.push(args.map(String).join(" "));
    try {
      await using ctx = await setup("v2");
      await ctx.client.callTool("add", { a: 1, b: 2 });
    } finally {
      console.warn = original;
    }
    expect(writes.join("")).toContain('[mcpmock] No stub answers tools/call "add" with arguments {"a":1,"b":2}.');
  });

  test("a function receives the journal entry and the report", async () => {
    const seen: Array<{ entry: JournalEntry; report: string }> = [];
    await using ctx = await setup("v2", { onUnmatched: (entry, report) => seen.push({ entry, report }) });
    ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    expect(seen).toEqual([]);
    const result = await ctx.client.callTool("add", { a: 2, b: 2 });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.entry).toBe(ctx.mock.unmatched()[0]);
    expect(seen[0]?.entry).toMatchObject({ method: "tools/call", unmatched: true, sessionId: "session-1" });
    expect(seen[0]?.report).toBe(textOf(result));
    expect(seen[0]?.report).toContain("args.b: 2");
  });

  test('"error" makes close() reject with the unmatched report', async () => {
    const original = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write; // "error" also prints; keep the output clean
    let mock: McpMock | undefined;
    let client: TestClient | undefined;
    try {
      mock = await McpMock.start({ tools, onUnmatched: "error" });
      client = await connect("v1", mock.url);
      mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
      await client.callTool("add", { a: 1, b: 5 });
      await client.close();
      const error = await mock.close().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error).toBeInstanceOf(McpMockError);
      expect(error?.message).toMatch(/^\[mcpmock\] 1 request\(s\) matched no stub:/);
      expect(error?.message).toContain('#3 tools/call "add" {"a":1,"b":5} in session-1');
      expect(error?.message).toContain("args.b: 2");
      // the server did stop
      await expect(fetch(mock.url, { method: "POST" })).rejects.toThrow();
      // only the first close() reports: later ones (e.g. an `await using` at the end of the scope) resolve
      await expect(mock.close()).resolves.toBeUndefined();
      await expect(mock.close()).resolves.toBeUndefined();
    } finally {
      process.stderr.write = original;
    }
  });

  test('"error": with `await using`, the explicit close() rejects and the scope\'s own close() at the end resolves', async () => {
    const original = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      let rejected: unknown;
      {
        await using mock = await McpMock.start({ tools, onUnmatched: "error" });
        const client = await connect("v2", mock.url);
        await client.callTool("echo", { text: "nobody stubbed this" });
        await client.close();
        rejected = await mock.close().then(
          () => undefined,
          (e: unknown) => e,
        );
      } // the disposal calls close() again: it must not throw the same report a second time
      expect(rejected).toBeInstanceOf(McpMockError);
      expect((rejected as Error).message).toMatch(/^\[mcpmock\] 1 request\(s\) matched no stub:/);
    } finally {
      process.stderr.write = original;
    }
  });

  test('"error" lets close() resolve when every request matched', async () => {
    await using ctx = await setup("v1", { onUnmatched: "error" });
    ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    await ctx.client.close();
    await expect(ctx.mock.close()).resolves.toBeUndefined();
  });
});
