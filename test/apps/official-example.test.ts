/**
 * The official MCP App example server from npm (`@modelcontextprotocol/server-basic-vanillajs`,
 * a dev dependency, over stdio) recorded, replayed and proxied (issue 40): its view's HTML
 * comes back byte for byte as the package ships it, with the tool's `_meta.ui`; and a real host
 * (Chromium, the official `AppBridge`) renders the replayed view, which completes its handshake
 * and calls its server tool through the host, answered by the replay.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpMock, toolsCall, type MockDefinition } from "../../src/index.js";
import { record } from "../../src/recording/index.js";
import { HOST_CAPABILITIES, startHostBrowser } from "./host/browser-host.js";

const PACKAGE = join(import.meta.dirname, "../../node_modules/@modelcontextprotocol/server-basic-vanillajs");
const SERVER = { command: process.execPath, args: [join(PACKAGE, "dist/index.js"), "--stdio"] };
/** The view as the package ships it (the server reads this file). */
const SHIPPED = readFileSync(join(PACKAGE, "dist/mcp-app.html"));
const VIEW = "ui://get-time/mcp-app.html";
const dir = mkdtempSync(join(tmpdir(), "mcpmock-apps-official-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A client that declares the ui extension, on a URL (Streamable HTTP) or a transport. */
async function connected(to: string | Transport): Promise<Client> {
  const client = new Client({ name: "host", version: "1" }, { capabilities: HOST_CAPABILITIES as never });
  await client.connect(typeof to === "string" ? new StreamableHTTPClientTransport(new URL(to)) : to);
  return client;
}

/** What a host reads of the server: the tool's listing and the view. */
async function appOf(client: Client): Promise<{ tool: unknown; view: { uri: string; mimeType?: string; text: string } }> {
  const tool = (await client.listTools()).tools.find((t) => t.name === "get-time");
  const view = (await client.readResource({ uri: VIEW })).contents[0] as { uri: string; mimeType?: string; text: string };
  return { tool, view };
}

describe("the official example app server", () => {
  test("recorded, replayed and proxied: the view byte for byte, and a real host renders the replay", { timeout: 60_000 }, async () => {
    // The real server, directly: what a host reads.
    const direct = await connected(new StdioClientTransport({ ...SERVER, stderr: "pipe" }));
    const real = await appOf(direct);
    await direct.close();
    expect(Buffer.from(real.view.text, "utf8").equals(SHIPPED)).toBe(true);
    expect(real.view.mimeType).toBe("text/html;profile=mcp-app");
    expect((real.tool as { _meta?: unknown })._meta).toEqual({ ui: { resourceUri: VIEW }, "ui/resourceUri": VIEW });

    let recordedTime = "";
    const { definition } = await record({
      ...SERVER,
      out: join(dir, "basic-vanillajs.json"),
      capabilities: HOST_CAPABILITIES,
      session: async (client) => {
        await appOf(client);
        recordedTime = ((await client.callTool({ name: "get-time", arguments: {} })).structuredContent as { time: string }).time;
      },
    });
    expect(JSON.parse(readFileSync(join(dir, "basic-vanillajs.json"), "utf8"))).toEqual(JSON.parse(JSON.stringify(definition)));

    // Replayed from the file written, over HTTP.
    await using replay = await McpMock.fromDefinition(join(dir, "basic-vanillajs.json"));
    const replayed = await connected(replay.url);
    const again = await appOf(replayed);
    await replayed.close();
    expect(Buffer.from(again.view.text, "utf8").equals(SHIPPED)).toBe(true);
    expect(again).toEqual(real);

    // Proxied to the server on stdio.
    await using proxy = await McpMock.start({ proxy: SERVER });
    const proxied = await connected(proxy.url);
    expect(await appOf(proxied)).toEqual(real);
    expect((proxied.getServerCapabilities() as { resources?: unknown }).resources).toBeDefined();
    await proxied.close();
    // ... and what the proxy saw, replayed again.
    await using snapshot = await McpMock.fromDefinition(proxy.snapshot() as MockDefinition);
    const fromSnapshot = await connected(snapshot.clientTransport());
    expect(await appOf(fromSnapshot)).toEqual(real);
    await fromSnapshot.close();

    // A real host renders the replayed view: the handshake completes (renderApp waits for it),
    // and the view's button calls get-time through the host, answered by the replay.
    const browser = await startHostBrowser();
    try {
      const run = await browser.host(replay.url, { tool: "get-time" });
      expect(Buffer.from(run.html, "utf8").equals(SHIPPED)).toBe(true);
      expect(replay.findRequests(toolsCall("get-time"))).toHaveLength(1);
      await run.view().click("#get-time-btn");
      await run.view().waitForFunction((time) => document.getElementById("server-time")?.textContent === time, recordedTime, { timeout: 10_000 });
      expect(replay.findRequests(toolsCall("get-time"))).toHaveLength(2);
      await run.close();
    } finally {
      await browser.close();
    }
  });
});
