/**
 * README examples are real: every ```ts block in README.md runs here, as a module that
 * imports "mcpmock" the way a user's code does (the alias points it at src/). The README is a
 * landing page: its first test is a recipe (`test/recipes/first.test.ts`, which the suite runs
 * and test/recipes.test.ts holds equal to the block), and the examples of each task live in
 * its guide (test/guides.test.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, test } from "vitest";
import { main as quickStart } from "../examples/quick-start.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
const dir = fileURLToPath(new URL("./.generated/", import.meta.url));

test("the README shows its first test, a recipe the suite runs", () => {
  expect(readme).toContain("```ts recipe\n// recipe: test/recipes/first.test.ts\n");
});

// Each block is a module of its own, as a user would paste it.
mkdirSync(dir, { recursive: true });
const files = blocks.map((code, i) => {
  const file = `${dir}readme-${i + 1}.ts`;
  writeFileSync(file, code);
  return file;
});

if (files.length > 0) test.each(files.map((file, i) => [i + 1, file] as const))("README block %i runs", async (_i, file) => {
  await import(/* @vite-ignore */ file);
});

test.skipIf(files.length === 0)("every README block type-checks under the project's strict TypeScript", () => {
  const configPath = fileURLToPath(new URL("../tsconfig.json", import.meta.url));
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, (p) => ts.sys.readFile(p)).config, ts.sys, fileURLToPath(new URL("..", import.meta.url)));
  const program = ts.createProgram(files, config.options);
  const errors = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file !== undefined && files.includes(d.file.fileName))
    .map((d) => {
      const { line } = (d.file as ts.SourceFile).getLineAndCharacterOfPosition(d.start ?? 0);
      return `README block ${files.indexOf((d.file as ts.SourceFile).fileName) + 1}, line ${line + 1}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
  expect(errors).toEqual([]);
}, 60_000);

test("the README's definition examples are valid definitions", async () => {
  const { assertMockDefinition } = await import("../src/index.js");
  const definitions = [...readme.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((m) => JSON.parse(m[1] as string) as Record<string, unknown>)
    .filter((d) => !("mcpServers" in d));
  for (const definition of definitions) expect(() => assertMockDefinition(definition, "README.md")).not.toThrow();
});

test("examples/quick-start.ts runs and prints what happened", async () => {
  const lines: string[] = [];
  await quickStart((line) => lines.push(line));
  expect(lines[0]).toMatch(/^mock listening at http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  expect(lines).toContain("tools/list → add");
  expect(lines).toContain('tools/call add {"a":1,"b":2} → {"sum":3}');
  expect(lines).toContain('tools/call add {"a":40,"b":2} → fallback');
  expect(lines.at(-1)).toMatch(/^tools\/call add \{"a":"one"\} → isError: \[mcpmock\] tool "add" rejected the arguments/);
});
