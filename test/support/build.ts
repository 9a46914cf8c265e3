/**
 * vitest globalSetup: builds the package (`npm run build`: scripts/build.mjs) once per run, so
 * tests that spawn the `mcpmock` command run the current `dist/cli.js`, as `npx mcpmock` would.
 * The build is skipped when dist/cli.js is newer than every source file and build config:
 * rewriting dist/ while another run's tests spawn the command could hand them half a file.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The built command; spawn it with `process.execPath` (no shell). */
export const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Number.NaN;
  }
}

/** Whether dist/cli.js exists and no input of the build changed after it was written. */
function isCurrent(): boolean {
  const built = mtime(CLI);
  if (Number.isNaN(built)) return false;
  const src = join(ROOT, "src");
  const inputs = [
    ...readdirSync(src, { recursive: true, encoding: "utf8" }).map((f) => join(src, f)),
    join(ROOT, "tsconfig.json"),
    join(ROOT, "tsconfig.build.json"),
    join(ROOT, "package.json"),
    join(ROOT, "scripts/build.mjs"),
  ];
  return inputs.every((file) => !(mtime(file) > built));
}

export default function setup(): void {
  // The build script also makes the command executable, as npm does when the package is installed.
  if (!isCurrent()) execFileSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
}
