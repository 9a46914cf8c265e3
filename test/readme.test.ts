/**
 * README examples are real: every ```ts block in README.md runs here, as a module that
 * imports "mcpmock" the way a user's code does (the alias points it at src/).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { main as quickStart } from "../examples/quick-start.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
const dir = fileURLToPath(new URL("./.generated/", import.meta.url));

test("the README has code blocks to run", () => {
  expect(blocks.length).toBeGreaterThanOrEqual(3);
});

test.each(blocks.map((code, i) => [i + 1, code] as const))("README block %i runs", async (i, code) => {
  mkdirSync(dir, { recursive: true });
  const file = `${dir}readme-${i}.ts`;
  writeFileSync(file, code);
  await import(/* @vite-ignore */ file);
});

test("the README's definition examples are valid definitions", async () => {
  const { assertMockDefinition } = await import("../src/index.js");
  const definitions = [...readme.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((m) => JSON.parse(m[1] as string) as Record<string, unknown>)
    .filter((d) => !("mcpServers" in d));
  expect(definitions.length).toBeGreaterThanOrEqual(1);
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
