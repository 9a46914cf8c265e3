/**
 * The shape of src/ (docs/ARCHITECTURE.md), kept by a test: folders by layer with every import
 * (type-only ones, `export ... from` and `import()` included) pointing down only, no circle of
 * imports between files, and no file over 300 code lines (comments and blank lines do not count).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/**
 * Each folder's layer, bottom to top (docs/ARCHITECTURE.md): a file may import from its own
 * folder or a lower layer only. Two folders of one layer are siblings: neither imports the other.
 */
const LAYERS: Readonly<Record<string, number>> = {
  values: 0,
  protocol: 1,
  // Authorization mocking stands on values alone (its options are its own: auth/auth-options.ts);
  // the HTTP transport mounts it, and the mock's options name it.
  auth: 1,
  stubs: 2,
  journal: 3,
  // The MCP Apps probe view's page (its browser source in probe/view/, bundled at build time): engine/apps.ts serves it.
  probe: 3,
  engine: 4,
  // Three siblings on the engine: the transports, the DSL, and the upstream (proxy mode's
  // connection to a real server, the SDK client: the engine reaches it only through an
  // interface the composition root hands in).
  transports: 5,
  upstream: 5,
  dsl: 5,
  definition: 6,
  admin: 7,
  // Beside admin: records real servers into definitions and checks them (definition's format, the upstream).
  recording: 7,
  // The composition root: the McpMock facade, the served transports, the public API.
  "(root)": 8,
  // The command line sits on everything, client verdicts included (`mcpmock scenarios`).
  cli: 10,
  // The vitest integration: built on the public API only (src/index.ts), like a user.
  vitest: 9,
  // Client verdicts (mcpmock/scenarios): on the public API only, like vitest/.
  scenarios: 9,
};

/**
 * A file of the root that belongs to a layer below it. `options.ts` is the mock's options:
 * the engine reads them (and they name the engine's task and session options), so they are
 * the engine's layer; they stay at the root as the one page users read them on.
 */
const ROOT_FILES: Readonly<Record<string, string>> = {
  "options.ts": "engine",
};

const files = readdirSync(SRC, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts"))
  .map((f) => join(SRC, f));

function layerOf(file: string): string {
  const path = relative(SRC, file);
  if (path === "cli.ts") return "cli"; // the command's entry point belongs with its commands
  if (path in ROOT_FILES) return ROOT_FILES[path] as string;
  return path.includes("/") ? (path.split("/")[0] as string) : "(root)";
}

/**
 * Every import of a file resolved to files of src/: value and type-only imports alike,
 * `export ... from` and `import()` too (the compiler's own scanner reads them).
 */
function imports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return [
    ...new Set(
      importedFiles
        .map((f) => f.fileName)
        .filter((name) => name.startsWith("."))
        .map((name) => resolve(dirname(file), name).replace(/\.js$/, ".ts")),
    ),
  ];
}

/** The import graph of src/: each file to the files of src/ it imports. */
const graph = new Map(files.map((f) => [f, imports(f).filter((t) => t !== f)]));

/** Each import that runs up the layers (or across to a sibling layer), as `from -> to`. */
function upwardImports(): string[] {
  const upward: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    for (const to of targets) {
      const target = layerOf(to);
      if (target !== from && (LAYERS[target] as number) >= (LAYERS[from] as number)) upward.push(`${relative(SRC, file)} -> ${relative(SRC, to)}`);
    }
  }
  return upward.sort();
}

/**
 * Each circle of imports, named by its files (`a.ts -> b.ts -> a.ts`): one per strongly
 * connected group of files (Tarjan), walked from its first file back to it.
 */
function circles(): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file) as number, index.get(to) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) groups.push(group);
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
  return groups.map((group) => {
    const members = new Set(group);
    const first = [...group].sort()[0] as string;
    // The shortest way round from the first file back to it, inside the group.
    const back = new Map<string, string>([[first, ""]]);
    const queue = [first];
    let last = "";
    while (queue.length > 0 && !last) {
      const file = queue.shift() as string;
      for (const to of graph.get(file) ?? []) {
        if (to === first) {
          last = file;
          break;
        }
        if (members.has(to) && !back.has(to)) {
          back.set(to, file);
          queue.push(to);
        }
      }
    }
    const way = [first];
    for (let at = last; at !== first; at = back.get(at) as string) way.splice(1, 0, at);
    const size = group.length > way.length ? ` (${group.length} files in all)` : "";
    return [...way, first].map((f) => relative(SRC, f)).join(" -> ") + size;
  });
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

  test("imports point down the layers (or stay in their folder), type-only ones too", () => {
    expect(upwardImports()).toEqual([]);
  });

  test("no circles of imports between files, type-only ones too", () => {
    expect(circles()).toEqual([]);
  });

  test("the facade only composes: nothing imports mock.ts but the public API and the command", () => {
    const facade = join(SRC, "mock.ts");
    const importers = [...graph].filter(([, targets]) => targets.includes(facade)).map(([file]) => relative(SRC, file));
    expect(importers.filter((f) => f !== "index.ts" && layerOf(join(SRC, f)) !== "cli")).toEqual([]);
  });

  test("no file over 300 code lines", () => {
    const big = files.map((f) => [relative(SRC, f), codeLines(readFileSync(f, "utf8"))] as const).filter(([, n]) => n > 300);
    expect(big).toEqual([]);
  });
});
