/**
 * Issue 21, item 7: first contact is quiet. Every installed package accepts the Node that runs
 * the tests (`npm ci` on Node 20 printed EBADENGINE for a dependency of mockttp, the bench's
 * comparison server); the one package with an install script is reviewed (`allowScripts`, so
 * npm 11 does not warn about esbuild); and `npm run example` shows the user's stubs, not the
 * built-in answers, and the schema rejection whole.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, test } from "vitest";
import { main as quickStart } from "../../examples/quick-start.js";

const root = new URL("../../", import.meta.url);
// semver is in every npm tree (npm's own resolution uses it); typed here for the one call made.
const semver = createRequire(import.meta.url)("semver") as { satisfies(version: string, range: string): boolean };

interface LockEntry {
  readonly engines?: { readonly node?: string } | readonly string[];
  readonly hasInstallScript?: boolean;
  readonly optional?: boolean;
  readonly os?: readonly string[];
  readonly cpu?: readonly string[];
}
const lock = JSON.parse(readFileSync(new URL("package-lock.json", root), "utf8")) as { packages: Record<string, LockEntry> };
const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as { allowScripts?: Record<string, boolean> };

/**
 * The known exceptions: the official conformance suite (a dev dependency that only
 * `npm run conformance` runs) declares Node 22 for `fs.globSync`, which
 * scripts/conformance/glob-sync-shim.mjs supplies on Node 20, and so does a package only it
 * installs (for its `tier-check` command, which the project never runs); npm ci warns about
 * those two.
 */
const RUNS_ON_NODE_20_THROUGH_A_SHIM = new Set(["node_modules/@modelcontextprotocol/conformance", "node_modules/@octokit/request/node_modules/content-type"]);

test("every package npm ci installs accepts this Node (no EBADENGINE)", () => {
  const refused = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== "" && !Array.isArray(entry.engines) && typeof (entry.engines as { node?: string } | undefined)?.node === "string")
    .filter(([path]) => !RUNS_ON_NODE_20_THROUGH_A_SHIM.has(path))
    .filter(([, entry]) => !(entry.optional && (entry.os !== undefined || entry.cpu !== undefined)))
    .map(([path, entry]) => [path, (entry.engines as { node: string }).node] as const)
    .filter(([, range]) => !semver.satisfies(process.version, range))
    .map(([path, range]) => `${path} needs node ${range}`);
  expect(refused).toEqual([]);
});

test("every package with an install script is reviewed in allowScripts (npm 11 warns otherwise)", () => {
  const scripted = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript === true && !entry.optional)
    .map(([path]) => path.replace(/^.*node_modules\//, ""));
  expect(scripted.length).toBeGreaterThan(0);
  expect(scripted.filter((name) => pkg.allowScripts?.[name] === undefined)).toEqual([]);
});

test("npm run example lists the two stubs it wrote, then the schema rejection whole", async () => {
  const lines: string[] = [];
  await quickStart((line) => lines.push(line));
  expect(lines.join("\n")).not.toContain("default:");
  expect(lines.slice(1, 3)).toEqual([
    '  stub-1: tools/call "add" with arguments equal to {"a":1,"b":2} → {"sum":3} (seen 0)',
    '  stub-2: tools/call "add" with any arguments → text "fallback" (seen 0)',
  ]);
  expect(lines.at(-1)).toBe(
    [
      'tools/call add {"a":"one"} → isError: [mcpmock] tool "add" rejected the arguments {"a":"one"}: they do not match its inputSchema.',
      "    - args.b is required (rule: required), but it is missing",
      '    - args.a must be number (rule: type), received "one" (string)',
      '    The inputSchema declared for "add" (listed by tools/list) requires it.',
      '    If the rejection is intended, stub these arguments: mock.toolsCall("add").withArgs({"a":"one"}).respondsWith(...)',
    ].join("\n"),
  );
});
