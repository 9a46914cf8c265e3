/**
 * A real headless Chromium for tests of the inspector page, driven with playwright-core, which
 * never downloads a browser: the system's or the one the @sparticuz/chromium dev dependency
 * ships (./chromium.ts says which). Each launch gets a fresh profile, removed on close.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { findChromium } from "./chromium.js";

/** Flags for a quiet, offline, sandbox-free headless run (CI runs as root). */
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** A browser context with a fresh profile; `close()` ends the browser and removes the profile. */
export async function launchBrowser(env: Readonly<Record<string, string | undefined>> = process.env): Promise<BrowserContext & AsyncDisposable> {
  const { path } = await findChromium(env);
  const profile = mkdtempSync(join(tmpdir(), "mcpmock-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: path, headless: true, args: ARGS, viewport: { width: 1440, height: 900 } });
  const end = context.close.bind(context);
  const close = async (): Promise<void> => {
    await end();
    rmSync(profile, { recursive: true, force: true });
  };
  return Object.assign(context, { [Symbol.asyncDispose]: close, close });
}
