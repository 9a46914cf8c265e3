/**
 * A 2026-07-28 client (the v2 client pinned to it, no session) in front of a 2025-11-25
 * upstream: the mock serves it statelessly and keeps its own session with the upstream;
 * results come back in the 2026 form, progress passes through.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpMock } from "../../src/index.js";
import { everythingOverHttp, STDIO_UPSTREAM } from "./everything.js";

let http: Awaited<ReturnType<typeof everythingOverHttp>>;
beforeAll(async () => {
  http = await everythingOverHttp();
});
afterAll(async () => {
  await http.stop();
});

describe("a 2026-07-28 client in front of a 2025-11-25 upstream", () => {
  it.each(["stdio", "http"] as const)("is served statelessly while the mock keeps its session with the upstream (over %s)", async (wire) => {
    await using mock = await McpMock.start({ proxy: wire === "stdio" ? STDIO_UPSTREAM : { target: http.url }, tools: [{ name: "local", inputSchema: { type: "object" } }] });
    mock.toolsCall("local").respondsWith("mine");
    const client = new Client({ name: "v2", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["local", "echo", "get-sum"]));
      expect(await client.callTool({ name: "echo", arguments: { message: "from 2026" } })).toMatchObject({ content: [{ type: "text", text: "Echo: from 2026" }] });
      expect(await client.callTool({ name: "local", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "mine" }] });
      const progress: unknown[] = [];
      await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 } }, { onprogress: (p: unknown) => void progress.push(p) } as never);
      expect(progress).toHaveLength(2);
    } finally {
      await client.close();
    }
    const calls = mock.requests().filter((e) => e.method === "tools/call" && e.proxied);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.every((e) => e.protocolVersion === "2026-07-28" && e.sessionId === undefined)).toBe(true);
    expect((calls[0]?.answer as { result?: { resultType?: string } }).result?.resultType).toBe("complete");
  }, 30_000);
});
