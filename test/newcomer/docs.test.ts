/**
 * Issue 21, item 9 (and issue 43, item 2): the docs site opens on a short landing page, and
 * the API is grouped by task. Every public export carries one of the task categories (a new
 * export without one fails here, before it lands in "Other"); the landing page links the
 * README, the guides, the bad-input table and the architecture page, which typedoc includes
 * (test/doc-links.test.ts checks every link and anchor). (`npm run
 * docs` itself, with warnings as errors, runs in CI.)
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, test } from "vitest";

const root = new URL("../../", import.meta.url);
const TASKS = ["Starting", "Stubbing", "Streams", "Verification", "Definitions", "Authorization", "Apps", "Client verdicts", "Errors and protocol facts"];

test("typedoc: a landing page of its own, the task order, and the documents it links", () => {
  const config = JSON.parse(readFileSync(new URL("typedoc.json", root), "utf8")) as { readme: string; projectDocuments: string[]; categoryOrder: string[] };
  expect(config.readme).toBe("docs/index.md");
  expect(config.categoryOrder).toEqual([...TASKS, "*"]);
  for (const document of ["README.md", "docs/guides/index.md", "docs/bad-input.md", "docs/ARCHITECTURE.md"]) expect(config.projectDocuments).toContain(document);
  const landing = readFileSync(new URL("docs/index.md", root), "utf8");
  expect(landing.split("\n").length).toBeLessThan(80);
  for (const link of ["../README.md", "guides/index.md", "bad-input.md", "ARCHITECTURE.md", "guides/definitions-and-cli.md", "guides/admin-api.md"]) expect(landing).toContain(`(${link})`);
  for (const task of ["**Starting**", "**Stubbing**", "**Streams**", "**Verification**", "**Definitions**", "**The CLI**", "**The admin API**"]) expect(landing).toContain(task);
  const readme = readFileSync(new URL("README.md", root), "utf8");
  expect(readme).toContain("(docs/bad-input.md)");
});

test("every export of the package is in a task category", () => {
  const index = fileURLToPath(new URL("src/index.ts", root));
  const program = ts.createProgram([index], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(index) as ts.SourceFile) as ts.Symbol;
  const categories = checker.getExportsOfModule(module).map((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const tags = (symbol.getDeclarations() ?? []).flatMap((d) => ts.getJSDocTags(d)).filter((t) => t.tagName.text === "category");
    return [exported.name, tags.map((t) => ts.getTextOfJSDocComment(t.comment)?.trim())] as const;
  });
  expect(categories.length).toBeGreaterThan(80);
  const uncategorized = categories.filter(([, tags]) => tags.length === 0 || !tags.every((t) => TASKS.includes(t as string))).map(([name, tags]) => `${name}: ${tags.join(", ") || "none"}`);
  expect(uncategorized).toEqual([]);
}, 60_000); // a TypeScript program over src/: seconds on a loaded machine
