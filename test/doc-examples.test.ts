/**
 * The `@example` of every public export (of `mcpmock`, `mcpmock/vitest`, `mcpmock/recording` and
 * `mcpmock/scenarios`) type-checks against the source, with the project's compiler options: a
 * name, a signature or an option an example shows must exist. Each example is its own module
 * (top-level `await` allowed). One that uses `mock` without making one gets a started mock
 * (`declare const mock: McpMock`); one that imports nothing gets the `mcpmock` values.
 * (exports-documented.test.ts checks that every export has one.)
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, test } from "vitest";

const root = fileURLToPath(new URL("../", import.meta.url));
const ENTRIES = ["src/index.ts", "src/vitest/index.ts", "src/recording/index.ts", "src/scenarios/index.ts"];
/** Where the examples live while they are checked: in memory only, never written. */
const DIR = path.join(root, "test", ".doc-examples");

function compilerOptions(): ts.CompilerOptions {
  const file = path.join(root, "tsconfig.json");
  const config = ts.readConfigFile(file, (f) => ts.sys.readFile(f));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, file);
  // Examples are fragments: a name shown and not used again is fine.
  return { ...parsed.options, noEmit: true, noUnusedLocals: false };
}

interface Example {
  readonly name: string;
  readonly file: string;
  readonly text: string;
  /** Lines put before the example, to subtract from diagnostics' line numbers. */
  readonly added: number;
}

/** The examples of the entries' exports, each as a module. */
function collect(): Example[] {
  const options = compilerOptions();
  const program = ts.createProgram(ENTRIES.map((e) => path.join(root, e)), options);
  const checker = program.getTypeChecker();
  const main = checker.getSymbolAtLocation(program.getSourceFile(path.join(root, ENTRIES[0] as string)) as ts.SourceFile) as ts.Symbol;
  const values = checker
    .getExportsOfModule(main)
    .filter((e) => {
      const s = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
      const typeOnly = (e.declarations ?? []).some((d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly));
      return (s.flags & ts.SymbolFlags.Value) !== 0 && !typeOnly;
    })
    .map((e) => e.name);
  const examples: Example[] = [];
  for (const entry of ENTRIES) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(path.join(root, entry)) as ts.SourceFile) as ts.Symbol;
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const tags = (symbol.getDeclarations() ?? []).flatMap((d) => ts.getJSDocTags(d)).filter((t) => t.tagName.text === "example");
      tags.forEach((tag, i) => {
        const code = /```ts\n([\s\S]*?)```/.exec(ts.getTextOfJSDocComment(tag.comment) ?? "")?.[1];
        if (code === undefined) return; // exports-documented.test.ts wants one fenced ts block
        const prefix: string[] = [];
        if (!/^\s*import\s/m.test(code)) prefix.push(`import { ${values.join(", ")} } from "mcpmock";`);
        if (!/\bmock\s*=|\{ mock \}|\(mock\b/.test(code)) prefix.push(`declare const mock: import("mcpmock").McpMock;`);
        const name = `${entry}: ${exported.name}${tags.length > 1 ? ` (example ${i + 1})` : ""}`;
        const file = path.join(DIR, `${String(examples.length).padStart(3, "0")}-${exported.name}.ts`);
        examples.push({ name, file, text: [...prefix, code, "export {};", ""].join("\n"), added: prefix.length });
      });
    }
  }
  return examples;
}

/** The type errors of each example, as `name, line N: message`. */
function typeErrors(examples: readonly Example[]): string[] {
  const options = compilerOptions();
  const byFile = new Map(examples.map((e) => [path.normalize(e.file), e]));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => byFile.has(path.normalize(f)) || fileExists.call(host, f);
  host.readFile = (f) => byFile.get(path.normalize(f))?.text ?? readFile.call(host, f);
  host.getSourceFile = (f, language, ...rest) => {
    const example = byFile.get(path.normalize(f));
    return example ? ts.createSourceFile(f, example.text, language, true) : getSourceFile.call(host, f, language, ...rest);
  };
  const program = ts.createProgram([...byFile.keys()], options, host);
  return examples.flatMap((e) => {
    const source = program.getSourceFile(e.file) as ts.SourceFile;
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line + 1 - e.added;
      return `${e.name}, line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
    });
  });
}

test("every public export's @example type-checks against the source", () => {
  const examples = collect();
  expect(examples.length).toBeGreaterThan(150);
  // The check itself: a wrong option and a missing name are reported, a right example is not.
  const canaries: Example[] = [
    { name: "canary: wrong", file: path.join(DIR, "canary-wrong.ts"), text: `import { McpMock, notExported } from "mcpmock";\nawait McpMock.start({ port: "0" });\nexport {};\n`, added: 0 },
    { name: "canary: right", file: path.join(DIR, "canary-right.ts"), text: `import { McpMock } from "mcpmock";\nawait using mock = await McpMock.start({ port: 0 });\nexport {};\n`, added: 0 },
  ];
  const errors = typeErrors([...canaries, ...examples]);
  const canaryErrors = errors.filter((e) => e.startsWith("canary"));
  expect(canaryErrors).toHaveLength(2);
  expect(canaryErrors.join("\n")).toMatch(/canary: wrong, line 1: .*notExported/);
  expect(canaryErrors.join("\n")).toMatch(/canary: wrong, line 2: .*string.*number/);
  expect(errors.filter((e) => !e.startsWith("canary"))).toEqual([]);
}, 120_000);
