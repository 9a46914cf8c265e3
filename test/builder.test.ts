/**
 * A bad stub or declaration fails at the call that made it, with the fix in the message.
 */
import { describe, expect, test } from "vitest";
import { ABSENT, ANY, McpMock, McpMockError, contains, resourcesRead } from "../src/index.js";
import { drawDelay } from "../src/stubs/random-delay.js";
import { MAX_DELAY_MS } from "../src/values/max-delay.js";
import { toolsCallPattern } from "./support/patterns.js";

const tools = [
  { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" } } } },
  { name: "get_weather", inputSchema: { type: "object" } },
] as const;

describe("stub-time rejection", () => {
  test("an undeclared tool names the declared ones, the closest, and how to declare it", async () => {
    await using mock = await McpMock.start({ tools });
    expect(() => mock.toolsCall("get_wether" as never)).toThrow(
      new McpMockError(
        'toolsCall("get_wether"): no tool "get_wether" is declared, so no client could call it. Declared tools: add, get_weather. ' +
          'Did you mean "get_weather"? Declare it first: McpMock.start({ tools: [{ name: "get_wether", inputSchema: { type: "object" } }] }) or mock.declareTool({ ... }).',
      ),
    );
  });

  test("with no tools declared the message says so", async () => {
    await using mock = await McpMock.start();
    expect(() => mock.toolsCall("add")).toThrow(/No tools are declared\./);
  });

  const cycle: Record<string, unknown> = { a: 1 };
  cycle["self"] = cycle;
  let deep: Record<string, unknown> = {};
  const root = deep;
  for (let i = 0; i < 600; i++) deep = (deep["n"] = {}) as Record<string, unknown>;
  // eslint-disable-next-line no-sparse-arrays
  const sparse = [1, , 3];

  test.each([
    ["a cycle", cycle, /args\.self refers back to one of its parents \(a cycle\)/],
    ["NaN", { a: NaN }, /args\.a is NaN, which JSON cannot carry \(it arrives as null\)\. Use a finite number or null\./],
    ["Infinity", { a: Infinity }, /args\.a is Infinity/],
    ["a function", { a: () => 1 }, /args\.a is a function.*use \.withArgsMatching\(args => \.\.\.\)/],
    ["a symbol", { a: Symbol("x") }, /args\.a is a symbol/],
    ["a BigInt", { a: 1n }, /args\.a is a BigInt, which JSON cannot carry\. Use a number or a string\./],
    ["a Map", { a: new Map() }, /args\.a is a Map.*Object\.fromEntries\(map\)/],
    ["a Date", { when: new Date(0) }, /args\.when is a Date.*date\.toISOString\(\)/],
    ["a sparse array", { list: sparse }, /args\.list is a sparse array \(index 1 is a hole\)/],
    ["depth over 512", root, /nested deeper than 512 levels/],
  ])("withArgs rejects %s", async (_what, args, message) => {
    await using mock = await McpMock.start({ tools });
    expect(() => mock.toolsCall("get_weather").withArgs(args as never)).toThrow(McpMockError);
    expect(() => mock.toolsCall("get_weather").withArgs(args as never)).toThrow(message);
  });

  test("the message names the chain that made the mistake", async () => {
    await using mock = await McpMock.start({ tools });
    expect(() => mock.toolsCall("add").withSessionId("s").withArgs({ a: NaN })).toThrow(
      /^\[mcpmock\] toolsCall\("add"\)\.withSessionId\("s"\)\.withArgs\(\.\.\.\): args\.a is NaN/,
    );
  });

  test("undefined properties are dropped, as JSON drops them", async () => {
    await using mock = await McpMock.start({ tools });
    expect(() => mock.toolsCall("add").withArgs({ a: 1, b: undefined } as never)).not.toThrow();
  });

  test("answers that JSON cannot carry are refused at the terminal", async () => {
    await using mock = await McpMock.start({ tools });
    expect(() => mock.toolsCall("add").respondsWith({ n: NaN })).toThrow(/answer\.n is NaN/);
    expect(() => mock.toolsCall("add").respondsWith("ok").andThen({ when: new Date() })).toThrow(/answer\.when is a Date/);
  });

  test.each([
    ["times(0)", (m: McpMock) => m.ping().times(0), /times takes a whole number of calls \(1 or more\), received 0/],
    ["withDelay(-1)", (m: McpMock) => m.ping().withDelay(-1), /withDelay takes milliseconds \(0 or more\)/],
    ["priority(NaN)", (m: McpMock) => m.ping().priority(NaN), /priority takes a finite number/],
    ["respondsWithStatus(99)", (m: McpMock) => m.ping().respondsWithStatus(99), /HTTP status from 200 to 599/],
    ["respondsWithError(1.5)", (m: McpMock) => m.ping().respondsWithError(1.5, "x"), /code must be an integer/],
    ["withHeader('bad name')", (m: McpMock) => m.ping().withHeader("bad name", "x"), /is not a valid HTTP header name/],
    ["withArgs([])", (m: McpMock) => m.toolsCall().withArgs([] as never), /withArgs takes an object of arguments/],
    ["initialize session id", (m: McpMock) => m.initialize().respondsWith({}, { sessionId: "has space" }), /visible ASCII only/],
  ])("%s is refused with the rule", async (_what, make, message) => {
    await using mock = await McpMock.start({ tools });
    expect(() => make(mock as McpMock)).toThrow(message);
  });

  // A lone value pattern stands for one field; as the whole arguments it matched nothing, and
  // the stub never answered. The message says where to put it.
  test.each([
    ["withArgs(/^a/)", (m: McpMock) => m.toolsCall("get_weather").withArgs(/^a/ as never), "withArgs takes an object of arguments ({ a: 1 }) or ANY, received /^a/, a pattern for one field's value, which never matches a whole object. Put it under the field's name: withArgs({ name: /^a/ })."],
    ["withArgsMatching(contains)", (m: McpMock) => m.toolsCall("get_weather").withArgsMatching(contains("x") as never), 'Put it under the field\'s name: withArgsMatching({ name: contains("x") }).'],
    ["withParams(ABSENT)", (m: McpMock) => m.method("x/y").withParams(ABSENT as never), "withParams takes an object, ANY or a predicate, received ABSENT, a pattern"],
    ["withParamsMatching(/x/)", (m: McpMock) => m.method("x/y").withParamsMatching(/x/ as never), "withParamsMatching({ name: /x/ })"],
  ])("%s (a lone value pattern) is refused, with where to put it", async (_what, make, message) => {
    await using mock = await McpMock.start({ tools });
    expect(() => make(mock as McpMock)).toThrow(message);
  });

  // An async predicate's Promise never counts as a match: the stub never answered, silently.
  test.each([
    ["withArgsMatching", (m: McpMock) => m.toolsCall("get_weather").withArgsMatching((async (args: Record<string, unknown>) => args["city"] === "Paris") as never), 'toolsCall("get_weather"): withArgsMatching takes a synchronous predicate that returns true or false; async (args) => args["city"] === "Paris" is an async function, whose Promise never counts as a match, so the stub would never answer. Decide from the request alone'],
    ["withParams", (m: McpMock) => m.method("x/y").withParams((async () => true) as never), "withParams takes a synchronous predicate"],
    ["withArgsMatching (generator)", (m: McpMock) => m.toolsCall("get_weather").withArgsMatching(function* () { yield true; } as never), "is a generator function, whose iterator never counts as a match"],
    ["resourcesRead", () => resourcesRead((async (uri: string) => uri.startsWith("file:")) as never), "resourcesRead takes a synchronous predicate"],
  ])("%s with an async predicate is refused where it is written", async (_what, make, message) => {
    await using mock = await McpMock.start({ tools });
    expect(() => make(mock as McpMock)).toThrow(message);
  });

  // Node fires a timer longer than 2^31 - 1 ms after 1 ms (with a warning on stderr): the
  // stub answered at once instead of waiting.
  test("a delay longer than a timer holds is refused; a log-normal tail waits the longest a timer holds", async () => {
    await using mock = await McpMock.start({ tools });
    expect(() => mock.toolsCall("add").withDelay(2 ** 31)).toThrow(`withDelay takes at most ${MAX_DELAY_MS} ms (about 24.8 days, the longest a timer holds), received 2147483648.`);
    expect(() => mock.toolsCall("add").withDelay({ min: 0, max: 2 ** 31 })).toThrow(/withDelay takes milliseconds, \{ min, max \}/);
    expect(() => mock.toolsCall("add").streams((s) => s.delay(2 ** 31))).toThrow(/delay takes at most 2147483647 ms/);
    expect(() => mock.toolsCall("add").streams((s) => s.progress(1), { delayBetween: 2 ** 32 })).toThrow(/delayBetween takes at most 2147483647 ms/);
    expect(() => mock.toolsCall("add").withDelay(MAX_DELAY_MS)).not.toThrow();
    // u near 0 and cos(0) = 1: a draw of e^(50 * 3.7) ms, far past the cap
    const draws = [0.999, 0];
    expect(drawDelay({ distribution: "lognormal", median: 1000, sigma: 50 }, () => draws.shift() as number)).toBe(MAX_DELAY_MS);
  });

  // JSON has no undefined: a method's client got a response without "result" (which the SDK
  // fails to parse), a tool's the text "null".
  test("respondsWith(undefined) and andThen(undefined) are refused where written", async () => {
    await using mock = await McpMock.start({ tools });
    expect(() => mock.method("custom/x").respondsWith(undefined as never)).toThrow(
      new McpMockError('method("custom/x"): respondsWith takes the answer, received undefined. Give a value ({} for an empty result, "" for an empty text) or a function of the call.'),
    );
    expect(() => mock.toolsCall("add").respondsWith(undefined as never)).toThrow(/toolsCall\("add"\): respondsWith takes the answer, received undefined/);
    expect(() => mock.toolsCall("add").respondsWith("x").andThen(undefined as never)).toThrow(/respondsWith takes the answer, received undefined/);
  });

  test("a pattern not started from a mock cannot answer", () => {
    expect(() => toolsCallPattern().withArgs(ANY).respondsWith("x")).toThrow(
      /toolsCall\("add"\)\.withArgs\(ANY\) is a pattern, not attached to a mock/,
    );
  });
});

describe("declarations", () => {
  test("inputSchema must be an object schema", async () => {
    await expect(
      McpMock.start({ tools: [{ name: "list", inputSchema: { type: "array" } as never }] }),
    ).rejects.toThrow(/tool "list": inputSchema must have type "object" at its root.*Wrap the value in an object/);
  });

  test("a broken JSON Schema is reported with the tool", async () => {
    await expect(
      McpMock.start({ tools: [{ name: "t", inputSchema: { type: "object", properties: { a: { type: "nope" } } } }] }),
    ).rejects.toThrow(/tools\[0\]\.inputSchema is not a valid JSON Schema: .*Fix the schema/);
  });

  test("a tool declared twice", async () => {
    await expect(McpMock.start({ tools: [{ name: "a" }, { name: "a" }] })).rejects.toThrow(/tools\[1\]: "a" is declared twice/);
  });

  test("a tool without a name", async () => {
    await expect(McpMock.start({ tools: [{ name: "" }] })).rejects.toThrow(/tools\[0\]\.name must be a non-empty string/);
  });

  test("start options are checked", async () => {
    await expect(McpMock.start({ path: "mcp" })).rejects.toThrow(/path must start with "\/"/);
    await expect(McpMock.start({ sessions: "sometimes" as never })).rejects.toThrow(/sessions must be "stateful" or "stateless"/);
  });

  test("a port in use is reported with the fix", async () => {
    await using first = await McpMock.start();
    await expect(McpMock.start({ port: first.port })).rejects.toThrow(
      `port ${first.port} on 127.0.0.1 is already in use. Use port 0 (the default; --port 0 on the command line) to get a free port.`,
    );
  });
});
