/**
 * A real HTTP+SSE client that nobody here wrote: mcp-remote (a pinned devDependency) in its
 * SSE-only mode, bridging the mock's legacy transport to stdio, driven by the SDK's
 * StdioClientTransport. Loopback only; its config directory is a temporary one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, expect, test } from "vitest";
import { McpMock, toolsCall } from "../../src/index.js";

const require = createRequire(import.meta.url);
/** mcp-remote's bin (dist/proxy.js), found from its package.json. */
const MCP_REMOTE = join(dirname(require.resolve("mcp-remote/package.json")), "dist", "proxy.js");

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

test("mcp-remote --transport sse-only calls a tool through the legacy transport", async () => {
  await using mock = await McpMock.start({ tools: [{ name: "add", inputSchema: { type: "object" } }] });
  mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
  const config = mkdtempSync(join(tmpdir(), "mcpmock-mcp-remote-"));
  dirs.push(config);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_REMOTE, mock.sseUrl, "--transport", "sse-only"],
    env: { PATH: process.env["PATH"] ?? "", HOME: config, MCP_REMOTE_CONFIG_DIR: config },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "via-mcp-remote", version: "1.0.0" });
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    expect(result.content, stderr).toEqual([{ type: "text", text: '{"sum":3}' }]);
    const calls = mock.findRequests(toolsCall("add"));
    expect(calls.map((c) => c.transport)).toEqual(["sse"]);
  } finally {
    await client.close();
  }
}, 30_000);
