/**
 * The README's recipes are real files: each block tagged `// recipe: <path>` (or
 * `# recipe: <path>`, or an HTML comment before a JSON block) must equal that file, every file
 * in test/recipes/ must be shown, and the recipes run — the vitest ones as ordinary test files
 * of the suite, the Python one here.
 *
 * Recipes start the command as `npx --no-install mcpmock`. In a user's project that is
 * node_modules/.bin/mcpmock; in this repository npx runs the package's own bin (dist/cli.js,
 * built by the global setup), but only from the repository root, the cwd the suite runs in.
 * npx links the repository into its cache (~/.npm/_npx/<hash>/) the first time; if that
 * happened before dist/ existed, the link has no bin and npx answers "mcpmock: not found"
 * until that cache directory is removed.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const section = /\n## Recipes\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? "";

interface Tagged {
  readonly path: string;
  readonly code: string;
}

/** Code blocks tagged with the file they show. */
function taggedBlocks(text: string): Tagged[] {
  const blocks: Tagged[] = [];
  for (const m of text.matchAll(/```[a-z]+ recipe\n((?:\/\/|#) recipe: (\S+)\n[\s\S]*?)```/g)) {
    blocks.push({ path: m[2] as string, code: m[1] as string });
  }
  for (const m of text.matchAll(/<!-- recipe: (\S+) -->\n```json\n([\s\S]*?)```/g)) {
    blocks.push({ path: m[1] as string, code: m[2] as string });
  }
  return blocks;
}

const blocks = taggedBlocks(section);

describe("README recipes", () => {
  test("the README has a Recipes section before Development", () => {
    expect(readme.indexOf("\n## Recipes\n")).toBeGreaterThan(0);
    expect(readme.indexOf("\n## Recipes\n")).toBeLessThan(readme.indexOf("\n## Development\n"));
    expect(blocks.length).toBeGreaterThanOrEqual(7);
  });

  test("recipe blocks use an info string test/readme.test.ts does not run as a module", () => {
    // readme.test.ts imports every ```ts block; a test file imported there would call test() at runtime.
    expect(section).not.toMatch(/```ts\n/);
  });

  test.each(blocks.map((b) => [b.path, b] as const))("%s equals its README block", (path, block) => {
    expect(path).toMatch(/^test\/recipes\/[\w.-]+$/);
    expect(block.code).toBe(readFileSync(`${ROOT}${path}`, "utf8"));
  });

  test("every file in test/recipes/ is shown in the README", () => {
    const shown = new Set(blocks.map((b) => b.path));
    const files = readdirSync(`${ROOT}test/recipes`).filter((f) => !f.startsWith(".") && f !== "__pycache__");
    expect(files.map((f) => `test/recipes/${f}`).filter((f) => !shown.has(f))).toEqual([]);
  });
});

const python = spawnSync("python3", ["--version"]).status === 0;

test.skipIf(!python)("the Python admin API recipe passes", () => {
  // Run from the root, where `npx mcpmock` is this package; see the comment at the top.
  const run = spawnSync("python3", ["test/recipes/admin_api_test.py", "-v"], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
  });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stderr).toMatch(/Ran 2 tests in [\d.]+s\n\nOK/);
}, 90_000);
