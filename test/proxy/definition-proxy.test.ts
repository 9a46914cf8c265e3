/**
 * The definition forms of proxy mode and fault rates: `"rate"` beside `"fault"` fails that
 * share of the calls (the same ones for a seed) and the rest fall through to the next entry,
 * with or without an upstream; `"rate"` without `"fault"` is refused where it is written; the
 * stubs explain themselves.
 */
import { describe, expect, it } from "vitest";
import { McpMock, assertMockDefinition } from "../../src/index.js";
import { openSession } from "../support/raw-http.js";

const DEFINITION = {
  tools: [{ name: "add" }],
  responses: [
    { tool: "add", result: "the answer" },
    { tool: "add", fault: { kind: "wrong-id" as const }, rate: 0.3 },
  ],
  options: { seed: 3 },
};

/** Which of n calls got the fault ("x") or the next entry's answer ("."). */
async function pattern(n: number): Promise<string> {
  await using mock = await McpMock.fromDefinition(DEFINITION);
  const { headers } = await openSession(mock.url);
  let out = "";
  for (let id = 1; id <= n; id++) {
    const res = await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "add", arguments: {} } }) });
    const answer = (await res.json()) as { id: number; result: { content: Array<{ text: string }> } };
    out += answer.id === id ? "." : "x";
    if (answer.id === id) expect(answer.result.content[0]?.text).toBe("the answer"); // the entry below it answered
  }
  expect(mock.explain().join("\n")).toContain("the fault wrong-id for 30% of the calls");
  return out;
}

describe("definitions: rate beside fault, proxy on an entry", () => {
  it("a rate fails the same share of calls for a seed; the others get the next entry's answer", async () => {
    const first = await pattern(30);
    expect(await pattern(30)).toBe(first);
    const failed = [...first].filter((c) => c === "x").length;
    expect(failed).toBeGreaterThan(3);
    expect(failed).toBeLessThan(20);
  });

  it("rate without fault is refused where it is written, with the form", () => {
    expect(() => assertMockDefinition({ tools: [{ name: "add" }], responses: [{ tool: "add", result: 1, rate: 0.5 }] } as never, "x.json")).toThrow(
      /responses\[0\]\.rate: rate is the share of calls a fault fails: give it beside "fault"/,
    );
  });

  it("a proxy entry explains itself, and a file with proxy may stub tools it does not declare", () => {
    expect(() => assertMockDefinition({ proxy: { target: "http://127.0.0.1:1/mcp" }, responses: [{ tool: "anything", proxy: true }] } as never, "x.json")).not.toThrow();
    expect(() => assertMockDefinition({ responses: [{ tool: "anything", proxy: true }] } as never, "x.json")).toThrow(/tool "anything" is not in tools/);
  });
});

describe("a definition with a top-level proxy", () => {
  it("serves its stubs and passes the rest to the upstream it names", async () => {
    const { STDIO_UPSTREAM } = await import("./everything.js");
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    await using mock = await McpMock.fromDefinition({
      proxy: { command: STDIO_UPSTREAM.command, args: [...STDIO_UPSTREAM.args] },
      responses: [{ tool: "echo", args: { message: "x" }, result: "from the file" }],
    });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(mock.clientTransport());
    try {
      expect(await client.callTool({ name: "echo", arguments: { message: "x" } })).toMatchObject({ content: [{ type: "text", text: "from the file" }] });
      expect(await client.callTool({ name: "echo", arguments: { message: "y" } })).toMatchObject({ content: [{ type: "text", text: "Echo: y" }] });
    } finally {
      await client.close();
    }
  }, 30_000);
});

// Guards that the proxy rule (a tool or prompt the definition does not declare may be the
// upstream's) is one thing every loader passes on: the dry run (its core gets an upstream that
// sends nothing), a reload (serve --watch), an admin fragment, as well as the start.
describe("proxy mode: every loader lets a definition answer what it does not declare", () => {
  it("the dry run accepts a prompt answer in a file with a proxy section", () => {
    expect(() => assertMockDefinition({ proxy: { target: "http://127.0.0.1:1/mcp" }, responses: [{ prompt: "simple_prompt", result: { messages: [] } }] } as never, "x.json")).not.toThrow();
  });

  it("a proxied mock reloads a file and takes an admin fragment that answer undeclared tools and prompts", async () => {
    const { STDIO_UPSTREAM } = await import("./everything.js");
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const file = join(mkdtempSync(join(tmpdir(), "mcpmock-proxied-")), "stub.json");
    writeFileSync(file, JSON.stringify({ responses: [{ tool: "echo", result: "first" }] }));
    await using mock = await McpMock.fromDefinition(file, { admin: true, proxy: { command: STDIO_UPSTREAM.command, args: [...STDIO_UPSTREAM.args] } });
    writeFileSync(file, JSON.stringify({ responses: [{ tool: "get-sum", result: "second" }, { prompt: "simple_prompt", result: { messages: [] } }] }));
    expect(mock.reloadDefinition(file).stubs).toHaveLength(2);
    const res = await fetch(mock.url.replace(/\/mcp$/, "/__admin/stubs"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ responses: [{ tool: "printEnv", result: "third" }, { prompt: "complex_prompt", result: { messages: [] } }] }),
    });
    expect(await res.text()).toMatch(/"ids"/);
    expect(res.status).toBe(201);
  }, 30_000);
});
