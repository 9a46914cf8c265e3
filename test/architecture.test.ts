/**
 * The shape of src/ (docs/ARCHITECTURE.md), kept by a test: folders by layer with value imports
 * pointing down only (type-only imports may point anywhere), no circles of value imports, and
 * no file over 300 code lines (comments and blank lines do not count).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/** Each folder's layer: a file may value-import from its own folder or a lower layer only. */
const LAYERS: Readonly<Record<string, number>> = {
  values: 0,
  protocol: 1,
  stubs: 2,
  journal: 3,
  engine: 4,
  // Authorization mocking reads values only; the HTTP transport mounts it (a sibling of the engine).
  auth: 4,
  // Two siblings on the engine: neither imports the other.
  transports: 5,
  dsl: 5,
  definition: 6,
  admin: 7,
  // Beside admin: records real servers into definitions and checks them (definition's format, the SDK client).
  recording: 7,
  "(root)": 8,
  cli: 9,
  // mcpmock/vitest: a front end on the public API (index.ts), beside the command.
  vitest: 9,
};

const files = readdirSync(SRC, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts"))
  .map((f) => join(SRC, f));

function layerOf(file: string): string {
  const path = relative(SRC, file);
  if (path === "cli.ts") return "cli"; // the command's entry point belongs with its commands
  return path.includes("/") ? (path.split("/")[0] as string) : "(root)";
}

/** The value imports of a file, resolved to files of src/. */
function valueImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+([^;]*?)\s*from\s*["'](\.[^"']+)["']|^\s*import\s*["'](\.[^"']+)["']/gm)) {
    const clause = m[1] ?? "";
    if (/^type\b/.test(clause)) continue;
    const braces = /\{([^}]*)\}/s.exec(clause);
    const onlyBraces = braces && !clause.replace(/\{[^}]*\}/s, "").replace(/[\s,]/g, "");
    if (onlyBraces) {
      const names = (braces[1] as string).split(",").map((s) => s.trim()).filter(Boolean);
      if (names.length > 0 && names.every((n) => n.startsWith("type "))) continue;
    }
    found.push(resolve(dirname(file), (m[2] ?? m[3]) as string).replace(/\.js$/, ".ts"));
  }
  return found;
}

function codeLines(text: string): number {
  let n = 0;
  let inBlock = false;
  for (let line of text.split("\n")) {
    line = line.trim();
    if (inBlock) {
      if (!line.includes("*/")) continue;
      inBlock = false;
      line = line.slice(line.indexOf("*/") + 2).trim();
    }
    if (line.startsWith("/*")) {
      if (!line.includes("*/")) {
        inBlock = true;
        continue;
      }
      line = line.slice(line.indexOf("*/") + 2).trim();
    }
    if (line && !line.startsWith("//")) n++;
  }
  return n;
}

describe("the shape of src/", () => {
  test("every folder is a known layer", () => {
    expect([...new Set(files.map(layerOf))].filter((l) => !(l in LAYERS))).toEqual([]);
  });

  test("value imports point down the layers (or stay in their folder)", () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      for (const to of valueImports(file)) {
        const target = layerOf(to);
        if (target !== from && (LAYERS[target] as number) >= (LAYERS[from] as number)) upward.push(`${relative(SRC, file)} -> ${relative(SRC, to)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  test("no circles of value imports", () => {
    const edges = new Map(files.map((f) => [f, valueImports(f).filter((t) => t !== f)]));
    const state = new Map<string, "open" | "done">();
    const circles: string[] = [];
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        circles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(" -> "));
        return;
      }
      state.set(file, "open");
      for (const next of edges.get(file) ?? []) if (edges.has(next)) visit(next, [...path, file]);
      state.set(file, "done");
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });

  test("no file over 300 code lines", () => {
    const big = files.map((f) => [relative(SRC, f), codeLines(readFileSync(f, "utf8"))] as const).filter(([, n]) => n > 300);
    expect(big).toEqual([]);
  });
});
