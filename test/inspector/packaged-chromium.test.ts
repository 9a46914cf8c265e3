/**
 * The browser tests run on a machine with no system Chromium (issue 43): pointed away from
 * /usr/bin/chromium, test/support/chromium.ts falls back to the browser @sparticuz/chromium
 * ships, and that browser runs the inspector page; a wrong MCPMOCK_CHROMIUM says how to fix it.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";
import { launchBrowser } from "../support/browser.js";
import { findChromium } from "../support/chromium.js";

/** The environment of a machine without Debian's chromium package. */
const NO_SYSTEM_CHROMIUM = { MCPMOCK_SYSTEM_CHROMIUM: "/nonexistent/usr/bin/chromium" };

let mock: McpMock;
beforeAll(async () => {
  mock = await McpMock.start({ tools: [{ name: "add", inputSchema: { type: "object" } }], admin: true, onUnmatched: "silent" });
  mock.toolsCall("add").respondsWith({ sum: 3 });
});
afterAll(() => mock?.close());

test("without a system Chromium, the packaged one is found and shows the inspector page", async () => {
  const found = await findChromium(NO_SYSTEM_CHROMIUM);
  expect(found.source).toBe("@sparticuz/chromium");
  expect(found.path).not.toBe("/usr/bin/chromium");
  await using browser = await launchBrowser(NO_SYSTEM_CHROMIUM);
  const page = await browser.newPage();
  await page.goto(mock.url.replace(/\/mcp$/, "/__admin/ui"));
  await page.locator("#status[data-state=live]").waitFor({ timeout: 20_000 });
  await expect.poll(() => page.locator("#stubs").innerText(), { timeout: 10_000 }).toContain('"add"');
}, 90_000);

test("MCPMOCK_CHROMIUM naming a missing binary is refused with the fix", async () => {
  await expect(findChromium({ MCPMOCK_CHROMIUM: "/nowhere/chrome" })).rejects.toThrow(
    "MCPMOCK_CHROMIUM names /nowhere/chrome, which does not exist: set it to a Chromium or Chrome binary, or unset it",
  );
});
