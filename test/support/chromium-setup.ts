/**
 * vitest globalSetup: unpacks the browser that @sparticuz/chromium ships once, before any test
 * file runs, when the browser tests will need it (no system Chromium): two files unpacking it at
 * once could hand one of them half a binary. A failure here is left to the browser tests, which
 * report it with the command that fixes it (./chromium.ts).
 */
import { findChromium } from "./chromium.js";

export default async function setup(): Promise<void> {
  await findChromium().catch(() => undefined);
}
