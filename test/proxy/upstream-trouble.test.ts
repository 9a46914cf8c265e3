/**
 * Upstream trouble is an answer, never a hang: an upstream that is not listening, resets the
 * connection (at once or mid-stream), answers non-JSON or 500, or never answers gives the client
 * a JSON-RPC error naming the upstream and what happened; stubbed calls keep working; one that
 * sends every answer twice still answers each call with its own; a stdio
 * upstream that exits is reported, and the next call starts it again.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpMock } from "../../src/index.js";
import { freePort } from "../support/recording.js";
import { badUpstream, type Misbehaviour } from "./bad-upstream.js";

const stderr: string[] = [];
function captureStderr(): void {
  stderr.length = 0;
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (stderr.push(String(chunk)), true));
}
afterEach(() => {
  vi.restoreAllMocks();
});

async function connected(url: string): Promise<Client> {
  const client = new Client({ name: "t", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** The error a call got, as `code: message`. */
async function failureOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return `${(error as { code?: number }).code}: ${(error as Error).message}`;
  }
  throw new Error("the call did not fail");
}

describe("upstream trouble is an answer naming the upstream", () => {
  it("an upstream that is not listening: start resolves with a warning; proxied calls fail clearly, stubbed calls work", async () => {
    captureStderr();
    const port = await freePort();
    await using mock = await McpMock.start({ proxy: { target: `http://127.0.0.1:${port}/mcp` } });
    expect(stderr.join("")).toMatch(new RegExp(`\\[mcpmock\\] warning: the upstream http://127\\.0\\.0\\.1:${port}/mcp could not be reached: .*ECONNREFUSED`));
    mock.toolsCall("stubbed").respondsWith("still here");
    const client = await connected(mock.url);
    try {
      expect(JSON.stringify(await client.callTool({ name: "stubbed", arguments: {} }))).toContain("still here");
      const error = await failureOf(client.callTool({ name: "real", arguments: {} }));
      expect(error).toMatch(new RegExp(`^-32603: MCP error -32603: \\[mcpmock\\] the upstream http://127\\.0\\.0\\.1:${port}/mcp could not be reached: .*ECONNREFUSED`));
    } finally {
      await client.close();
    }
  });

  const cases: Array<[Misbehaviour, RegExp]> = [
    ["reset", /did not answer tools\/call: .*(fetch failed|socket|closed|terminated)/i],
    ["reset-mid-stream", /did not answer tools\/call: .*(terminated|closed|socket|no answer)/i],
    ["non-json", /did not answer tools\/call: .*(JSON|Unexpected token)/i],
    ["status-500", /did not answer tools\/call: .*500/],
    ["silent", /did not answer tools\/call: no answer within 400 ms/],
  ];
  it.each(cases)("an upstream whose tools/call answer is %s", async (behaviour, expected) => {
    const upstream = await badUpstream(behaviour);
    try {
      await using mock = await McpMock.start({ proxy: { target: upstream.url }, clientTimeoutMs: 400 });
      mock.toolsCall("stubbed").respondsWith("still here");
      const client = await connected(mock.url);
      try {
        const started = Date.now();
        const error = await failureOf(client.callTool({ name: "any", arguments: {} }));
        expect(error).toMatch(/^-32603: .*\[mcpmock\] the upstream http:\/\/127\.0\.0\.1:\d+\/mcp /);
        expect(error).toMatch(expected);
        expect(Date.now() - started).toBeLessThan(3_000);
        expect(JSON.stringify(await client.callTool({ name: "stubbed", arguments: {} }))).toContain("still here");
      } finally {
        await client.close();
      }
    } finally {
      await upstream.close();
    }
  });

  it("an upstream that sends each answer twice (a response nobody asked for after it): every call, one after another and at once, gets its own answer", async () => {
    const upstream = await badUpstream("answers-twice");
    try {
      await using mock = await McpMock.start({ proxy: { target: upstream.url }, clientTimeoutMs: 2_000 });
      const client = await connected(mock.url);
      try {
        const text = async (name: string): Promise<string> => ((await client.callTool({ name, arguments: {} })) as { content: { text: string }[] }).content[0]?.text ?? "";
        for (const name of ["a", "b", "c"]) expect(await text(name)).toBe(`twice ${name}`);
        expect(await Promise.all(["d", "e", "f", "g"].map(text))).toEqual(["twice d", "twice e", "twice f", "twice g"]);
      } finally {
        await client.close();
      }
    } finally {
      await upstream.close();
    }
  });

  it("a stdio upstream that exits is reported in one line, and the next call starts it again", async () => {
    captureStderr();
    await using mock = await McpMock.start({ proxy: { command: process.execPath, args: ["test/fixtures/dying-server.mjs"] } });
    const client = await connected(mock.url);
    try {
      const first = JSON.stringify(await client.callTool({ name: "alive", arguments: {} }));
      const error = await failureOf(client.callTool({ name: "die", arguments: {} }));
      expect(error).toMatch(/\[mcpmock\] the upstream .*dying-server\.mjs did not answer tools\/call: the connection to .*dying-server\.mjs closed \(its last words: "dying now, as asked"\)/);
      const reports = stderr.join("").split("\n").filter((l) => l.includes("closed"));
      expect(reports).toHaveLength(1);
      expect(reports[0]).toMatch(/the next call opens a new session \(the server is started again\)/);
      const again = JSON.stringify(await client.callTool({ name: "alive", arguments: {} }));
      expect(again).toMatch(/alive \d+/);
      expect(again).not.toBe(first); // another process
    } finally {
      await client.close();
    }
  });
});
