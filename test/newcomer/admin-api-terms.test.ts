/**
 * Issue 43, item 4: the admin API as another language's test meets it, over real HTTP with the
 * SDK client as the code under test. Every count form of `POST /__admin/verify` works as
 * documented; a verify of a tool nobody declared (and no client called) is a 404 that says so,
 * not a green `{"ok":true,"matched":0}`; a miss among stubs added through the admin API says to
 * add one through the admin API, not "the responses of the admin request".
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";

let mock: McpMock;
let client: Client;
let admin: string;

const post = async (path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  const response = await fetch(`${admin}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  mock = await McpMock.start({ tools: [{ name: "search", inputSchema: { type: "object" } }], admin: true, onUnmatched: "silent" });
  admin = mock.url.replace(/\/mcp$/, "/__admin");
  expect((await post("/stubs", { responses: [{ tool: "search", args: { q: "mcp" }, result: { hits: 2 } }] })).status).toBe(201);
  client = new Client({ name: "admin-terms", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  await client.callTool({ name: "search", arguments: { q: "mcp" } });
  await client.callTool({ name: "search", arguments: { q: "mcp" } });
});

afterAll(async () => {
  await client?.close();
  await mock?.close();
});

describe("POST /__admin/verify", () => {
  test.each([
    ["left out (at least once)", undefined, true],
    ["a number (exactly)", 2, true],
    ["a number (exactly), wrong", 1, false],
    ['"never"', "never", false],
    ['{"exactly": n}', { exactly: 2 }, true],
    ['{"atLeast": n}', { atLeast: 3 }, false],
    ['{"atMost": n}', { atMost: 2 }, true],
    ['{"atMost": n}, exceeded', { atMost: 1 }, false],
  ])("count %s", async (_, count, ok) => {
    const answer = await post("/verify", { pattern: { tool: "search", args: { q: "mcp" } }, ...(count === undefined ? {} : { count }) });
    expect(answer).toMatchObject(ok ? { status: 200, body: { ok: true, matched: 2 } } : { status: 422, body: { ok: false } });
  });

  test("a tool nobody declared and no client called is a 404 that says so, with the likely name", async () => {
    const answer = await post("/verify", { pattern: { tool: "serch" }, count: "never" });
    expect(answer.status).toBe(404);
    expect(answer.body["error"]).toBe(
      '[mcpmock] verify: no tool "serch" is declared, and no client called it (declared: search). Did you mean "search"? A count of it would hold whatever the client did, so it is refused: verify a declared tool\'s name.',
    );
  });

  test("an undeclared tool a client did call can be verified", async () => {
    await client.callTool({ name: "ghost", arguments: {} }).catch(() => undefined);
    expect(await post("/verify", { pattern: { tool: "ghost" }, count: 1 })).toMatchObject({ status: 200, body: { ok: true, matched: 1 } });
  });
});

test("a miss among stubs added through the admin API says to add one through the admin API", async () => {
  const result = await client.callTool({ name: "search", arguments: { q: "other" } });
  const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
  expect(text).toContain(
    'Check that the args of the "search" stubs added through the admin API (GET /__admin/stubs lists them) match the call, or add it through the admin API: POST /__admin/stubs with { "responses": [{ "tool": "search", "args": {"q":"other"}, "result": ... }] }',
  );
  expect(text).not.toContain("the responses of the admin request");
});
