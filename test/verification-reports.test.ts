/**
 * Verification reports are UI: each failure a user reads is checked against a golden file in
 * test/fixtures/, produced the way a user meets it (a real client over HTTP, then a failing
 * verification). The files are written on the first run; read them when they change.
 */
import { describe, expect, test } from "vitest";
import {
  ANY,
  McpMock,
  VerificationError,
  exactly,
  initialize,
  text,
  toolsCall,
  toolsList,
  type McpMockOptions,
} from "../src/index.js";
import { connect, type ClientKind } from "./support/clients.js";
import { startWithClient } from "./support/setup.js";
import { addTool } from "./support/tools.js";

const tools = [
  addTool,
  {
    name: "get_weather",
    inputSchema: {
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" }, units: { enum: ["c", "f"] } },
      required: ["city"],
    },
  },
  { name: "flaky", inputSchema: { type: "object" } },
] as const;

const setup = (kind: ClientKind = "v1", options: McpMockOptions<typeof tools> = {}) => startWithClient({ tools, onUnmatched: "silent", ...options }, (url) => connect(kind, url));

/** The message of what `fn` throws (fails the test when nothing is thrown). */
function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return `${(error as Error).message}\n`;
  }
  throw new Error("expected a throw, but nothing was thrown");
}

describe("failed verify", () => {
  test("no matching request, but near misses: the closest one as a table", async () => {
    await using ctx = await setup("v1");
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    await ctx.client.callTool("add", { a: 1, b: 3 });
    await ctx.client.callTool("add", { a: 7, b: 7 });
    await ctx.client.listTools();
    const report = messageOf(() => ctx.mock.verify(toolsCall("add").withArgs({ a: 1, b: 2 })));
    await expect(report).toMatchFileSnapshot("fixtures/verify-near-miss.txt");
  });

  test("a near miss in another session, with a nested argument", async () => {
    await using ctx = await setup("v2");
    ctx.mock.toolsCall("get_weather").withArgs(ANY).respondsWith({ temp: 20 });
    await ctx.client.callTool("get_weather", { city: "Jeju", days: 3 });
    const report = messageOf(() =>
      ctx.mock.verify(toolsCall("get_weather").withArgs({ city: "Jeju", days: 2 }).withSessionId("session-9")),
    );
    await expect(report).toMatchFileSnapshot("fixtures/verify-near-miss-session.txt");
  });

  test("the wrong count: the matching requests are listed", async () => {
    await using ctx = await setup("v2");
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 3 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    await ctx.client.callTool("add", { a: 5, b: 5 });
    await ctx.client.callTool("add", { a: 1, b: 2 });
    const report = messageOf(() => ctx.mock.verify(toolsCall("add").withArgs({ a: 1, b: 2 }), exactly(1)));
    await expect(report).toMatchFileSnapshot("fixtures/verify-wrong-count.txt");
  });

  test("nothing at all was received", async () => {
    await using mock = await McpMock.start({ tools });
    const report = messageOf(() => mock.verify(toolsCall("add").withArgs({ a: 1, b: 2 })));
    await expect(report).toMatchFileSnapshot("fixtures/verify-nothing-received.txt");
  });

  test("the journal dropped the oldest entries (journalSize)", async () => {
    await using ctx = await setup("v1", { journalSize: 3 });
    ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    for (let i = 1; i <= 4; i++) await ctx.client.callTool("add", { a: i, b: i }); // the first call is dropped
    const report = messageOf(() => ctx.mock.verify(toolsCall("add"), exactly(4)));
    await expect(report).toMatchFileSnapshot("fixtures/verify-journal-dropped.txt");
  });
});

describe("failed verifyInOrder", () => {
  test("received, but not in this order", async () => {
    await using ctx = await setup("v1");
    ctx.mock.toolsCall().withArgs(ANY).respondsWith("ok");
    await ctx.client.callTool("add", { a: 1, b: 2 });
    await ctx.client.listTools();
    await ctx.client.callTool("get_weather", { city: "Paris" });
    const report = messageOf(() => ctx.mock.verifyInOrder(toolsList(), toolsCall("add"), toolsCall("get_weather")));
    await expect(report).toMatchFileSnapshot("fixtures/verify-in-order-wrong-order.txt");
  });

  test("a request that never came", async () => {
    await using ctx = await setup("v2");
    ctx.mock.toolsCall().withArgs(ANY).respondsWith("ok");
    await ctx.client.listTools();
    await ctx.client.callTool("add", { a: 1, b: 2 });
    const report = messageOf(() => ctx.mock.verifyInOrder(initialize(), toolsList(), toolsCall("get_weather"), toolsCall("add")));
    await expect(report).toMatchFileSnapshot("fixtures/verify-in-order-never-received.txt");
  });

  test("the only match was used by an earlier pattern", async () => {
    await using ctx = await setup("v1");
    ctx.mock.toolsCall().withArgs(ANY).respondsWith("ok");
    await ctx.client.callTool("add", { a: 1, b: 2 });
    await ctx.client.listTools();
    const report = messageOf(() => ctx.mock.verifyInOrder(toolsCall("add"), toolsList(), toolsCall("add")));
    await expect(report).toMatchFileSnapshot("fixtures/verify-in-order-match-used.txt");
  });
});

// Identity first (method, then tool name), details after: a call to the right tool whose every
// argument differs is still closer than initialize. (In e570873, src/journal/near-miss.ts grade() gave
// both 1.0 and the journal order put "1. #1 initialize" first, with a table comparing
// tools/call "add" to initialize.)
test("a call to the same tool is the closest near miss even when every argument differs", async () => {
  await using ctx = await setup("v1");
  ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
  await ctx.client.callTool("add", { a: 7, b: 7 });
  const report = messageOf(() => ctx.mock.verify(toolsCall("add").withArgs({ a: 1, b: 2 })));
  expect(report).toContain('  1. #3 tools/call "add" {"a":7,"b":7} in session-1\n');
});

test("waitFor timing out shows the near misses", async () => {
  await using ctx = await setup("v1");
  ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
  await ctx.client.callTool("add", { a: 1, b: 3 });
  const error = await ctx.mock.waitFor(toolsCall("add").withArgs({ a: 1, b: 2 }), { timeout: 100 }).then(
    () => new Error("waitFor resolved"),
    (e: unknown) => e as Error,
  );
  expect(error).toBeInstanceOf(VerificationError);
  await expect(`${error.message}\n`).toMatchFileSnapshot("fixtures/wait-for-timeout.txt");
});

test("assertNoUnmatched lists every miss with the report the client got", async () => {
  await using ctx = await setup("v2");
  ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
  ctx.mock.method("custom/thing").withParams({ id: 1 }).respondsWith({ ok: true });
  await ctx.client.callTool("add", { a: 1, b: 2 });
  await ctx.client.callTool("add", { a: 2, b: 2 });
  await ctx.client.request("custom/thing", { id: 2 }).catch(() => undefined);
  const report = messageOf(() => ctx.mock.assertNoUnmatched());
  await expect(report).toMatchFileSnapshot("fixtures/assert-no-unmatched.txt");
});

// A client in a loop can miss thousands of times: the failure (and close() with onUnmatched:
// "error", and mcpTest's) used to hold every report, megabytes that no one reads.
test("assertNoUnmatched is bounded: five reports, then a line each for twenty, then a count", async () => {
  await using ctx = await setup("v1");
  ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
  for (let i = 0; i < 40; i++) await ctx.client.callTool("add", { a: i + 10, b: 2 });
  const report = messageOf(() => ctx.mock.assertNoUnmatched());
  expect(report.split("No stub answers")).toHaveLength(6);
  expect(report).toContain("[mcpmock] 40 request(s) matched no stub:");
  expect(report).toContain('\nThe next 20, without their reports:\n#8 tools/call "add" {"a":15,"b":2} in session-1\n');
  expect(report).toContain('\n#27 tools/call "add" {"a":34,"b":2} in session-1\n… and 15 more.\nmock.unmatched() lists every one, each with its report (entry.missReport).');
  expect(report.length).toBeLessThan(8000);
  expect(ctx.mock.unmatched()).toHaveLength(40);
});

// A predicate's own bug (a throw, a Promise, a truthy non-boolean) read as a plain "does not
// match": the report now says what the predicate did, in the table and in the lines below it.
test("a predicate that throws, returns a Promise or a non-boolean is named in the miss report and in verify", async () => {
  await using ctx = await setup("v1");
  ctx.mock.toolsCall("add").withArgsMatching((args) => ((args as Record<string, unknown>)["zz"] as string[]).length > 0).respondsWith("threw");
  ctx.mock.toolsCall("add").withArgsMatching((args) => args["a"] as unknown as boolean).respondsWith("truthy");
  ctx.mock.toolsCall("add").withArgsMatching(((_args: unknown) => Promise.resolve(true)) as never).respondsWith("promise");
  const result = await ctx.client.callTool("add", { a: 2, b: 2 });
  const report = (result.content as Array<{ text: string }>)[0]?.text ?? "";
  expect(report).toContain("\n         ^ the predicate returned a Promise, which is not true: decide synchronously, and await in the answer instead\n");
  expect(report).toContain(": the predicate returned 2, not true (only true matches: write a comparison, or !!value)\n");
  expect(report).toMatch(/: the predicate threw TypeError: Cannot read properties of undefined \(reading 'length'\)\n/);
  const failed = messageOf(() => ctx.mock.verify(toolsCall("add").withArgsMatching((args) => (args["zz"] as string[]).length > 0)));
  expect(failed).toMatch(/<<<<< arguments do not match\n {9}\^ the predicate threw TypeError: Cannot read properties of undefined \(reading 'length'\)\n/);
});

// Arguments of 200,000 fields (3 MB, under the body limit) against a withArgs stub: grading
// spread every diff into one push (RangeError: the client got -32603), and the report's rows
// were quadratic in the fields (minutes with the server held). A miss report, and verify's.
test("a call with 200,000 argument fields gets its miss report, and verify its closest request", { timeout: 60_000 }, async () => {
  await using ctx = await setup("v1");
  ctx.mock.toolsCall("flaky").withArgs({ q: "x" }).respondsWith("exact");
  ctx.mock.toolsCall("flaky").withArgsMatching({ q: "y" }).respondsWith("containing");
  const args: Record<string, number> = {};
  for (let i = 0; i < 200_000; i++) args[`f${i}`] = i;
  const result = await ctx.client.callTool("flaky", args);
  const report = (result.content as Array<{ text: string }>)[0]?.text ?? "";
  expect(result.isError).toBe(true);
  expect(report).toContain("No stub answers tools/call \"flaky\"");
  expect(report).toContain("args.f0: not expected, received 0");
  expect(report.length).toBeLessThan(5000);
  const failed = messageOf(() => ctx.mock.verify(toolsCall("flaky").withArgs({ q: "z" })));
  expect(failed).toContain("Closest requests received:");
  expect(failed).toContain("… 199977 more fields");
  expect(failed.length).toBeLessThan(5000);
  expect((await ctx.client.callTool("flaky", { q: "x" })).content).toEqual([{ type: "text", text: "exact" }]);
});

test("assertAllStubsUsed lists the stubs not (fully) used, and skips optional and built-in ones", async () => {
  await using ctx = await setup("v1");
  ctx.mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
  ctx.mock.toolsCall("add").withArgs({ a: 5, b: 5 }).respondsWith({ sum: 10 });
  ctx.mock.toolsCall("get_weather").times(2).respondsWith({ temp: 21 });
  ctx.mock.toolsCall("flaky").optional().respondsWith("not needed");
  ctx.mock.method("custom/thing").respondsWith({ ok: true });
  await ctx.client.callTool("add", { a: 1, b: 2 });
  await ctx.client.callTool("get_weather", { city: "Paris" });
  const report = messageOf(() => ctx.mock.assertAllStubsUsed());
  await expect(report).toMatchFileSnapshot("fixtures/assert-all-stubs-used.txt");
});

test("every kind of stub explains itself in one sentence", async () => {
  await using mock = await McpMock.start({ tools });
  const kinds: Array<[string, { toString(): string }]> = [
    ["tool with arguments", mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 })],
    ["tool with ANY arguments", mock.toolsCall("add").withArgs(ANY).respondsWith(text("fallback"))],
    // ANY inside the arguments (README: "ANY also works inside: { city: ANY }") type-checks for tools declared `as const`
    ["tool with ANY inside the arguments", mock.toolsCall("get_weather").withArgs({ city: ANY, days: 2 }).respondsWith({ temp: 1 })],
    ["tool with partial arguments", mock.toolsCall("get_weather").withArgsMatching({ units: "f" }).respondsWith({ temp: 70 })],
    ["tool with a predicate", mock.toolsCall("add").withArgsMatching((args) => args.a > 0).respondsWith({ sum: 1 })],
    ["any tool", mock.toolsCall().respondsWith("whatever")],
    ["isError result", mock.toolsCall("get_weather").withArgs({ city: "Atlantis" }).respondsWith("No such city", { isError: true })],
    ["function answer", mock.toolsCall("add").respondsWith((call) => ({ sum: call.args.a + call.args.b }))],
    ["JSON-RPC error", mock.toolsCall("flaky").respondsWithError(-32603, "internal", { why: "test" })],
    ["raw HTTP status", mock.toolsCall("flaky").respondsWithStatus(503, "overloaded")],
    ["fault connection-reset", mock.toolsCall("flaky").fails("connection-reset")],
    ["fault empty-response", mock.toolsCall("flaky").fails("empty-response")],
    ["fault malformed-json", mock.toolsCall("flaky").fails("malformed-json")],
    ["fault wrong-id", mock.toolsCall("flaky").fails("wrong-id")],
    ["fault duplicate-response", mock.toolsCall("flaky").fails("duplicate-response")],
    ["fault drop-stream-after", mock.toolsCall("flaky").fails("drop-stream-after", 1)],
    ["fixed delay", mock.toolsCall("flaky").withDelay(250).respondsWith("late")],
    ["uniform delay", mock.toolsCall("flaky").withDelay({ distribution: "uniform", min: 10, max: 50 }).respondsWith("jitter")],
    ["log-normal delay", mock.toolsCall("flaky").withDelay({ distribution: "lognormal", median: 80, sigma: 0.5 }).respondsWith("real")],
    ["times", mock.toolsCall("flaky").times(3).respondsWith("thrice")],
    ["once", mock.toolsCall("flaky").once().respondsWith("once")],
    ["optional", mock.toolsCall("flaky").optional().respondsWith("maybe")],
    ["priority", mock.toolsCall("flaky").priority(10).respondsWith("first")],
    ["andThen sequence", mock.toolsCall("flaky").respondsWith("a").andThen("b").andThen("c")],
    ["scenario whenState + willSetState", mock.toolsCall("flaky").inScenario("checkout").whenState("Started").willSetState("Paid").respondsWith("paying")],
    ["initialize with a session id", mock.initialize().respondsWith({ instructions: "Be brief" }, { sessionId: "s-1" })],
    ["deleteSession", mock.deleteSession().respondsWithStatus(405)],
    ["method with params", mock.method("custom/thing").withParams({ id: 7 }).respondsWith({ ok: true })],
    ["method with a params predicate", mock.method("custom/thing").withParams((params) => params["id"] === 8).respondsWith({ ok: false })],
    ["session, header and version", mock.ping().withSessionId("session-1").withHeader("authorization", /^Bearer /).withProtocolVersion("2025-06-18").respondsWith({})],
  ];
  const width = Math.max(...kinds.map(([label]) => label.length));
  const lines = kinds.map(([label, handle]) => `${`${label}:`.padEnd(width + 2)}${handle.toString()}`);
  await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot("fixtures/stub-sentences-every-kind.txt");
});

test("failures read well inside vitest's expect flow", async () => {
  await using ctx = await setup("v2");
  ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
  await ctx.client.callTool("add", { a: 1, b: 3 });
  const pattern = toolsCall("add").withArgs({ a: 1, b: 2 });
  expect(() => ctx.mock.verify(pattern)).toThrow(VerificationError);
  let error: unknown;
  try {
    ctx.mock.verify(pattern);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(VerificationError);
  const failure = error as VerificationError;
  expect(failure.name).toBe("VerificationError");
  expect(failure.message.startsWith("[mcpmock] Expected")).toBe(true);
  expect(failure.message).toContain("<<<<< arguments do not match");
  // `expected` and `actual` are the two columns of the closest request's table, one line per
  // field, so a runner that diffs them shows exactly the fields that differ.
  expect(failure.expected).toBe(['tools/call "add"', "args.a: 1", "args.b: 2"].join("\n"));
  expect(failure.actual).toBe(['tools/call "add"', "args.a: 1", "args.b: 3"].join("\n"));
  for (const line of failure.expected.split("\n")) expect(failure.message).toContain(line);
  for (const line of failure.actual.split("\n")) expect(failure.message).toContain(line);
});

test("a count failure with matching requests has the counts as expected and actual", async () => {
  await using ctx = await setup("v1");
  ctx.mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
  await ctx.client.callTool("add", { a: 1, b: 2 });
  await ctx.client.callTool("add", { a: 1, b: 2 });
  let error: VerificationError | undefined;
  try {
    ctx.mock.verify(toolsCall("add"), 3);
  } catch (e) {
    error = e as VerificationError;
  }
  expect(error).toBeInstanceOf(VerificationError);
  expect(error?.expected).toBe("exactly 3 times");
  expect(error?.actual).toBe("twice");
});
