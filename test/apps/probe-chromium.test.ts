/**
 * A real host renders mcpmock's probe (issue 40): a page in Chromium built on the official
 * ext-apps host side (`AppBridge`) renders the probe view the mock serves, relays the view's
 * tool calls to the test's MCP client, and the test reads what happened with `appEvents()`:
 * the handshake answered with host context, the tool input before the result, a scripted
 * `tools/call` that reached the mock through the host, teardown; and a wrong host is caught.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { McpMock, appEvent, toolsCall, type AppEvent, type MockDefinition } from "../../src/index.js";
import { startCli } from "../support/cli-run.js";
import { startHostBrowser, type HostBrowser, type HostOptions, type HostRun } from "./host/browser-host.js";

const PROBE = "ui://probe/view.html";
let browser: HostBrowser;
const dir = mkdtempSync(join(tmpdir(), "mcpmock-apps-host-"));

beforeAll(async () => {
  browser = await startHostBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The probe with a script: when the tool's result comes, the view calls the app-only tool "refresh" through the host. */
const definition: MockDefinition = {
  tools: [
    { name: "show_weather", inputSchema: { type: "object" }, ui: { resourceUri: PROBE } },
    { name: "refresh", inputSchema: { type: "object" }, ui: { resourceUri: PROBE, visibility: ["app"] } },
  ],
  apps: [{ uri: PROBE, probe: { on: { "ui/notifications/tool-result": [{ method: "tools/call", params: { name: "refresh", arguments: { city: "Paris" } } }] } } }],
  responses: [
    { tool: "show_weather", result: { temperature: 21 } },
    { tool: "refresh", result: { temperature: 22 } },
  ],
};

function startMock(): Promise<McpMock> {
  return McpMock.fromDefinition(definition);
}

/** The host page plays show_weather's app (rightly, or wrongly as asked). */
function host(mock: McpMock, wrong: Omit<HostOptions, "tool"> = {}): Promise<HostRun> {
  return browser.host(mock.url, { tool: "show_weather", arguments: { city: "Paris" }, ...wrong });
}

const index = (events: AppEvent[], from: string, method: string): number => events.findIndex((e) => e.from === from && e.method === method);

describe("a real host renders the probe", { timeout: 30_000 }, () => {
  test("handshake, input before result, a scripted call through the host, teardown", async () => {
    await using mock = await startMock();
    const run = await host(mock);
    await mock.waitForAppEvent(appEvent("tools/call", { from: "host", answer: true }), { timeout: 10_000 });
    await run.teardown();
    await mock.waitForAppEvent(appEvent("ui/resource-teardown", { from: "view", answer: true }), { timeout: 10_000 });
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
    await mock.waitForAppEvent(appEvent("tools/call", { from: "host", answer: true }), { timeout: 10_000 });
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

  test("a host that never answers ui/initialize is caught: the answer is named as missing", async () => {
    await using mock = await startMock();
    const run = await host(mock, { noHandshake: true });
    // The view's request arrives by the direct route: it never got to call through the host.
    await mock.waitForAppEvent(appEvent("ui/initialize", { from: "view" }), { timeout: 10_000 });
    const handshake = (): void => mock.verifyAppEvents([appEvent("ui/initialize", { from: "view" }), appEvent("ui/initialize", { from: "host", answer: true })]);
    expect(handshake).toThrow(/1\. view → host ui\/initialize: ✓ #0\n  2\. host → view ui\/initialize \(an answer\): ✗ missing: no such event arrived/);
    expect(handshake).toThrow(/App events received \(1\):\n  #0 view ui\/initialize \{"appCapabilities":\{\},"appInfo":\{"name":"mcpmock-probe"/);
    await expect(mock.waitForAppEvent(appEvent("ui/initialize", { from: "host", answer: true }), { timeout: 100 })).rejects.toThrow(/host → view ui\/initialize \(an answer\): ✗ missing/);
    expect(mock.findRequests(toolsCall("mcpmock_probe_report"))).toHaveLength(0);
    await run.close();
  });
});

describe("the same probe from a definition file, served by mcpmock serve", { timeout: 30_000 }, () => {
  test("rendered through HTTP; the events in GET /__admin/app-events, on --verbose's stderr and in the inspector's journal", async () => {
    const file = join(dir, "probe.mock.json");
    writeFileSync(file, JSON.stringify(definition));
    const serve = startCli(["serve", file, "--port", "0", "--verbose"]);
    try {
      const url = /at (http:\/\/\S+\/mcp)/.exec(await serve.waitFor("stdout", (out) => /at http:\/\/\S+\/mcp/.test(out)))?.[1] as string;
      const run = await browser.host(url, { tool: "show_weather", arguments: { city: "Paris" } });
      await serve.waitFor("stderr", (err) => err.includes("host → view tools/call (answer)"));
      await run.teardown();
      await serve.waitFor("stderr", (err) => err.includes("view → host ui/resource-teardown (answer)"));
      const events = (await (await fetch(new URL("/__admin/app-events", url))).json()) as AppEvent[];
      const methods = events.map((e) => `${e.from} ${e.method}${e.result !== undefined ? " (answer)" : ""}`);
      expect(methods.slice(0, 2)).toEqual(["view ui/initialize", "host ui/initialize (answer)"]);
      expect(methods).toContain("view tools/call");
      expect(methods.indexOf("host ui/notifications/tool-input")).toBeLessThan(methods.indexOf("host ui/notifications/tool-result"));
      // One line per event on stderr, after the request lines, naming the app.
      const lines = serve.out.stderr.split("\n").filter((l) => l.includes(`app ${PROBE}`));
      expect(lines.length).toBe(events.length);
      expect(lines[1]).toMatch(/^\[mcpmock\] app ui:\/\/probe\/view\.html: host → view ui\/initialize \(answer\) → \{"protocolVersion":/);
      expect(serve.out.stderr).toMatch(/← tools\/call "refresh" \{"name":"refresh","arguments":\{"city":"Paris"\}\} → /);
      // The inspector's journal shows them as rows beside the requests, and new ones as they come.
      const inspector = await browser.context.newPage();
      await inspector.goto(new URL("/__admin/ui", url).href);
      const rows = inspector.locator("#journal li.app-event");
      await rows.first().waitFor({ timeout: 10_000 });
      expect(await rows.count()).toBe(events.length);
      expect(await inspector.locator("#journal-count").textContent()).toContain(`${events.length} app events`);
      const handshake = inspector.locator("#journal li.app-event", { hasText: "ui/initialize" }).filter({ hasText: "host → view" });
      await handshake.locator("button.summary").click();
      expect(await handshake.locator(".details pre").textContent()).toContain('"hostInfo"');
      await fetch(new URL("/__mcpmock/app-events", url), { method: "POST", body: "{not json" });
      await inspector.locator("#journal li.app-event.miss", { hasText: "mcpmock/report-refused" }).waitFor({ timeout: 10_000 });
      expect(await rows.count()).toBe(events.length + 1);
      await inspector.close();
      await run.close();
    } finally {
      serve.kill();
      await serve.exited;
    }
  });
});
