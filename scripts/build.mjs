/**
 * `npm run build`: types and code for dist/.
 *
 * 1. `tsc -p tsconfig.build.json` type-checks and emits one .js and one .d.ts per module.
 * 2. esbuild bundles the entry points (`dist/index.js`, the `mcpmock` command `dist/cli.js`,
 *    `mcpmock/vitest` in `dist/vitest.js`, `mcpmock/recording` in `dist/recording.js`) with
 *    what they share in chunks, dependencies left as imports but Hono and its Node adapter,
 *    which go into the chunks; the per-module .js files go. Loading a few files instead of ~50
 *    halves `import("mcpmock")` (measured by `npm run bench`); the .d.ts files stay one per module.
 *    Each chunk is named for the folder of src/ most of its code comes from (`engine.js`,
 *    `recording.js`), so a stack trace says where it is; no hash, the build is the version.
 * 3. The inspector page's files (src/admin/ui: HTML, CSS, a browser script) are copied to
 *    dist/ui, beside the bundles, where `new URL("./ui/...", import.meta.url)` finds them.
 */
import { chmodSync, cpSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildProbeView } from "./probe-view.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const bundled = join(root, "dist-bundle");

/** The packages bundled into dist/ rather than imported from node_modules at run time. */
const BUNDLED_PACKAGES = ["hono", "@hono/node-server"];
const bundledImport = (path) => BUNDLED_PACKAGES.some((name) => path === name || path.startsWith(`${name}/`));

rmSync(dist, { recursive: true, force: true });
rmSync(bundled, { recursive: true, force: true });
execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
const result = await build({
  entryPoints: { index: join(dist, "index.js"), cli: join(dist, "cli.js"), vitest: join(dist, "vitest/index.js"), recording: join(dist, "recording/index.js"), scenarios: join(dist, "scenarios/index.js") },
  metafile: true,
  outdir: bundled,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Dependencies stay imports, except Hono and its Node adapter: some 35 small modules that cost
  // Node's loader about 15 ms to resolve, read and link one by one, and 1 ms as part of a chunk
  // (`import mcpmock` 1.46x Hono's before, see docs/performance.md). They stay dependencies for
  // the .d.ts files; their licenses go beside the bundles (dist/THIRD-PARTY-LICENSES.md).
  plugins: [{ name: "dependencies-external-but-hono", setup: (b) => b.onResolve({ filter: /^[^./]/ }, ({ path }) => (bundledImport(path) ? undefined : { path, external: true })) }],
  // Non-ASCII characters in code written as escapes (esbuild's default, stated: the loop below
  // relies on it and escapes the rest, which can only be in comments).
  charset: "ascii",
  chunkNames: "shared-[hash]",
  logLevel: "warning",
});
// Chunks named for the src/ folder most of their bytes come from: `chunk-engine.js`, not `shared-HZJEYNOK.js`.
const renamed = new Map();
for (const [out, meta] of Object.entries(result.metafile.outputs)) {
  const file = out.split("/").pop();
  if (!file.startsWith("shared-") || !file.endsWith(".js")) continue;
  const bytes = new Map();
  for (const [input, { bytesInOutput }] of Object.entries(meta.inputs)) {
    // A file of src/'s root counts as its own name (`mock`, `served`); a bundled package's, as the package.
    const m = /node_modules\/(?:@[^/]+\/)?([^/]+)\/|^dist\/(?:([^/]+)\/|([^/]+)\.js$)/.exec(input);
    const folder = m?.[1] ?? m?.[2] ?? m?.[3] ?? "mcpmock";
    bytes.set(folder, (bytes.get(folder) ?? 0) + bytesInOutput);
  }
  const folder = [...bytes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "mcpmock";
  let name = `chunk-${folder}.js`;
  for (let n = 2; [...renamed.values()].includes(name); n++) name = `chunk-${folder}-${n}.js`;
  renamed.set(file, name);
}
for (const file of readdirSync(bundled)) {
  let code = readFileSync(join(bundled, file), "utf8");
  for (const [from, to] of renamed) code = code.split(`./${from}`).join(`./${to}`);
  // esbuild escapes non-ASCII characters in code (its default `charset`) but leaves the comments it
  // keeps as they are, and one such character (a `→` in a doc comment) makes V8 hold the whole
  // file's source as two bytes per character: 962 KB of heap for the engine's 428 KB chunk. In
  // a comment, an escape is only text.
  code = code.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  writeFileSync(join(bundled, renamed.get(file) ?? file), code);
  if (renamed.has(file)) rmSync(join(bundled, file));
}
// The per-module .js files, in every folder of dist/, give way to the bundles.
for (const file of readdirSync(dist, { recursive: true, encoding: "utf8" })) if (file.endsWith(".js") || file.endsWith(".js.map")) rmSync(join(dist, file));
for (const file of readdirSync(bundled)) renameSync(join(bundled, file), join(dist, file));
rmSync(bundled, { recursive: true, force: true });
cpSync(join(root, "src/admin/ui"), join(dist, "ui"), { recursive: true });
// The bundled packages' licenses (MIT: the notice travels with the code).
const licenses = BUNDLED_PACKAGES.map((name) => {
  const { version, license } = JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8"));
  return `## ${name} ${version} (${license})\n\n${readFileSync(join(root, "node_modules", name, "LICENSE"), "utf8").trim()}\n`;
});
writeFileSync(join(dist, "THIRD-PARTY-LICENSES.md"), `# Bundled into mcpmock's dist/\n\n${licenses.join("\n")}`);
// The MCP Apps probe view: one static HTML file with the ext-apps View SDK inline.
await buildProbeView(root, dist);
// The command must be executable, as npm makes it when the package is installed.
chmodSync(join(dist, "cli.js"), 0o755);
