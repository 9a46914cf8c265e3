/**
 * Answers that change over calls: andThen sequences, times/once exhaustion, priority,
 * scenarios (WireMock's state machine) and delays (fixed, uniform, seeded log-normal),
 * driven by the real SDK clients over HTTP.
 */
import { describe, expect, test } from "vitest";
import { ANY, McpMock, McpMockError, method, toolsCall, type McpMockOptions } from "../../src/index.js";
import { drawDelay, seededRandom } from "../../src/stubs/random-delay.js";
import { CLIENT_KINDS, connect, textOf, type ClientKind } from "../support/clients.js";
import { startWithClient } from "../support/setup.js";
import { addTool } from "../support/tools.js";

const tools = [
  addTool,
  { name: "pay", inputSchema: { type: "object" } },
  { name: "roll", inputSchema: { type: "object" } },
] as const;

const setup = (kind: ClientKind = "v1", options: McpMockOptions<typeof tools> = {}) => startWithClient({ tools, ...options }, (url) => connect(kind, url));

describe.each(CLIENT_KINDS)("sequences with the %s client", (kind) => {
  test("respondsWith(a).andThen(b).andThen(c) answers a, b, c, and then c again", async () => {
    await using ctx = await setup(kind);
    const roll = ctx.mock.toolsCall("roll").respondsWith("a").andThen("b").andThen("c");
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push(textOf(await ctx.client.callTool("roll", {})));
    expect(answers).toEqual(["a", "b", "c", "c", "c"]);
    expect(roll.calls()).toBe(5);
    expect(roll.toString()).toBe('tools/call "roll" → text "a", then text "b", then text "c" (seen 5)');
  });

  test("andThen keeps the isError option of each answer", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("roll").respondsWith("broken", { isError: true }).andThen("fixed");
    const first = await ctx.client.callTool("roll", {});
    const second = await ctx.client.callTool("roll", {});
    expect(first).toEqual({ content: [{ type: "text", text: "broken" }], isError: true });
    expect(second).toEqual({ content: [{ type: "text", text: "fixed" }] });
  });

  test("times(n) answers n calls, then later calls fall through to the next stub", async () => {
    await using ctx = await setup(kind);
    const fallback = ctx.mock.toolsCall("roll").respondsWith("fallback");
    const twice = ctx.mock.toolsCall("roll").times(2).respondsWith("limited");
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) answers.push(textOf(await ctx.client.callTool("roll", {})));
    expect(answers).toEqual(["limited", "limited", "fallback", "fallback"]);
    expect(twice.calls()).toBe(2);
    expect(twice.isPending()).toBe(false);
    expect(fallback.calls()).toBe(2);
  });

  test("once() answers one call; the next falls through, and without a fallback the miss says why", async () => {
    await using ctx = await setup(kind, { onUnmatched: "silent" });
    const once = ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).once().respondsWith({ sum: 3 });
    expect(await ctx.client.callTool("add", { a: 1, b: 2 })).toEqual({ content: [{ type: "text", text: '{"sum":3}' }] });
    const second = await ctx.client.callTool("add", { a: 1, b: 2 });
    expect(second["isError"]).toBe(true);
    expect(textOf(second)).toContain("it matches, but it has answered its 1 call(s) already (times)");
    expect(once.calls()).toBe(1);
    expect(ctx.mock.unmatched()).toHaveLength(1);
  });

  test("times(n) on a specific stub falls through to an ANY stub", async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: "any" });
    ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).times(1).respondsWith({ sum: 3 });
    expect(textOf(await ctx.client.callTool("add", { a: 1, b: 2 }))).toBe('{"sum":3}');
    expect(textOf(await ctx.client.callTool("add", { a: 1, b: 2 }))).toBe('{"sum":"any"}');
  });
});

describe("priority", () => {
  test("among equals the newest stub wins", async () => {
    await using ctx = await setup("v2");
    ctx.mock.toolsCall("roll").respondsWith("old");
    ctx.mock.toolsCall("roll").respondsWith("new");
    expect(textOf(await ctx.client.callTool("roll", {}))).toBe("new");
  });

  test("a higher priority wins over a newer stub", async () => {
    await using ctx = await setup("v1");
    const high = ctx.mock.toolsCall("roll").priority(10).respondsWith("high");
    ctx.mock.toolsCall("roll").respondsWith("newer, default priority");
    ctx.mock.toolsCall("roll").priority(-5).respondsWith("newest, low priority");
    expect(textOf(await ctx.client.callTool("roll", {}))).toBe("high");
    expect(high.toString()).toContain(", priority 10");
  });

  test("an exhausted high-priority stub gives way to the next one by priority", async () => {
    await using ctx = await setup("v2");
    ctx.mock.toolsCall("roll").priority(1).respondsWith("one");
    ctx.mock.toolsCall("roll").priority(5).once().respondsWith("five");
    ctx.mock.toolsCall("roll").respondsWith("zero");
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) answers.push(textOf(await ctx.client.callTool("roll", {})));
    expect(answers).toEqual(["five", "one", "one"]);
  });

  test("priority ranks within a tier: specified arguments still win over ANY at a higher priority (README rule 1)", async () => {
    await using ctx = await setup("v1");
    ctx.mock.toolsCall("add").withArgs(ANY).priority(100).respondsWith("any, priority 100");
    ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith("specific");
    ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).priority(-1).respondsWith("specific, low");
    expect(textOf(await ctx.client.callTool("add", { a: 1, b: 2 }))).toBe("specific");
    expect(textOf(await ctx.client.callTool("add", { a: 2, b: 2 }))).toBe("any, priority 100");
  });
});

describe("scenarios", () => {
  // The whole scenario DSL in one chain: inScenario(...) then whenState(...) and
  // willSetState(...) on the copies each chain step returns (the copies once lost the class's
  // #private brand, so no scenario stub could be written with the DSL).
  test('inScenario("checkout").whenState("Started").willSetState("Paid"), then a whenState("Paid") stub', async () => {
    await using ctx = await setup("v1");
    const paying = ctx.mock.toolsCall("pay").inScenario("checkout").whenState("Started").willSetState("Paid").respondsWith("paying");
    ctx.mock.toolsCall("pay").inScenario("checkout").whenState("Paid").respondsWith("already paid");
    expect(paying.toString()).toBe('tools/call "pay" in scenario "checkout" state "Started" → text "paying", then scenario "checkout" moves to "Paid" (seen 0)');
    expect(ctx.mock.scenario("checkout").state).toBe("Started");
    expect(textOf(await ctx.client.callTool("pay", {}))).toBe("paying");
    expect(ctx.mock.scenario("checkout").state).toBe("Paid");
    expect(textOf(await ctx.client.callTool("pay", {}))).toBe("already paid");
    expect(textOf(await ctx.client.callTool("pay", {}))).toBe("already paid");
  });

  test("the state machine: Started → Paid moves on the answer; set() and reset() move it by hand", async () => {
    await using ctx = await setup("v2", { onUnmatched: "silent" });
    ctx.mock.toolsCall("pay").inScenario("checkout").whenState("Started").willSetState("Paid").respondsWith("paying");
    ctx.mock.toolsCall("pay").inScenario("checkout").whenState("Paid").respondsWith("already paid");
    const checkout = ctx.mock.scenario("checkout");
    expect(checkout.name).toBe("checkout");
    expect(checkout.state).toBe("Started");
    expect(textOf(await ctx.client.callTool("pay", {}))).toBe("paying");
    expect(checkout.state).toBe("Paid");
    expect(textOf(await ctx.client.callTool("pay", {}))).toBe("already paid");
    checkout.reset();
    expect(checkout.state).toBe("Started");
    expect(textOf(await ctx.client.callTool("pay", {}))).toBe("paying");
    checkout.set("Shipped"); // no stub answers in this state
    const miss = await ctx.client.callTool("pay", {});
    expect(miss["isError"]).toBe(true);
    expect(textOf(miss)).toContain('scenario "checkout"');
    checkout.set("Paid");
    expect(textOf(await ctx.client.callTool("pay", {}))).toBe("already paid");
  });

  test("scenario handles read, set and reset state without any stub; scenarios are independent", async () => {
    await using mock = await McpMock.start({ tools });
    const a = mock.scenario("a");
    const b = mock.scenario("b");
    expect([a.state, b.state]).toEqual(["Started", "Started"]);
    a.set("Two");
    expect([a.state, b.state, mock.scenario("a").state]).toEqual(["Two", "Started", "Two"]);
    b.set("Three");
    a.reset();
    expect([a.state, b.state]).toEqual(["Started", "Three"]);
  });

  test("mock.reset() puts every scenario back to Started", async () => {
    await using mock = await McpMock.start({ tools });
    mock.scenario("checkout").set("Paid");
    mock.scenario("other").set("Done");
    mock.reset();
    expect(mock.scenario("checkout").state).toBe("Started");
    expect(mock.scenario("other").state).toBe("Started");
  });

  test("whenState / willSetState without inScenario throw a clear error at the DSL call", async () => {
    await using mock = await McpMock.start({ tools });
    expect(() => mock.toolsCall("pay").whenState("Paid")).toThrow(McpMockError);
    expect(() => mock.toolsCall("pay").whenState("Paid")).toThrow(
      '[mcpmock] toolsCall("pay"): whenState needs a scenario first: .inScenario("name").whenState(...)',
    );
    expect(() => mock.toolsCall("pay").willSetState("Paid")).toThrow(/willSetState needs a scenario first/);
  });

  // After a chain step the copy runs the same check and throws the same McpMockError, naming
  // the chain written so far (it once threw "TypeError: Receiver must be an instance of class StubBuilder").
  test("whenState / willSetState without inScenario after a narrowing step throw the same clear error", async () => {
    await using mock = await McpMock.start({ tools });
    expect(() => mock.toolsCall("pay").withArgs(ANY).whenState("Paid")).toThrow(McpMockError);
    expect(() => mock.toolsCall("pay").withArgs(ANY).whenState("Paid")).toThrow(
      '[mcpmock] toolsCall("pay").withArgs(ANY): whenState needs a scenario first: .inScenario("name").whenState(...)',
    );
    expect(() => mock.toolsCall("pay").once().priority(3).willSetState("Paid")).toThrow(
      '[mcpmock] toolsCall("pay").once().priority(3): willSetState needs a scenario first: .inScenario("name").willSetState(...)',
    );
  });

  test("a pattern (not attached to a mock) cannot use whenState", () => {
    expect(() => toolsCall("pay").whenState("Paid")).toThrow(/whenState needs a scenario first/);
  });
});

describe("delays", () => {
  test.each(CLIENT_KINDS)("withDelay(150) delays the answer by about 150 ms, seen from the %s client", async (kind) => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("roll").withDelay(150).respondsWith("late");
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith("prompt");
    let started = performance.now();
    expect(textOf(await ctx.client.callTool("roll", {}))).toBe("late");
    const delayed = performance.now() - started;
    started = performance.now();
    await ctx.client.callTool("add", { a: 1, b: 2 });
    const prompt = performance.now() - started;
    expect(delayed).toBeGreaterThanOrEqual(140);
    expect(delayed).toBeLessThan(1500);
    expect(prompt).toBeLessThan(140);
    const [entry] = ctx.mock.findRequests(toolsCall("roll"));
    expect(entry?.durationMs).toBeGreaterThanOrEqual(148);
  });

  test("a uniform random delay falls within min..max", async () => {
    await using ctx = await setup("v2");
    ctx.mock.toolsCall("roll").withDelay({ distribution: "uniform", min: 50, max: 100 }).respondsWith("ok");
    const measured: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await ctx.client.callTool("roll", {});
      measured.push(performance.now() - started);
    }
    const journaled = ctx.mock.findRequests(toolsCall("roll")).map((e) => e.durationMs as number);
    expect(journaled).toHaveLength(5);
    for (const ms of journaled) {
      expect(ms).toBeGreaterThanOrEqual(49); // Date.now() granularity
      expect(ms).toBeLessThanOrEqual(100 + 40); // generous upper tolerance for a loaded machine
    }
    for (const ms of measured) expect(ms).toBeGreaterThanOrEqual(48);
  });

  const lognormal = { distribution: "lognormal", median: 60, sigma: 0.8 } as const;

  async function lognormalDelays(seed: number, calls: number): Promise<number[]> {
    await using ctx = await setup("v1", { seed });
    ctx.mock.toolsCall("roll").withDelay(lognormal).respondsWith("ok");
    for (let i = 0; i < calls; i++) await ctx.client.callTool("roll", {});
    return ctx.mock.findRequests(toolsCall("roll")).map((e) => e.durationMs as number);
  }

  test("two mocks with the same seed wait the same sequence of log-normal delays (within 25 ms)", async () => {
    const calls = 6;
    const random = seededRandom(42);
    const expected = Array.from({ length: calls }, () => drawDelay(lognormal, random));
    // the seed was chosen so the delays are spread out: 21, 28, 37, 38, 12 and 94 ms
    expect(expected.map(Math.round)).toEqual([21, 28, 37, 38, 12, 94]);
    const first = await lognormalDelays(42, calls);
    const second = await lognormalDelays(42, calls);
    for (let i = 0; i < calls; i++) {
      expect(Math.abs((first[i] as number) - (second[i] as number))).toBeLessThanOrEqual(25);
      expect(first[i]).toBeGreaterThanOrEqual(Math.floor(expected[i] as number) - 1);
      expect(first[i]).toBeLessThanOrEqual((expected[i] as number) + 25);
    }
    // and the ordering is the same: the 5th call is the shortest, the 6th the longest
    const order = (xs: number[]) => xs.indexOf(Math.min(...xs)) * 10 + xs.indexOf(Math.max(...xs));
    expect(order(first)).toBe(45);
    expect(order(second)).toBe(45);
  });

  test("another seed waits differently", async () => {
    const random = seededRandom(7);
    const expected = Array.from({ length: 2 }, () => drawDelay(lognormal, random));
    expect(expected.map(Math.round)).toEqual([67, 30]);
    const other = await lognormalDelays(7, 2);
    // seed 42 starts with 21 ms, seed 7 with 67 ms: more than the 25 ms jitter apart
    expect(other[0]).toBeGreaterThanOrEqual(65);
    expect(other[0]).toBeLessThanOrEqual(67 + 25);
  });

  // reset() restarts the seeded delays, so a test after mock.reset() waits as it would on a
  // fresh mock. Seed 3 draws 108 ms, then 6 ms, from this uniform delay: had reset() not
  // restarted the generator, the call after it would wait the second draw, 6 ms.
  test("reset() restarts the seeded random delays: the first call after it waits the first draw again", async () => {
    const uniform = { distribution: "uniform", min: 0, max: 150 } as const;
    const random = seededRandom(3);
    const [first, second] = [drawDelay(uniform, random), drawDelay(uniform, random)] as [number, number];
    expect([Math.round(first), Math.round(second)]).toEqual([108, 6]);
    await using ctx = await setup("v1", { seed: 3 });
    const waited = async (): Promise<number> => {
      ctx.mock.toolsCall("roll").withDelay(uniform).respondsWith("ok");
      await ctx.client.callTool("roll", {});
      return ctx.mock.findRequests(toolsCall("roll"))[0]?.durationMs as number;
    };
    // the lower bound is the check (a delay never ends early); the upper one is generous for a loaded machine
    const before = await waited();
    expect(before).toBeGreaterThanOrEqual(Math.floor(first) - 1);
    expect(before).toBeLessThanOrEqual(first + 60);
    ctx.mock.reset(); // removes the stub and clears the journal too, so waited() stubs again
    const after = await waited();
    expect(after).toBeGreaterThanOrEqual(Math.floor(first) - 1);
    expect(after).toBeLessThanOrEqual(first + 60);
  });
});

// andThen(payload) after a terminal that carries no payload (respondsWithError,
// respondsWithStatus, fails) answers the payload the entry point's way on the next call: a tool
// payload for toolsCall, a plain JSON-RPC result for method(...). (These terminals once
// registered with `plan = () => plan`, so andThen silently repeated the first answer.)
describe.each(CLIENT_KINDS)("andThen(payload) after an answer without a payload, with the %s client", (kind) => {
  test("respondsWithError(...).andThen(payload): an error, then the tool payload", async () => {
    await using ctx = await setup(kind);
    const roll = ctx.mock.toolsCall("roll").respondsWithError(-32603, "boom").andThen("recovered");
    expect(roll.toString()).toBe('tools/call "roll" → error -32603 "boom", then text "recovered" (seen 0)');
    await expect(ctx.client.callTool("roll", {})).rejects.toThrow(/boom/);
    expect(await ctx.client.callTool("roll", {})).toEqual({ content: [{ type: "text", text: "recovered" }] });
    expect(await ctx.client.callTool("roll", {})).toEqual({ content: [{ type: "text", text: "recovered" }] });
    expect(roll.calls()).toBe(3);
  });

  test("respondsWithStatus(...).andThen(payload, options): an HTTP status, then the tool payload with its options", async () => {
    await using ctx = await setup(kind);
    const roll = ctx.mock
      .toolsCall("roll")
      .respondsWithStatus(503, "overloaded")
      .andThen({ rolled: 4 })
      // andThen after respondsWithStatus takes the entry point's options too.
      .andThen("tilted", { isError: true });
    expect(roll.toString()).toBe('tools/call "roll" → HTTP 503, then {"rolled":4}, then an error result text "tilted" (seen 0)');
    await expect(ctx.client.callTool("roll", {})).rejects.toThrow(/overloaded/);
    expect(await ctx.client.callTool("roll", {})).toEqual({ content: [{ type: "text", text: '{"rolled":4}' }] });
    expect(await ctx.client.callTool("roll", {})).toEqual({ content: [{ type: "text", text: "tilted" }], isError: true });
  });

  test('fails("empty-response").andThen(payload): a fault, then the tool payload', async () => {
    await using ctx = await setup(kind);
    ctx.mock.toolsCall("roll").fails("empty-response").andThen("recovered");
    await expect(ctx.client.callTool("roll", {})).rejects.toThrow();
    expect(textOf(await ctx.client.callTool("roll", {}))).toBe("recovered");
  });

  test("method(...).respondsWithError(...).andThen(payload): an error, then the payload as the JSON-RPC result", async () => {
    await using ctx = await setup(kind);
    const custom = ctx.mock.method("custom/thing").respondsWithError(-32000, "not yet").andThen({ ok: true });
    expect(custom.toString()).toBe('custom/thing → error -32000 "not yet", then result {"ok":true} (seen 0)');
    await expect(ctx.client.request("custom/thing", {})).rejects.toThrow(/not yet/);
    expect(await ctx.client.request("custom/thing", {})).toEqual({ ok: true });
    ctx.mock.verify(method("custom/thing"), 2);
  });
});

// Notifications, DELETE and GET streams take a stub's answers in turn, like requests do
// (a notification stub once always played its first answer).
test("a notification stub answers in turn: HTTP 500 once, then accepted", async () => {
  await using mock = await McpMock.start({ sessions: "stateless" });
  mock.method("notifications/custom").respondsWithStatus(500).andThen({});
  const send = async (): Promise<number> => {
    const res = await fetch(mock.url, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/custom" }),
    });
    await res.text();
    return res.status;
  };
  expect([await send(), await send(), await send()]).toEqual([500, 202, 202]);
});
