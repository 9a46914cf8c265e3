/**
 * Issue 32, item 8: what `npm pack` ships, checked without installing it (`npm pack --dry-run`,
 * after the build of the global setup). Every relative link of the README resolves to a file of
 * the tarball; no file points at a source map that is not shipped (`.d.ts.map`, `.js.map`);
 * stack traces name chunks by what they hold (`chunk-engine.js`), not a hash; the `@internal`
 * members of public classes are not in the published declarations; `mcpmock/vitest` is an
 * entry of the exports map, with vitest an optional peer dependency.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
let files: string[] = [];

beforeAll(() => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|VITEST)/.test(k)));
  const packed = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 });
  if (packed.status !== 0) throw new Error(`npm pack --dry-run failed:\n${packed.stdout}${packed.stderr}`);
  files = (JSON.parse(packed.stdout) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((f) => f.path) ?? [];
}, 60_000);

test("every relative link of the README (and of the docs it ships) resolves to a file in the tarball", () => {
  const shipped = new Set(files);
  const broken: string[] = [];
  for (const doc of files.filter((f) => f.endsWith(".md"))) {
    const text = readFileSync(join(ROOT, doc), "utf8").replace(/```[\s\S]*?```/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const path = (target as string).split("#")[0] as string;
      if (path === "" || /^[a-z]+:/i.test(path)) continue; // an anchor, or absolute
      const resolved = join(doc, "..", path).replace(/\\/g, "/");
      if (!shipped.has(resolved)) broken.push(`${doc} -> ${target}`);
    }
  }
  expect(files).toContain("README.md");
  expect(broken).toEqual([]);
});

test("the guides ship, and the benchmark's internals stay in docs/performance.md beside the guide's summary", () => {
  // Every link and anchor of the docs is checked by test/doc-links.test.ts; here, that the guides are in the tarball.
  expect(files.filter((f) => f.startsWith("docs/guides/")).length).toBeGreaterThan(10);
  const summary = readFileSync(join(ROOT, "docs/guides/performance.md"), "utf8");
  const performance = readFileSync(join(ROOT, "docs/performance.md"), "utf8");
  for (const moved of ["npm run bench:count -- <server> <server>", "| counted (HTTP: 1 connection"]) {
    expect(summary).not.toContain(moved);
    expect(performance).toContain(moved);
  }
  expect(summary).toContain("(../performance.md)");
});

test("no source map is pointed at that is not shipped, and none is shipped without its sources", () => {
  const shipped = new Set(files);
  const dangling: string[] = [];
  for (const file of files.filter((f) => f.endsWith(".js") || f.endsWith(".d.ts"))) {
    const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(ROOT, file), "utf8"))?.[1];
    if (url !== undefined && !url.startsWith("data:") && !shipped.has(join(file, "..", url))) dangling.push(`${file} -> ${url}`);
  }
  expect(dangling).toEqual([]);
  expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
});

test("chunks are named for what they hold, so a stack trace says where it is", () => {
  const chunks = files.filter((f) => /^dist\/[^/]+\.js$/.test(f) && !["dist/index.js", "dist/cli.js", "dist/vitest.js", "dist/recording.js", "dist/scenarios.js"].includes(f));
  expect(chunks.length).toBeGreaterThan(0);
  expect(chunks.filter((f) => !/^dist\/chunk-[a-z-]+(-\d+)?\.js$/.test(f))).toEqual([]);
  expect(chunks).toContain("dist/chunk-engine.js");
});

test("@internal members of the public classes are not in the published declarations", () => {
  const declarations = (file: string) => readFileSync(join(ROOT, file), "utf8").replace(/\/\*\*[\s\S]*?\*\//g, "");
  const mock = declarations("dist/mock.d.ts");
  for (const name of ["serveStdio", "reloadDefinition"]) expect(mock, name).not.toMatch(new RegExp(`\\b${name}\\(`));
  const builder = declarations("dist/dsl/stub-builder.d.ts");
  for (const name of ["planFor", "registerPlan", "keptAnswer", "withMatcher"]) expect(builder, name).not.toMatch(new RegExp(`\\b${name}\\(`));
  expect(declarations("dist/auth/mock-auth.d.ts")).not.toMatch(/\bprotect\(|\bmount\(/);
  // Internal classes' @internal members too (issue 43: serveStdio and mount were shipped).
  expect(declarations("dist/served.d.ts")).not.toMatch(/\bserveStdio\(/);
  expect(declarations("dist/transports/http/legacy-sse.d.ts")).not.toMatch(/\bmount\(/);
  expect(mock).toMatch(/\ballowUnmatched\(\): void/);
});

test("mcpmock/recording is in the exports map and built", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, unknown> };
  expect(pkg.exports["./recording"]).toEqual({ types: "./dist/recording/index.d.ts", import: "./dist/recording.js", default: "./dist/recording.js" });
  expect(files).toContain("dist/recording.js");
  expect(files).toContain("dist/recording/index.d.ts");
});

test("mcpmock/vitest is in the exports map, built, and vitest is an optional peer dependency", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    exports: Record<string, unknown>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    dependencies: Record<string, string>;
  };
  expect(pkg.exports["./vitest"]).toEqual({ types: "./dist/vitest/index.d.ts", import: "./dist/vitest.js", default: "./dist/vitest.js" });
  expect(files).toContain("dist/vitest.js");
  expect(files).toContain("dist/vitest/index.d.ts");
  expect(pkg.peerDependencies?.["vitest"]).toBeDefined();
  expect(pkg.peerDependenciesMeta?.["vitest"]?.optional).toBe(true);
  expect(pkg.dependencies["vitest"]).toBeUndefined();
  // dist/index.js does not load vitest: only the subpath needs it.
  expect(readFileSync(join(ROOT, "dist/index.js"), "utf8")).not.toContain('"vitest"');
  expect(existsSync(join(ROOT, "dist/vitest.js"))).toBe(true);
});
