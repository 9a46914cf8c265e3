/**
 * A real headless Chromium for tests of the inspector page: Debian's `chromium` package
 * (`apt-get install -y chromium`; .ci/run installs it), driven with playwright-core, which
 * never downloads a browser. Each launch gets a fresh profile, removed on close.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

/** Where Debian's package puts the browser (MCPMOCK_CHROMIUM names another Chromium or Chrome binary). */
export const CHROMIUM = process.env["MCPMOCK_CHROMIUM"] ?? "/usr/bin/chromium";

/** Flags for a quiet, offline, sandbox-free headless run (CI runs as root). */
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** A browser context with a fresh profile; `close()` ends the browser and removes the profile. */
export async function launchBrowser(): Promise<BrowserContext & AsyncDisposable> {
  if (!existsSync(CHROMIUM)) throw new Error(`the inspector tests need Chromium at ${CHROMIUM}: apt-get install -y --no-install-recommends chromium (as .ci/run does), or set MCPMOCK_CHROMIUM to a Chromium or Chrome binary.`);
  const profile = mkdtempSync(join(tmpdir(), "mcpmock-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1440, height: 900 } });
  const end = context.close.bind(context);
  const close = async (): Promise<void> => {
    await end();
    rmSync(profile, { recursive: true, force: true });
  };
  return Object.assign(context, { [Symbol.asyncDispose]: close, close });
}
