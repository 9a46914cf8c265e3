// `npm run conformance [-- --definition <file>]`: the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned) against `mcpmock serve <definition>` on a free
// loopback port. Runs `--requirements` and `--suite all` at 2025-11-25 and at 2026-07-28 (the
// 2026-07-28 requirement set runs the tasks-extension scenarios too), prints every failing
// check with its message, and ends with
//   conformance: 2025-11-25 P/T, 2026-07-28 P/T, tasks P/T
// (scenarios passed / run; a scenario the suite skips counts in neither and is noted after, as in
// `tasks 9/9 (1 skipped)`). Exit 0 only when every scenario that ran passes and every suite run
// exited as its checks say. Offline; about half a minute.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { addRun, anyFailing, readChecks, tally } from "./tally.mjs";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SHIM = join(ROOT, "scripts/conformance/glob-sync-shim.mjs");
const SUITE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const REVISIONS = ["2025-11-25", "2026-07-28"];

function argument(name, fallback) {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
}
const definition = resolve(argument("--definition", join(ROOT, "test/conformance/everything.mock.json")));
const verbose = process.argv.includes("--verbose");

/** Starts `mcpmock serve` (from the sources, through tsx) and resolves with its URL. */
function serveMock() {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src/cli.ts"), "serve", definition, "--port", "0", "--no-admin"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`mcpmock serve printed no URL in 30 s:\n${output}`)), 30_000);
    const read = (chunk) => {
      output += chunk;
      const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output);
      if (found) {
        clearTimeout(timer);
        done(found[1]);
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", (chunk) => {
      output += chunk;
      if (verbose) process.stderr.write(chunk);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`mcpmock serve exited (${code}):\n${output}`));
    });
  });
  return { child, url };
}

/** Runs the suite's CLI once; resolves with its exit code (non-zero when a scored check failed). */
function runSuite(args) {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["--import", SHIM, SUITE, "server", ...args], {
      cwd: ROOT,
      stdio: ["ignore", verbose ? "inherit" : "ignore", verbose ? "inherit" : "pipe"],
    });
    let errors = "";
    child.stderr?.on("data", (chunk) => (errors += chunk));
    child.once("exit", (code) => done({ code, errors }));
    // A suite that cannot start (no node, no permission) ends the run with why, not a hang.
    child.once("error", (error) => done({ code: 1, errors: `${errors}the conformance suite did not start: ${error.message}\n` }));
  });
}

if (!existsSync(SUITE)) {
  console.log(`✗ conformance: the suite is not installed (${SUITE}); run \`npm install\` (it pins @modelcontextprotocol/conformance)`);
  process.exit(1);
}
const out = mkdtempSync(join(tmpdir(), "mcpmock-conformance-"));
const { child: server, url } = serveMock();
/** bucket -> scenario -> { failing checks, ran, skipped }. */
const buckets = new Map([...REVISIONS, "tasks"].map((bucket) => [bucket, new Map()]));
let broken = false;
try {
  const base = await url;
  console.log(`conformance: serving ${definition} at ${base}`);
  for (const revision of REVISIONS) {
    for (const [label, args] of [
      ["requirements", ["--requirements", revision]],
      ["suite all", ["--suite", "all", "--spec-version", revision]],
    ]) {
      const dir = join(out, `${revision}-${label.replace(" ", "-")}`);
      const { code, errors } = await runSuite(["--url", base, ...args, "-o", dir]);
      const scenarios = readChecks(dir);
      if (typeof scenarios === "string" || scenarios.size === 0) {
        broken = true;
        console.log(`✗ ${revision} ${label}: the suite ran no scenario (exit code ${code}): ${typeof scenarios === "string" ? scenarios : "no results"}\n${errors}`);
        continue;
      }
      if (code !== 0 && !anyFailing(scenarios)) {
        broken = true;
        console.log(`✗ ${revision} ${label}: the suite exited with code ${code} though no check failed; run with --verbose to see its output\n${errors}`);
      }
      addRun(buckets, revision, scenarios);
    }
  }
} catch (error) {
  broken = true;
  console.log(`✗ conformance: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  server.kill("SIGTERM");
  rmSync(out, { recursive: true, force: true });
}

const { lines, summary, ok } = tally(buckets, broken);
for (const line of lines) console.log(line);
console.log(summary);
process.exit(ok ? 0 : 1);
