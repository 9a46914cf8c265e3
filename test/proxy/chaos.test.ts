/**
 * Chaos on real traffic: a delay on a proxied pattern slows the real server's answers; a fault
 * rate fails the same calls twice for one seed (and the rest are the real server's); every
 * fault kind breaks the real answer on its way back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ANY, McpMock, type FaultKind } from "../../src/index.js";
import { openSession } from "../support/raw-http.js";
import { everythingOverHttp, STDIO_UPSTREAM } from "./everything.js";

let http: Awaited<ReturnType<typeof everythingOverHttp>>;
beforeAll(async () => {
  http = await everythingOverHttp();
});
afterAll(async () => {
  await http.stop();
});

async function connected(url: string): Promise<Client> {
  const client = new Client({ name: "t", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Which of `n` echo calls fail ("x") or get the real answer ("."), in front of `proxy` with `seed`. */
async function failurePattern(proxy: ConstructorParameters<typeof Object>[0], seed: number, n: number): Promise<string> {
  await using mock = await McpMock.start({ proxy, seed, onUnmatched: "silent" });
  mock.toolsCall("echo").fails("connection-reset", { rate: 0.4 });
  const client = await connected(mock.url);
  let pattern = "";
  try {
    for (let i = 0; i < n; i++) {
      // Only the call sits in the try: a wrong answer fails the test instead of counting as a fault.
      let result: Awaited<ReturnType<Client["callTool"]>>;
      try {
        result = await client.callTool({ name: "echo", arguments: { message: `m${i}` } });
      } catch {
        pattern += "x";
        continue;
      }
      expect(result.content).toEqual([{ type: "text", text: `Echo: m${i}` }]);
      pattern += ".";
    }
  } finally {
    await client.close();
  }
  return pattern;
}

describe("chaos on real traffic", () => {
  it.each(["stdio", "http"] as const)("a seeded fault rate fails the same calls twice, and only about that share (over %s)", async (wire) => {
    const proxy = wire === "stdio" ? STDIO_UPSTREAM : { target: http.url };
    const first = await failurePattern(proxy, 7, 20);
    const second = await failurePattern(proxy, 7, 20);
    expect(second).toBe(first);
    const failed = [...first].filter((c) => c === "x").length;
    expect(failed).toBeGreaterThan(2);
    expect(failed).toBeLessThan(16);
    expect(await failurePattern(proxy, 8, 20)).not.toBe(first);
  }, 60_000);

  it("withDelay({ min, max }) on a proxied pattern delays the real answers", async () => {
    await using mock = await McpMock.start({ proxy: { target: http.url } });
    mock.toolsCall(ANY).withDelay({ min: 200, max: 260 }).proxies();
    const client = await connected(mock.url);
    try {
      const started = Date.now();
      const result = await client.callTool({ name: "echo", arguments: { message: "slow" } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      expect(result.content).toEqual([{ type: "text", text: "Echo: slow" }]);
    } finally {
      await client.close();
    }
    expect(mock.requests().find((e) => e.method === "tools/call")?.proxied).toBe(true);
  });

  const echo = (id: number): string => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { message: "real" } } });
  const kinds: Array<[FaultKind, (res: Response | Error, body: string) => void]> = [
    ["connection-reset", (res) => expect(res).toBeInstanceOf(Error)],
    ["empty-response", (res, body) => (expect((res as Response).status).toBe(200), expect(body).toBe(""))],
    ["malformed-json", (_res, body) => (expect(body).toMatch(/^\{"jsonrpc":"2\.0","id":7,"result"/), expect(() => JSON.parse(body)).toThrow())],
    ["wrong-id", (_res, body) => expect(JSON.parse(body)).toMatchObject({ id: 1_000_007, result: { content: [{ type: "text", text: "Echo: real" }] } })],
    ["duplicate-response", (_res, body) => expect(body.match(/Echo: real/g)).toHaveLength(2)],
    // The result is kept for a client that resumes; this stream ends before it.
    ["drop-stream-after", (res, body) => (expect((res as Response).headers.get("content-type")).toBe("text/event-stream"), expect(body).not.toContain("Echo: real"))],
  ];
  it.each(kinds)("the fault %s breaks the real server's answer on its way back", async (kind, check) => {
    await using mock = await McpMock.start({ proxy: { target: http.url } });
    mock.toolsCall("echo").fails(kind);
    const { headers } = await openSession(mock.url);
    let res: Response | Error;
    let body = "";
    try {
      res = await fetch(mock.url, { method: "POST", headers, body: echo(7) });
      body = await res.text();
    } catch (error) {
      res = error as Error;
    }
    check(res, body);
    await expect.poll(() => mock.requests().find((e) => e.method === "tools/call")?.proxied).toBe(true);
  });
});
