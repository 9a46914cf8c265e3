/**
 * Issue 43, item 2: every link of the docs resolves. Each relative markdown link of the README,
 * docs/*.md and docs/guides/*.md names a file that exists, and its anchor, if any, a heading of
 * that file (GitHub's slugs, which TypeDoc's `npm run docs` checks again for the site); the
 * site's landing page and the guides are TypeDoc project documents, and what ships holds no raw
 * `{@link ...}` markup.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const docs = [
  "README.md",
  ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
  ...readdirSync(join(ROOT, "docs/guides")).filter((f) => f.endsWith(".md")).map((f) => `docs/guides/${f}`),
];

/** The text outside code blocks and inline code. */
function prose(text: string): string {
  return text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "``");
}

/**
 * GitHub's anchors for a file's headings (a repeated heading gets -1, -2, ...). A heading with
 * inline code gets none: GitHub keeps the code's text in the anchor, TypeDoc drops it, so a
 * link to it would work on one of the two only.
 */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of readFileSync(join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "").matchAll(/^#{1,6} (.+)$/gm)) {
    if ((heading as string).includes("`")) continue;
    const slug = (heading as string).toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, "").replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

test("every relative link and anchor of the docs resolves", () => {
  expect(docs.length).toBeGreaterThan(15);
  const broken: string[] = [];
  let checked = 0;
  for (const doc of docs) {
    for (const [, target] of prose(readFileSync(join(ROOT, doc), "utf8")).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target as string)) continue; // https:, mailto:
      checked++;
      const [path, anchor] = (target as string).split("#") as [string, string | undefined];
      const file = path === "" ? doc : relative(ROOT, join(ROOT, dirname(doc), path));
      if (!existsSync(join(ROOT, file))) broken.push(`${doc} -> ${target}: no file ${file}`);
      else if (anchor !== undefined && (!file.endsWith(".md") || !anchors(file).has(anchor))) broken.push(`${doc} -> ${target}: no heading #${anchor} in ${file}`);
    }
  }
  expect(checked).toBeGreaterThan(60);
  expect(broken).toEqual([]);
});

test("the docs site: the landing page, every guide and the README are project documents, with no raw markup", () => {
  const config = JSON.parse(readFileSync(join(ROOT, "typedoc.json"), "utf8")) as { readme: string; projectDocuments: string[] };
  expect(config.readme).toBe("docs/index.md");
  const guides = docs.filter((d) => d.startsWith("docs/guides/"));
  expect(guides.filter((g) => !config.projectDocuments.includes(g))).toEqual([]);
  expect(config.projectDocuments).toContain("README.md");
  for (const doc of docs) expect(readFileSync(join(ROOT, doc), "utf8"), doc).not.toMatch(/\{@link/);
});

test("the README is a landing page: a first test, then one link per guide", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  expect(readme.split("\n").length).toBeLessThan(200);
  expect(readme).toMatch(/^## Your first test$/m);
  const linked = new Set([...readme.matchAll(/\]\(docs\/guides\/([\w.-]+\.md)\)/g)].map((m) => m[1]));
  const guides = readdirSync(join(ROOT, "docs/guides")).filter((f) => f.endsWith(".md") && f !== "index.md");
  expect(guides.filter((g) => !linked.has(g))).toEqual([]);
  const index = readFileSync(join(ROOT, "docs/guides/index.md"), "utf8");
  expect(guides.filter((g) => !index.includes(`](${g})`))).toEqual([]);
});
