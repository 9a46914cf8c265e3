/**
 * A real headless Chromium for tests of the inspector page, driven with playwright-core, which
 * never downloads a browser: the system's or the one the @sparticuz/chromium dev dependency
 * ships (./chromium.ts says which). Each launch gets a fresh profile, removed on close.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { findChromium } from "./chromium.js";

/** Flags for a quiet, offline, sandbox-free headless run (CI runs as root). */
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** What a launch may change: more flags, the viewport (null: the window's own size; 1440x900 unless given). */
export interface LaunchOptions {
  readonly args?: readonly string[];
  readonly viewport?: { width: number; height: number } | null;
}

/**
 * Removes a profile Chromium used. Its helper processes can still be writing the disk cache for a
 * moment after the browser exits, so a directory found not empty is tried again (up to ~2 s),
 * and what is then left is left in the temp folder rather than failing the test run.
 */
async function removeProfile(profile: string): Promise<void> {
  await rm(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }).catch(() => undefined);
}

/** A browser context with a fresh profile; `close()` ends the browser and removes the profile. */
export async function launchBrowser(env: Readonly<Record<string, string | undefined>> = process.env, options: LaunchOptions = {}): Promise<BrowserContext & AsyncDisposable> {
  const { path } = await findChromium(env);
  const profile = mkdtempSync(join(tmpdir(), "mcpmock-chromium-"));
  const viewport = options.viewport === undefined ? { width: 1440, height: 900 } : options.viewport;
  const context = await chromium.launchPersistentContext(profile, { executablePath: path, headless: true, args: [...ARGS, ...(options.args ?? [])], viewport });
  const end = context.close.bind(context);
  const close = async (): Promise<void> => {
    await end();
    await removeProfile(profile);
  };
  return Object.assign(context, { [Symbol.asyncDispose]: close, close });
}
