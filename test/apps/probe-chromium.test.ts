/**
 * A real host renders mcpmock's probe (issue 40): a page in Chromium built on the official
 * ext-apps host side (`AppBridge`) renders the probe view the mock serves, relays the view's
 * tool calls to the test's MCP client, and the test reads what happened with `appEvents()`:
 * the handshake answered with host context, the tool input before the result, a scripted
 * `tools/call` that reached the mock through the host, teardown; and a wrong host is caught.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { chromium, type BrowserContext } from "playwright-core";
import { McpMock, appEvent, toolsCall, type AppEvent } from "../../src/index.js";
import { findChromium } from "../support/chromium.js";

/** Chromium as the inspector tests run it, and with loopback reachable from the sandboxed view (the probe's direct reports). */
async function launchBrowser(): Promise<BrowserContext & AsyncDisposable> {
  const { path } = await findChromium();
  const profile = mkdtempSync(join(tmpdir(), "mcpmock-apps-chromium-"));
  const args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-features=LocalNetworkAccessChecks"];
  const context = await chromium.launchPersistentContext(profile, { executablePath: path, headless: true, args });
  const end = context.close.bind(context);
  const close = async (): Promise<void> => {
    await end();
    rmSync(profile, { recursive: true, force: true });
  };
  return Object.assign(context, { [Symbol.asyncDispose]: close, close });
}

const PROBE = "ui://probe/view.html";
let browser: BrowserContext & AsyncDisposable;
let hostScript: string;

beforeAll(async () => {
  const here = fileURLToPath(new URL(".", import.meta.url));
  const [bundle, launched] = await Promise.all([
    build({ entryPoints: [join(here, "host/host-page.ts")], bundle: true, write: false, format: "iife", platform: "browser", target: "es2020", logLevel: "warning" }),
    launchBrowser(),
  ]);
  hostScript = (bundle.outputFiles[0]?.text ?? "").replace(/<\/script/gi, "<\\/script");
  browser = launched;
});
afterAll(async () => {
  await browser?.close();
});

async function startMock(): Promise<McpMock> {
  const mock = await McpMock.start({
    tools: [
      { name: "show_weather", inputSchema: { type: "object" }, ui: { resourceUri: PROBE } },
      { name: "refresh", inputSchema: { type: "object" }, ui: { resourceUri: PROBE, visibility: ["app"] } },
    ],
    apps: [{ uri: PROBE, probe: { on: { "ui/notifications/tool-result": [{ method: "tools/call", params: { name: "refresh", arguments: { city: "Paris" } } }] } } }],
  });
  mock.toolsCall("show_weather").respondsWith({ temperature: 21 });
  mock.toolsCall("refresh").respondsWith({ temperature: 22 });
  return mock;
}

/** Runs the host page on one app: the test's client calls the tool, the page renders the app and relays calls. */
async function host(mock: McpMock, wrong: { resultFirst?: boolean; refuseCalls?: boolean } = {}): Promise<{ client: Client; teardown: () => Promise<void>; close: () => Promise<void> }> {
  const client = new Client({ name: "test-host", version: "1.0.0" }, { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } } as never });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  const tool = (await client.listTools()).tools.find((t) => t.name === "show_weather");
  const uri = (tool?._meta?.["ui"] as { resourceUri: string }).resourceUri;
  const html = (await client.readResource({ uri })).contents[0] as { text: string };
  const toolResult = await client.callTool({ name: "show_weather", arguments: { city: "Paris" } });
  const page = await browser.newPage();
  await page.exposeFunction("hostCallTool", (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool(params));
  const origin = new URL(mock.url).origin;
  await page.route(`${origin}/__test/host.html`, (route) => route.fulfill({ contentType: "text/html", body: `<!doctype html><body><script>${hostScript}</script></body>` }));
  await page.goto(`${origin}/__test/host.html`);
  await page.evaluate((run) => window.renderApp(run), { html: html.text, toolInput: { city: "Paris" }, toolResult, ...wrong });
  return {
    client,
    teardown: () => page.evaluate(() => window.teardownApp()),
    close: async () => {
      await page.close();
      await client.close();
    },
  };
}

const index = (events: AppEvent[], from: string, method: string): number => events.findIndex((e) => e.from === from && e.method === method);

describe("a real host renders the probe", () => {
  test("handshake, input before result, a scripted call through the host, teardown", async () => {
    await using mock = await startMock();
    const run = await host(mock);
    await mock.waitForAppEvent(appEvent("tools/call", { from: "host", answer: true }), { timeout: 5000 });
    await run.teardown();
    await mock.waitForAppEvent(appEvent("ui/resource-teardown", { from: "view", answer: true }), { timeout: 5000 });
    mock.verifyAppEvents([
      appEvent("ui/initialize", { from: "view", answer: false }),
      appEvent("ui/initialize", { from: "host", answer: true, contains: { hostContext: { theme: "light" } } }),
      appEvent("ui/notifications/tool-input", { from: "host", contains: { arguments: { city: "Paris" } } }),
      appEvent("ui/notifications/tool-result", { from: "host" }),
      appEvent("tools/call", { from: "view", contains: { name: "refresh" } }),
      appEvent("ui/resource-teardown", { from: "host" }),
    ]);
    mock.verifyAppEvents([appEvent("ui/notifications/tool-result", { from: "host" })], { times: 1 });
    const events = mock.appEvents();
    const init = events.find((e) => e.from === "host" && e.method === "ui/initialize" && e.result !== undefined);
    expect(init?.result).toMatchObject({ hostInfo: { name: "test-host" }, hostContext: { theme: "light", displayMode: "inline" } });
    expect(index(events, "view", "ui/initialize")).toBeLessThan(index(events, "view", "ui/notifications/initialized"));
    expect(index(events, "host", "ui/notifications/tool-input")).toBeGreaterThan(-1);
    expect(index(events, "host", "ui/notifications/tool-input")).toBeLessThan(index(events, "host", "ui/notifications/tool-result"));
    expect(events.find((e) => e.from === "host" && e.method === "ui/notifications/tool-input")?.params).toEqual({ arguments: { city: "Paris" } });
    expect(events.find((e) => e.from === "host" && e.method === "tools/call")?.result).toMatchObject({ content: [{ type: "text", text: '{"temperature":22}' }] });
    expect(mock.findRequests(toolsCall("refresh"))).toHaveLength(1);
    expect(events.every((e) => e.app === PROBE)).toBe(true);
    // No event is counted twice, though reports come through the host and directly.
    expect(events.filter((e) => e.from === "view" && e.method === "ui/initialize" && e.params !== undefined)).toHaveLength(1);
    await run.close();
  });

  test("a wrong host is seen: the result before the input, a call it refuses to relay", async () => {
    await using mock = await startMock();
    const run = await host(mock, { resultFirst: true, refuseCalls: true });
    await mock.waitForAppEvent(appEvent("tools/call", { from: "host", answer: true }), { timeout: 5000 });
    const events = mock.appEvents();
    expect(index(events, "host", "ui/notifications/tool-result")).toBeLessThan(index(events, "host", "ui/notifications/tool-input"));
    const order = (): void => mock.verifyAppEvents([appEvent("ui/notifications/tool-input", { from: "host" }), appEvent("ui/notifications/tool-result", { from: "host" })]);
    expect(order).toThrow(/2\. host → view ui\/notifications\/tool-result: ✗ out of order: it came at #\d+, before the event matched above/);
    expect(order).toThrow(/App events received \(\d+\):\n  #0 view ui\/initialize/);
    const relayed = (): void => mock.verifyAppEvents([appEvent("tools/call", { from: "host", answer: true, contains: { content: [] } })]);
    expect(relayed).toThrow(/1\. host → view tools\/call \(an answer\) containing \{"content":\[\]\}: ✗ missing: no such event arrived/);
    await expect(mock.waitForAppEvent(appEvent("ui/resource-teardown"), { timeout: 50 })).rejects.toThrow(/waitForAppEvent: nothing in 50 ms\. .*ui\/resource-teardown: ✗ missing/s);
    expect(events.find((e) => e.from === "host" && e.method === "tools/call")?.error).toMatchObject({ message: expect.stringContaining("does not relay") });
    expect(mock.findRequests(toolsCall("refresh"))).toHaveLength(0);
    await run.close();
  });
});
