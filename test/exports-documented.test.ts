/**
 * Issue 43, item 2: every public export (of `mcpmock`, `mcpmock/vitest`, `mcpmock/recording` and
 * `mcpmock/scenarios`) carries a doc comment with an `@example` and a task `@category`, the API
 * reference's headings. An export without an example (a fenced ts block) fails.
 */
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, test } from "vitest";

const root = new URL("../", import.meta.url);
const ENTRIES = ["src/index.ts", "src/vitest/index.ts", "src/recording/index.ts", "src/scenarios/index.ts"];
// The API reference's task headings (typedoc.json categoryOrder), and mcpmock/vitest's own.
const TASKS = ["Starting", "Stubbing", "Streams", "Verification", "Definitions", "Authorization", "Errors and protocol facts", "Test runners", "Apps", "Client verdicts"];

test("every public export has a doc comment with an example and a task category", () => {
  const files = ENTRIES.map((e) => fileURLToPath(new URL(e, root)));
  const program = ts.createProgram(files, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true });
  const checker = program.getTypeChecker();
  const problems: string[] = [];
  let count = 0;
  for (const [i, file] of files.entries()) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file) as ts.SourceFile) as ts.Symbol;
    for (const exported of checker.getExportsOfModule(module)) {
      count++;
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const tags = (symbol.getDeclarations() ?? []).flatMap((d) => ts.getJSDocTags(d));
      const categories = tags.filter((t) => t.tagName.text === "category").map((t) => ts.getTextOfJSDocComment(t.comment)?.trim());
      const name = `${ENTRIES[i]}: ${exported.name}`;
      if (categories.length === 0 || !categories.every((c) => TASKS.includes(c as string))) problems.push(`${name}: no task @category (${categories.join(", ") || "none"})`);
      const examples = tags.filter((t) => t.tagName.text === "example").map((t) => ts.getTextOfJSDocComment(t.comment) ?? "");
      if (examples.length === 0) problems.push(`${name}: no @example`);
      else if (!examples.every((e) => /^```ts\n[\s\S]*\S[\s\S]*\n```$/.test(e.trim()))) problems.push(`${name}: an @example that is not one fenced ts block`);
    }
  }
  expect(count).toBeGreaterThan(140);
  expect(problems).toEqual([]);
}, 120_000);
