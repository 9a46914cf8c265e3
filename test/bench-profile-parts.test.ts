// bench/profile-parts.ts is held against src/: a renamed module or function, or a new module on
// the call's path that nobody placed, fails here instead of moving its samples to "HTTP server".
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CALL_PATH_FOLDERS, names, PARTS, partOfModule, ROLLS_UP } from "../bench/profile-parts.js";

const SRC = new URL("../src/", import.meta.url).pathname;

function modulesUnder(folder: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(SRC, folder))) {
    const path = `${folder}/${name}`;
    if (statSync(join(SRC, path)).isDirectory()) out.push(...modulesUnder(path));
    else if (name.endsWith(".ts")) out.push(path.slice(0, -3));
  }
  return out;
}

const callPath = CALL_PATH_FOLDERS.flatMap(modulesUnder);

describe("the profile's parts map", () => {
  it("names only modules that exist", () => {
    const missing = [...PARTS.flatMap((p) => p.modules), ...ROLLS_UP].filter((m) =>
      m.endsWith("/*") ? !existsSync(join(SRC, m.slice(0, -2))) : !existsSync(join(SRC, `${m}.ts`)),
    );
    expect(missing, "modules named in bench/profile-parts.ts that src/ no longer has").toEqual([]);
  });

  it("names only functions its modules define", () => {
    const missing: string[] = [];
    for (const p of PARTS) {
      for (const fn of p.functions ?? []) {
        const defined = p.modules.some((m) => new RegExp(`(function|const|#?)\\s*#?${fn}\\s*[(=<]`).test(readFileSync(join(SRC, `${m}.ts`), "utf8")));
        if (!defined) missing.push(`${fn} in ${p.modules.join(", ")}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("places every module of the call's path in a part or in ROLLS_UP", () => {
    const unplaced = callPath.filter((m) => !PARTS.some((p) => p.modules.some((pattern) => names(pattern, m))) && !ROLLS_UP.some((pattern) => names(pattern, m)));
    expect(unplaced, "add each to a part of bench/profile-parts.ts, or to ROLLS_UP when its caller's part should take its samples").toEqual([]);
  });

  it("never places one module both in a part and in ROLLS_UP", () => {
    const both = callPath.filter((m) => PARTS.some((p) => !p.functions && p.modules.some((pattern) => names(pattern, m))) && ROLLS_UP.some((pattern) => names(pattern, m)));
    expect(both).toEqual([]);
  });

  it("reads a frame as the profiler names it", () => {
    expect(partOfModule("transports/http/node-io", "sendJson")).toBe("write");
    expect(partOfModule("transports/http/node-io", "readBody")).toBe("parse");
    expect(partOfModule("auth/resource-server", "check")).toBe("gate");
    expect(partOfModule("journal/journal", "#record")).toBe("journal");
    expect(partOfModule("upstream/http-client", "#readCall")).toBe("upstream");
    expect(partOfModule("protocol/methods/tools-call", "name")).toBeUndefined();
  });
});
