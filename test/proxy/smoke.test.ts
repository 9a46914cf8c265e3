import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpMock } from "../../src/index.js";
import { STDIO_UPSTREAM } from "./everything.js";

describe("smoke", () => {
  it("stdio upstream", async () => {
    await using mock = await McpMock.start({ proxy: STDIO_UPSTREAM });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
    const tools = await client.listTools();
    console.log(tools.tools.map((t) => t.name));
    const r = await client.callTool({ name: "echo", arguments: { message: "hi" } });
    console.log(JSON.stringify(r));
    const p: unknown[] = [];
    const r2 = await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: (x) => p.push(x) });
    console.log(JSON.stringify(r2), p);
    console.log(mock.requests().map((e) => [e.method, e.proxied, e.upstream?.durationMs]));
    await client.close();
    expect(1).toBe(1);
  }, 30000);
});
