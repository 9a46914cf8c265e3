/**
 * vitest globalSetup: builds the package once (`npx tsc -p tsconfig.build.json`), so tests
 * that spawn the `mcpmock` command run the current `dist/cli.js`, as `npx mcpmock` would.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The built command; spawn it with `process.execPath` (no shell). */
export const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

export default function setup(): void {
  execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
}
