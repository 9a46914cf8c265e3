/**
 * `npm run build`: types and code for dist/.
 *
 * 1. `tsc -p tsconfig.build.json` type-checks and emits one .js and one .d.ts per module.
 * 2. esbuild bundles the two entry points (`dist/index.js`, the `mcpmock` command
 *    `dist/cli.js`) with what they share in one chunk, dependencies left as imports; the
 *    per-module .js files go. Loading three files instead of ~50 halves `import("mcpmock")`
 *    (measured by `npm run bench`); the .d.ts files stay one per module.
 * 3. The inspector page's files (src/admin/ui: HTML, CSS, a browser script) are copied to
 *    dist/ui, beside the bundles, where `new URL("./ui/...", import.meta.url)` finds them.
 */
import { chmodSync, cpSync, readdirSync, renameSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const bundled = join(root, "dist-bundle");

rmSync(dist, { recursive: true, force: true });
rmSync(bundled, { recursive: true, force: true });
execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
await build({
  entryPoints: { index: join(dist, "index.js"), cli: join(dist, "cli.js") },
  outdir: bundled,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  chunkNames: "shared-[hash]",
  logLevel: "warning",
});
// The per-module .js files, in every folder of dist/, give way to the bundles.
for (const file of readdirSync(dist, { recursive: true, encoding: "utf8" })) if (file.endsWith(".js") || file.endsWith(".js.map")) rmSync(join(dist, file));
for (const file of readdirSync(bundled)) renameSync(join(bundled, file), join(dist, file));
rmSync(bundled, { recursive: true, force: true });
cpSync(join(root, "src/admin/ui"), join(dist, "ui"), { recursive: true });
// The command must be executable, as npm makes it when the package is installed.
chmodSync(join(dist, "cli.js"), 0o755);
