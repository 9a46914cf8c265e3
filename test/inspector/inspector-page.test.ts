/**
 * The inspector page (GET /__admin/ui) in a real headless Chromium: the stubs are listed as
 * sentences; a call the official SDK client makes after the page loaded appears without a
 * reload; a miss shows its near-miss report and a stub suggestion (definition JSON and DSL)
 * that, posted back to the admin API, answers the same call; the session is listed; the
 * filters and the reset button work; and the page throws no script error.
 *
 * MCPMOCK_SCREENSHOT=docs/inspector.png also saves a screenshot of the page (the README's).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { McpMock, ANY } from "../../src/index.js";
import { launchBrowser } from "../support/browser.js";

const tools = [
  { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } },
  { name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
] as const;

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let mock: McpMock;
let client: Client;
let transport: StreamableHTTPClientTransport;
let page: Page;
const scriptErrors: string[] = [];
let admin: string;

beforeAll(async () => {
  browser = await launchBrowser();
  mock = await McpMock.start({ tools, admin: true, onUnmatched: "silent" });
  mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
  mock.toolsCall("get_weather").withArgs({ city: "Seoul" }).respondsWith({ temp: 21 });
  mock.toolsCall("get_weather").withArgs({ city: "Busan" }).inScenario("forecast").whenState("Started").willSetState("Rainy").respondsWith({ temp: 25 });
  admin = mock.url.replace(/\/mcp$/, "/__admin");
  page = await browser.newPage();
  page.on("pageerror", (error) => scriptErrors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") scriptErrors.push(`console: ${message.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) scriptErrors.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(`${admin}/ui`);
  await page.locator("#status[data-state=live]").waitFor({ timeout: 10_000 });
}, 30_000);

afterAll(async () => {
  await client?.close();
  await mock?.close();
  await browser?.close();
});

/** The page follows within a few seconds even on a loaded machine. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 8000, interval: 50 });

/** The journal row of a journal entry. */
const row = (seq: number) => page.locator(`#journal .entry[data-seq="${seq}"]`);

describe("the inspector page in Chromium", () => {
  test("lists the stubs as the mock's sentences, with their hit counts and the scenario's state", async () => {
    const sentences = mock.stubs().filter((s) => s.source !== "default").map((s) => s.sentence.replace(/ \(seen \d+\)$/, ""));
    expect(sentences).toHaveLength(3);
    await poll(() => page.locator("#stubs .sentence").allTextContents()).toEqual(expect.arrayContaining(sentences));
    expect(await page.locator("#stubs .sentence").count()).toBe(3); // built-in answers hidden until asked for
    expect(await page.locator("#stubs .hits").allTextContents()).toEqual(["0", "0", "0"]);
    await poll(() => page.locator("#scenarios li").allTextContents()).toEqual(['forecast is in Started']);
    await page.locator("#show-defaults").check();
    await poll(() => page.locator("#stubs .sentence").count()).toBe(mock.stubs().length);
    await page.locator("#show-defaults").uncheck();
  });

  test("a call made after the page loaded appears without a reload, with its answer, session, revision, duration and stub", async () => {
    await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));
    client = new Client({ name: "design-client", version: "2.0.0" });
    transport = new StreamableHTTPClientTransport(new URL(mock.url));
    await client.connect(transport);
    const result = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    expect(result.content).toEqual([{ type: "text", text: '{"sum":3}' }]);
    const entry = mock.requests().find((e) => e.method === "tools/call");
    expect(entry?.stubId).toBeDefined();
    const line = row(entry?.seq ?? -1);
    await line.waitFor({ timeout: 8000 });
    await poll(() => line.locator(".answered-by").textContent()).toBe(entry?.stubId);
    expect(await line.locator(".method").textContent()).toBe("tools/call");
    expect(await line.locator(".target").textContent()).toBe("add");
    expect(await line.locator(".session").textContent()).toBe(transport.sessionId);
    expect(await line.locator(".revision").textContent()).toBe(entry?.protocolVersion);
    await line.locator(".summary").click();
    const details = line.locator(".details");
    expect(JSON.parse((await details.locator(".pair pre").nth(0).textContent()) ?? "")).toEqual({ name: "add", arguments: { a: 1, b: 2 } });
    expect(JSON.parse((await details.locator(".pair pre").nth(1).textContent()) ?? "")).toMatchObject({ result: { content: [{ type: "text", text: '{"sum":3}' }] } });
    expect(await details.locator(".facts").textContent()).toContain(`${entry?.durationMs} ms`);
    // The hit count followed, and the page was never reloaded.
    await poll(() => page.locator("#stubs .stub.hit .hits").allTextContents()).toEqual(["1"]);
    expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
  });

  test("lists the client's session", async () => {
    const session = page.locator(`#sessions .session[data-session="${transport.sessionId}"]`);
    await session.waitFor({ timeout: 8000 });
    expect(await session.locator(".meta").textContent()).toContain("design-client 2.0.0");
  });

  test("a miss is highlighted, with its near-miss report and a suggestion that answers the call once posted", async () => {
    const missed = await client.callTool({ name: "get_weather", arguments: { city: "Jeju" } });
    expect(missed.isError).toBe(true);
    const [entry] = mock.unmatched();
    const line = row(entry?.seq ?? -1);
    await line.waitFor({ timeout: 8000 });
    expect(await line.getAttribute("class")).toContain("miss");
    expect(await line.locator(".answered-by").textContent()).toBe("MISS");
    await line.locator(".summary").click();
    expect(await line.locator(".miss-report pre").textContent()).toBe(entry?.missReport);
    expect(entry?.missReport).toContain('No stub answers tools/call "get_weather"');
    const [definitionText, dsl] = await line.locator(".suggestion pre").allTextContents();
    expect(dsl).toBe('mock.toolsCall("get_weather").withArgs({"city":"Jeju"}).respondsWith("TODO: the answer");');
    const definition = JSON.parse(definitionText ?? "") as unknown;
    expect(definition).toEqual({ responses: [{ tool: "get_weather", args: { city: "Jeju" }, result: "TODO: the answer" }] });
    // Copy works on a loopback page (a secure context).
    await browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(admin).origin });
    await line.locator(".suggestion .copy").first().click();
    await poll(() => line.locator(".suggestion .copy").first().textContent()).toBe("copied");
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(definition);
    // The suggestion is a stub that answers the call it was made from.
    const posted = await fetch(`${admin}/stubs`, { method: "POST", headers: { "content-type": "application/json" }, body: definitionText ?? "" });
    expect(posted.status).toBe(201);
    expect(await client.callTool({ name: "get_weather", arguments: { city: "Jeju" } })).toEqual({ content: [{ type: "text", text: "TODO: the answer" }] });
    await poll(() => page.locator("#journal-count").textContent()).toMatch(/· 1 missed$/);
  });

  test("filters by method, tool and session", async () => {
    await client.ping();
    await client.callTool({ name: "get_weather", arguments: { city: "Seoul" } });
    const methods = () => page.locator("#journal .entry .method").allTextContents();
    await poll(methods).toContain("ping");
    await page.locator("#filter-method").selectOption("tools/call");
    expect(new Set(await methods())).toEqual(new Set(["tools/call"]));
    await page.locator("#filter-tool").selectOption("add");
    expect(await page.locator("#journal .entry .target").allTextContents()).toEqual(["add"]);
    await page.locator("#filter-method").selectOption("");
    await page.locator("#filter-tool").selectOption("");
    await page.locator("#filter-session").selectOption(transport.sessionId ?? "");
    const sessions = new Set(await page.locator("#journal .entry .session").allTextContents());
    expect(sessions).toEqual(new Set([transport.sessionId]));
    await page.locator("#filter-session").selectOption("");
    await page.locator("#filter-misses").check();
    expect(await page.locator("#journal .entry").count()).toBe(1);
    await page.locator("#filter-misses").uncheck();
    expect(await page.locator("#journal .entry").count()).toBe(mock.requests().length);
  });

  test("the reset button resets the mock: journal empty, stubs back, counts at 0", async () => {
    if (process.env["MCPMOCK_SCREENSHOT"]) {
      // The miss open, everything else closed.
      const miss = row(mock.unmatched()[0]?.seq ?? -1).locator(".summary");
      const open = page.locator("#journal .summary[aria-expanded=true]");
      while ((await open.count()) > 0) await open.first().click();
      await miss.click();
      await page.screenshot({ path: process.env["MCPMOCK_SCREENSHOT"], fullPage: false });
    }
    page.once("dialog", (dialog) => void dialog.accept());
    await page.locator("#reset").click();
    await poll(() => mock.requests().length).toBe(0);
    expect(mock.stubs().filter((s) => s.source !== "default")).toEqual([]);
    await poll(() => page.locator("#journal .entry").count()).toBe(0);
    await poll(() => page.locator("#stubs .sentence").count()).toBe(0);
    // And the feed goes on after the reset.
    mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 0 });
    await client.callTool({ name: "add", arguments: { a: 5 } });
    await poll(() => page.locator("#journal .entry .target").allTextContents()).toEqual(["add"]);
  });

  test("no script errors on the page", () => {
    expect(scriptErrors).toEqual([]);
  });

  test("the page loads nothing from elsewhere: its own files, the admin API and the feed only", async () => {
    const requests: string[] = [];
    const other = await browser.newPage();
    other.on("request", (r) => void requests.push(r.url()));
    await other.goto(`${admin}/ui`);
    await other.locator("#status[data-state=live]").waitFor({ timeout: 10_000 });
    await other.close();
    const origin = new URL(admin).origin;
    expect(requests.filter((url) => !url.startsWith(`${origin}/__admin/`))).toEqual([]);
  });
});
