/**
 * Argument patterns are indexed by their exact parts (issue 33): 10,000 `withArgs({ q, id: ANY })`
 * or `withArgsMatching({ q })` stubs on one tool, as a recording with `--ignore` pointers writes,
 * cost a call about what one stub does, and the index never changes which stub answers: the
 * ordering rule across exact, pattern and any-arguments stubs, a call without an exact part,
 * partial matching's extra fields, number spelling, nested exact values.
 */
import { describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ANY, contains, McpMock } from "../../src/index.js";
import { StubRegistry } from "../../src/stubs/registry.js";
import { McpCall } from "../../src/stubs/call.js";
import { argsContaining, argsEqual } from "../../src/stubs/matchers.js";
import type { Stub } from "../../src/stubs/stub.js";

const tools = [{ name: "search" }] as const;

async function connected(mock: McpMock): Promise<Client> {
  const client = new Client({ name: "index", version: "1" });
  await client.connect(mock.clientTransport());
  return client;
}

const text = (result: unknown): string => ((result as { content: Array<{ text: string }> }).content[0] as { text: string }).text;

function callOf(args: Record<string, unknown>): McpCall {
  return new McpCall({ method: "tools/call", params: { name: "search", arguments: args }, id: 1, sessionId: undefined, headers: {}, protocolVersion: "2025-11-25", body: "", transport: "memory" });
}

function stubOf(id: string, matcher: ReturnType<typeof argsEqual>): Stub {
  return { id, method: "tools/call", key: "search", priority: 0, matchers: [matcher], responses: [{ kind: "result", result: {} }] } as unknown as Stub;
}

describe("the exact parts of argument patterns are indexed", () => {
  test("with 10,000 pattern stubs on one tool, a call tries only the stubs whose exact parts it holds", () => {
    const registry = new StubRegistry();
    for (let i = 0; i < 5000; i++) registry.add(stubOf(`w${i}`, argsEqual({ q: `query ${i}`, page: 1, id: ANY })));
    for (let i = 0; i < 5000; i++) registry.add(stubOf(`m${i}`, argsContaining({ q: `query ${i}` })));
    const tried = registry.candidates(callOf({ q: "query 42", page: 1, id: "x" }), "search");
    expect(tried.map((e) => e.stub.id)).toEqual(["m42", "w42"]);
    expect(registry.candidates(callOf({ page: 1, id: "x" }), "search")).toHaveLength(0);
    // Every stub is still listed for reports, and removing one takes it out of its lane.
    expect(registry.forMethod("tools/call", "search")).toHaveLength(10_000);
    registry.remove("w42");
    expect(registry.candidates(callOf({ q: "query 42", page: 1, id: "x" }), "search").map((e) => e.stub.id)).toEqual(["m42"]);
  });

  test("a tool with a few pattern stubs keeps them in one lane; past four they are indexed, in order", () => {
    const registry = new StubRegistry();
    for (let i = 0; i < 4; i++) registry.add(stubOf(`w${i}`, argsEqual({ q: `query ${i % 2}`, id: ANY })));
    expect(registry.candidates(callOf({ q: "query 1", id: "x" }), "search").map((e) => e.stub.id)).toEqual(["w3", "w2", "w1", "w0"]);
    registry.add(stubOf("w4", argsEqual({ q: "query 1", id: ANY })));
    expect(registry.candidates(callOf({ q: "query 1", id: "x" }), "search").map((e) => e.stub.id)).toEqual(["w4", "w3", "w1"]);
    registry.remove("w3");
    expect(registry.candidates(callOf({ q: "query 1", id: "x" }), "search").map((e) => e.stub.id)).toEqual(["w4", "w1"]);
  });

  // A guard against a linear scan (10,000 stubs would be ~100x), not a speed test: that is the bench's.
  test("a call with 10,000 such stubs costs within 10x of a call with one", async () => {
    const mocks = await Promise.all([1, 10_000].map(async (n) => {
      const mock = await McpMock.start({ transport: "none", tools, onUnmatched: "silent" });
      for (let i = 0; i < n; i++) mock.toolsCall("search").withArgs({ q: `query ${i}`, page: 1, id: ANY }).respondsWith(`hit ${i}`);
      return { mock, client: await connected(mock), q: `query ${Math.floor(n / 2)}` };
    }));
    try {
      const rounds: number[][] = [[], []];
      for (let r = 0; r < 6; r++) {
        for (const [i, m] of mocks.entries()) {
          const t0 = performance.now();
          for (let c = 0; c < 100; c++) await m.client.callTool({ name: "search", arguments: { q: m.q, page: 1, id: `r${c}` } });
          (rounds[i] as number[]).push(performance.now() - t0);
        }
      }
      const [one, many] = rounds.map((xs) => Math.min(...xs)) as [number, number];
      expect(text(await mocks[1]?.client.callTool({ name: "search", arguments: { q: "query 7", page: 1, id: "z" } }))).toBe("hit 7");
      expect(many / one, `one stub: ${one.toFixed(1)} ms per 100 calls; 10,000: ${many.toFixed(1)} ms`).toBeLessThan(10);
    } finally {
      for (const m of mocks) {
        await m.client.close();
        await m.mock.close();
      }
    }
  }, 60_000);
});

describe("the index changes nothing about which stub answers", () => {
  // Below the index's threshold (a few pattern stubs stay in one lane) and above it.
  test.each([0, 3, 20])("the ordering rule holds across exact, pattern and any-arguments stubs (%i more pattern stubs)", async (more) => {
    await using mock = await McpMock.start({ transport: "none", tools, onUnmatched: "silent" });
    const client = await connected(mock);
    for (let i = 0; i < more; i++) mock.toolsCall("search").withArgs({ q: `filler ${i}`, id: ANY }).respondsWith("filler");
    mock.toolsCall("search").withArgs(ANY).respondsWith("any");
    mock.toolsCall("search").withArgs({ q: "a", id: ANY }).respondsWith("pattern, older");
    mock.toolsCall("search").withArgsMatching({ q: "a" }).respondsWith("containing, newer");
    mock.toolsCall("search").withArgs({ q: "a", id: "1" }).priority(-1).respondsWith("exact, lower priority");
    mock.toolsCall("search").withArgs({ q: "b", id: contains("x") }).priority(5).respondsWith("pattern, high priority");
    const answer = async (args: Record<string, unknown>): Promise<string> => text(await client.callTool({ name: "search", arguments: args }));
    expect(await answer({ q: "a", id: "1" })).toBe("containing, newer");
    expect(await answer({ q: "a", id: "2", extra: true })).toBe("containing, newer");
    expect(await answer({ q: "b", id: "wxy" })).toBe("pattern, high priority");
    expect(await answer({ q: "b", id: "w" })).toBe("any");
    expect(await answer({ id: "1" })).toBe("any"); // no q: no pattern with q can match
    await client.close();
  });

  test("number spellings, nested exact values and null are compared as the matchers compare them", async () => {
    await using mock = await McpMock.start({ transport: "none", tools, onUnmatched: "silent" });
    const client = await connected(mock);
    for (let i = 0; i < 10; i++) mock.toolsCall("search").withArgsMatching({ cursor: `c${i}`, limit: 10 }).respondsWith("filler");
    for (let i = 0; i < 10; i++) mock.toolsCall("search").withArgs({ page: i + 2, filter: { lang: "en", tags: ["a", "b"] }, id: ANY }).respondsWith("filler");
    mock.toolsCall("search").withArgs({ page: 1, filter: { lang: "en", tags: ["a", "b"] }, id: ANY }).respondsWith("nested");
    mock.toolsCall("search").withArgsMatching({ cursor: null, limit: 10 }).respondsWith("null and number");
    const answer = async (args: Record<string, unknown>): Promise<string | undefined> => {
      const result = (await client.callTool({ name: "search", arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
      return result.isError ? undefined : result.content[0]?.text;
    };
    expect(await answer({ page: 1.0, filter: { tags: ["a", "b"], lang: "en" }, id: 3 })).toBe("nested");
    expect(await answer({ page: 1, filter: { tags: ["b", "a"], lang: "en" }, id: 3 })).toBeUndefined();
    expect(await answer({ cursor: null, limit: 10, more: 1 })).toBe("null and number");
    expect(await answer({ limit: 10 })).toBeUndefined();
    await client.close();
  });
});
