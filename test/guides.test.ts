/**
 * The guides' examples are real: every ```ts block in docs/guides/*.md runs here, as a module
 * that imports "mcpmock" the way a user's code does (the alias points it at src/), and
 * type-checks under the project's strict TypeScript; every ```json block right after a
 * `<!-- definition -->` line is a valid definition file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { format } from "node:util";
import ts from "typescript";
import { describe, expect, test, vi } from "vitest";

const guidesDir = new URL("../docs/guides/", import.meta.url);
const guides = existsSync(guidesDir) ? readdirSync(guidesDir).filter((f) => f.endsWith(".md")).sort() : [];
const dir = fileURLToPath(new URL("./.generated/guides/", import.meta.url));
mkdirSync(dir, { recursive: true });

test("the guides folder is there", () => {
  expect(existsSync(guidesDir)).toBe(true);
});

interface Guide {
  readonly guide: string;
  readonly files: string[];
  readonly definitions: string[];
}

const pages: Guide[] = guides.map((guide) => {
  const text = readFileSync(new URL(guide, guidesDir), "utf8");
  const name = guide.replace(/\.md$/, "");
  const files = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m, i) => {
    const file = `${dir}${name}-${i + 1}.ts`;
    writeFileSync(file, m[1] as string);
    return file;
  });
  const definitions = [...text.matchAll(/<!-- definition -->\n```json\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  return { guide, files, definitions };
});
const allFiles = pages.flatMap((p) => p.files);

// One program for every guide's blocks: a program per guide took half a minute each on a loaded machine.
test.skipIf(allFiles.length === 0)("every guide's blocks type-check under the project's strict TypeScript", () => {
  const configPath = fileURLToPath(new URL("../tsconfig.json", import.meta.url));
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, (p) => ts.sys.readFile(p)).config, ts.sys, fileURLToPath(new URL("..", import.meta.url)));
  const program = ts.createProgram(allFiles, config.options);
  const errors = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file !== undefined && allFiles.includes(d.file.fileName))
    .map((d) => {
      const file = (d.file as ts.SourceFile).fileName;
      const page = pages.find((p) => p.files.includes(file)) as Guide;
      const { line } = (d.file as ts.SourceFile).getLineAndCharacterOfPosition(d.start ?? 0);
      return `${page.guide} block ${page.files.indexOf(file) + 1}, line ${line + 1}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
  expect(errors).toEqual([]);
}, 180_000);

for (const { guide, files, definitions } of pages) {
  if (files.length === 0 && definitions.length === 0) continue;

  describe(`docs/guides/${guide}`, () => {
    test.each(files.map((file, i) => [i + 1, file] as const))("block %i runs", async (_i, file) => {
      // What a block prints with console.log is the guide's output for its reader, not the run's:
      // kept, and shown only when the block fails. A miss report (console.warn) still shows.
      const printed: string[] = [];
      const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.push(format(...args)));
      try {
        await import(/* @vite-ignore */ file);
      } catch (error) {
        if (printed.length === 0) throw error;
        throw new Error(`${(error as Error).message}\n\nWhat the block printed before it failed:\n${printed.join("\n")}`, { cause: error });
      } finally {
        log.mockRestore();
      }
    }, 60_000);

    test.each(definitions.map((json, i) => [i + 1, json] as const))("definition %i is valid", async (_i, json) => {
      const { assertMockDefinition } = await import("../src/index.js");
      expect(() => assertMockDefinition(JSON.parse(json), `docs/guides/${guide}`)).not.toThrow();
    });
  });
}
