/**
 * Value patterns (ANY, RegExp, contains(text), ABSENT) inside expected values, and their data
 * form in definitions ({ "$regex": ... }, ...): what they match through a real client, how stub
 * sentences and near-miss reports show them.
 */
import { afterEach, describe, expect, test } from "vitest";
import { ABSENT, ANY, McpMock, contains, toolsCall } from "../../src/index.js";
import { connect, textOf, type TestClient } from "../support/clients.js";

const tools = [{ name: "search", inputSchema: { type: "object" } }] as const;

let mock: McpMock | undefined;
let client: TestClient | undefined;
afterEach(async () => {
  await client?.close();
  await mock?.close();
  client = mock = undefined;
});

async function started(build: (m: McpMock) => void): Promise<TestClient> {
  mock = (await McpMock.start({ tools, onUnmatched: "silent" })) as unknown as McpMock;
  build(mock);
  return (client = await connect("v1", mock.url));
}

describe("value patterns in withArgs", () => {
  test("a RegExp, contains(), ANY and ABSENT each decide one field", async () => {
    const c = await started((m) => m.toolsCall("search").withArgs({ q: /^wea/, lang: contains("en"), limit: ANY, page: ABSENT }).respondsWith("matched"));
    expect(textOf(await c.callTool("search", { q: "weather", lang: "en-GB", limit: 3 }))).toBe("matched");
    expect(textOf(await c.callTool("search", { q: "weather", lang: "en" }))).toBe("matched"); // ANY: missing is fine
    // Each of these breaks one field.
    for (const args of [{ q: "the weather", lang: "en" }, { q: "weather", lang: "de" }, { q: "weather", lang: "en", page: 2 }, { q: 7, lang: "en" }]) {
      expect(textOf(await c.callTool("search", args))).toMatch(/No stub answers tools\/call "search"|does not match/);
    }
  });

  test("the stub sentence and the near-miss report show the patterns as the DSL writes them", async () => {
    const c = await started((m) => m.toolsCall("search").withArgs({ q: /^wea/, page: ABSENT, lang: contains("en") }).respondsWith("matched"));
    expect(mock!.stubs().find((s) => s.source !== "default")?.sentence).toBe('tools/call "search" with arguments equal to {"q":/^wea/,"page":ABSENT,"lang":contains("en")} → text "matched" (seen 0)');
    const report = textOf(await c.callTool("search", { q: "weather", page: 2, lang: "en" }));
    expect(report).toContain("args.page: ABSENT");
    expect(report).toMatch(/args\.page: 2 +<<<<< arguments do not match/);
  });

  // A global RegExp's lastIndex was reset before each test: a frozen one (deep-frozen test
  // data) threw on every call (-32603 to the client, a TypeError from verify), and the user's
  // own RegExp was changed under them.
  test("a frozen global RegExp matches call after call, and the user's RegExp is left as it is", async () => {
    const wea = Object.freeze(/^wea/g);
    const mine = /port$/g;
    mine.lastIndex = 3;
    const c = await started((m) => m.toolsCall("search").withArgs({ q: wea, r: mine }).respondsWith("matched"));
    for (let i = 0; i < 3; i++) expect(textOf(await c.callTool("search", { q: "weather", r: "report" }))).toBe("matched");
    expect(textOf(await c.callTool("search", { q: "the weather", r: "report" }))).toMatch(/No stub answers tools\/call "search"/);
    mock!.verify(toolsCall("search").withArgs({ q: wea, r: ANY }), 3);
    expect(mine.lastIndex).toBe(3);
  });

  test("verify() takes the same patterns", async () => {
    const c = await started((m) => m.toolsCall("search").withArgs(ANY).respondsWith("ok"));
    await c.callTool("search", { q: "weather report" });
    mock!.verify(toolsCall("search").withArgs({ q: contains("report") }), 1);
    mock!.verify(toolsCall("search").withArgsMatching({ page: ABSENT }), 1);
    expect(() => mock!.verify(toolsCall("search").withArgs({ q: /^report/ }))).toThrow(/at least once, but received it never/);
  });
});

describe("fields named like Object.prototype's members", () => {
  // A received "constructor" or "toString" is a field like any other: withArgs (exact, with a
  // pattern inside) refuses it as unexpected, and ABSENT holds for a field the call did not send.
  test("an extra constructor/toString field is unexpected; ABSENT holds for an unsent toString", async () => {
    const c = await started((m) => m.toolsCall("search").withArgs({ q: ANY }).respondsWith("exact"));
    for (const args of [{ q: "x", constructor: 1 }, { q: "x", toString: "y" }, { q: "x", hasOwnProperty: true }]) {
      expect(textOf(await c.callTool("search", args))).toMatch(/No stub answers tools\/call "search"/);
    }
    expect(textOf(await c.callTool("search", { q: "plain" }))).toBe("exact");
    mock!.reset();
    mock!.toolsCall("search").withArgsMatching({ q: "plain", toString: ABSENT }).respondsWith("no toString");
    expect(textOf(await c.callTool("search", { q: "plain" }))).toBe("no toString");
    expect(mock!.findRequests(toolsCall("search").withArgs({ q: ANY }))).toHaveLength(1);
  });
});

describe("the data form in definitions", () => {
  test("$regex, $contains, $any, $absent and $literal match as their DSL values do", async () => {
    mock = await McpMock.fromDefinition(
      {
        tools: [{ name: "search", inputSchema: { type: "object" } }],
        responses: [
          { tool: "search", args: { q: { $regex: "^wea" }, page: { $absent: true }, tag: { $literal: { $any: true } } }, result: "literal tag" },
          { tool: "search", argsMatching: { q: { $contains: "news" }, limit: { $any: true } }, result: "news" },
        ],
      },
      { onUnmatched: "silent" },
    );
    client = await connect("v1", mock.url);
    expect(textOf(await client.callTool("search", { q: "weather", tag: { $any: true } }))).toBe("literal tag");
    expect(textOf(await client.callTool("search", { q: "weather", tag: "x" }))).not.toBe("literal tag");
    expect(textOf(await client.callTool("search", { q: "latest news", limit: 5, extra: true }))).toBe("news");
  });

  test("headers: $regex and $absent", async () => {
    mock = await McpMock.fromDefinition(
      {
        tools: [{ name: "search", inputSchema: { type: "object" } }],
        responses: [
          { tool: "search", headers: { authorization: { $regex: "^Bearer " } }, result: "signed in" },
          { tool: "search", headers: { authorization: { $absent: true } }, result: "anonymous" },
        ],
      },
      { onUnmatched: "silent" },
    );
    client = await connect("v1", mock.url);
    expect(textOf(await client.callTool("search", {}))).toBe("anonymous");
    expect(mock.stubs().filter((s) => s.source !== "default").map((s) => s.sentence)).toEqual([
      'tools/call "search" with header authorization matching /^Bearer /u → text "signed in" (seen 0)',
      'tools/call "search" with header authorization absent → text "anonymous" (seen 1)',
    ]);
  });
});
