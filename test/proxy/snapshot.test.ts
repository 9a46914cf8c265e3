/**
 * Snapshots: what the upstream answered becomes a definition (the recorder's writer, its
 * redact and ignore pointers), which replays the same answers without the upstream; the
 * upstream's credentials reach neither the journal nor the snapshot; the admin API serves it.
 */
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpMock } from "../../src/index.js";
import { STDIO_UPSTREAM } from "./everything.js";

const SECRET = "sekret-value-1234";

/** The answers a client gets to the same calls. */
async function session(url: string): Promise<unknown[]> {
  const client = new Client({ name: "t", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return [
      (await client.listTools()).tools.map((t) => t.name).sort(),
      await client.callTool({ name: "echo", arguments: { message: "one" } }),
      await client.callTool({ name: "echo", arguments: { message: "two" } }),
      await client.callTool({ name: "get-sum", arguments: { a: 2, b: 5 } }),
      await client.getPrompt({ name: "args-prompt", arguments: { city: "Oslo" } }),
      await client.readResource({ uri: "demo://resource/static/document/architecture.md" }),
      client.getServerVersion()?.name,
    ];
  } finally {
    await client.close();
  }
}

describe("mock.snapshot()", () => {
  it("turns what was proxied into a definition that replays without the upstream, with no upstream credential in it or in the journal", async () => {
    let definition;
    let real: unknown[];
    {
      await using mock = await McpMock.start({ proxy: { ...STDIO_UPSTREAM, env: { API_KEY: SECRET } }, admin: true });
      real = await session(mock.url);
      const client = new Client({ name: "t", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
      const env = JSON.stringify(await client.callTool({ name: "get-env", arguments: {} }));
      await client.close();
      // The client gets the upstream's answer as it was sent; what the mock keeps holds no secret.
      expect(env).toContain(`\\"API_KEY\\": \\"${SECRET}\\"`);
      expect(JSON.stringify(mock.requests())).not.toContain(SECRET);
      definition = mock.snapshot();
      expect(JSON.stringify(definition)).not.toContain(SECRET);
      const admin = await fetch(new URL("/__admin/recordings/snapshot", mock.url), { method: "POST" });
      expect(await admin.json()).toEqual(definition);
      const redacted = mock.snapshot({ redact: ["/content/0/text"] });
      const adminRedacted = await fetch(new URL("/__admin/recordings/snapshot", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redact: ["/content/0/text"] }) });
      expect(await adminRedacted.json()).toEqual(redacted);
      expect(redacted.responses?.find((r) => r.tool === "get-sum")?.result).toEqual({ content: [{ type: "text", text: "[redacted]" }] });
    }
    expect(definition.server?.name).toBe("mcp-servers/everything");
    expect(definition.tools?.map((t) => t.name)).toContain("get-sum");
    await using replay = await McpMock.fromDefinition(definition);
    expect(await session(replay.url)).toEqual(real);
    expect(replay.requests().some((e) => e.proxied)).toBe(false);
  }, 30_000);
});
