/**
 * The recipes of the README and the guides (docs/guides/*.md) are real files: each block tagged `// recipe: <path>` (or
 * `# recipe: <path>`, or an HTML comment before a JSON block) must equal that file, every file
 * in test/recipes/ must be shown on one of those pages, and the recipes run — the vitest ones as ordinary test files
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
const pages = ["README.md", ...readdirSync(`${ROOT}docs/guides`).filter((f) => f.endsWith(".md")).map((f) => `docs/guides/${f}`)];
const texts = pages.map((page) => [page, readFileSync(`${ROOT}${page}`, "utf8")] as const);

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

const blocks = texts.flatMap(([page, text]) => taggedBlocks(text).map((b) => ({ ...b, page })));

describe("recipes", () => {
  test("the README and the guides show the recipes", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(9);
    expect(blocks.filter((b) => b.page === "README.md").map((b) => b.path)).toEqual(["test/recipes/first.test.ts"]);
  });

  test("recipe blocks are tagged so that the page tests do not run them as modules", () => {
    // readme.test.ts and guides.test.ts import every ```ts block; a test file imported there
    // would call test() at runtime. A recipe's block is ```ts recipe, and its first line names its file.
    for (const [page, text] of texts) {
      for (const [, code] of text.matchAll(/```ts\n([\s\S]*?)```/g)) expect(code, page).not.toMatch(/^\/\/ recipe: /);
    }
  });

  test.each(blocks.map((b) => [b.path, b] as const))("%s equals its block", (path, block) => {
    expect(path).toMatch(/^test\/recipes\/[\w.-]+$/);
    expect(block.code).toBe(readFileSync(`${ROOT}${path}`, "utf8"));
  });

  test("every file in test/recipes/ is shown on a page", () => {
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
