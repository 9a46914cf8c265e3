// `npm run conformance [-- --definition <file>]`: the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned) against `mcpmock serve <definition>` on a free
// loopback port. Runs `--requirements` and `--suite all` at 2025-11-25 and at 2026-07-28 (the
// 2026-07-28 requirement set runs the tasks-extension scenarios too), prints every failing
// check with its message, and ends with
//   conformance: 2025-11-25 P/T, 2026-07-28 P/T, tasks P/T
// (scenarios passed / run). Exit 0 only when every scenario passes. Offline; about half a minute.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

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

/** Runs the suite's CLI once; resolves when it exits (its own exit code is not the verdict). */
function runSuite(args) {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["--import", SHIM, SUITE, "server", ...args], {
      cwd: ROOT,
      stdio: ["ignore", verbose ? "inherit" : "ignore", verbose ? "inherit" : "pipe"],
    });
    let errors = "";
    child.stderr?.on("data", (chunk) => (errors += chunk));
    child.once("exit", (code) => done({ code, errors }));
  });
}

/** The checks of every scenario a run wrote: `<dir>/server-<scenario>-<timestamp>/checks.json`. */
function readChecks(dir) {
  const scenarios = new Map();
  for (const entry of readdirSync(dir)) {
    const name = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry)?.[1];
    if (name === undefined) continue;
    scenarios.set(name, JSON.parse(readFileSync(join(dir, entry, "checks.json"), "utf8")));
  }
  return scenarios;
}

const out = mkdtempSync(join(tmpdir(), "mcpmock-conformance-"));
const { child: server, url } = serveMock();
/** bucket -> scenario -> failing checks (an empty list: passed). */
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
      const { errors } = await runSuite(["--url", base, ...args, "-o", dir]);
      const scenarios = readChecks(dir);
      if (scenarios.size === 0) {
        broken = true;
        console.log(`✗ ${revision} ${label}: the suite ran no scenario\n${errors}`);
        continue;
      }
      for (const [scenario, checks] of scenarios) {
        const bucket = buckets.get(scenario.startsWith("tasks-") ? "tasks" : revision);
        const failing = checks.filter((check) => check.status === "FAILURE");
        const seen = bucket.get(scenario) ?? [];
        for (const check of failing) {
          const line = `${check.id}: ${check.errorMessage ?? check.description ?? "failed"}`;
          if (!seen.includes(line)) seen.push(line);
        }
        bucket.set(scenario, seen);
      }
    }
  }
} finally {
  server.kill("SIGTERM");
  rmSync(out, { recursive: true, force: true });
}

const totals = [];
for (const [bucket, scenarios] of buckets) {
  let passed = 0;
  for (const [scenario, failing] of [...scenarios].sort(([a], [b]) => a.localeCompare(b))) {
    if (failing.length === 0) {
      passed++;
      continue;
    }
    console.log(`✗ ${bucket} ${scenario}`);
    for (const line of failing) console.log(`    ${line.replace(/\n/g, "\n      ")}`);
  }
  totals.push({ bucket, passed, total: scenarios.size });
}
const allPassed = !broken && totals.every(({ passed, total }) => passed === total && total > 0);
console.log(`conformance: ${totals.map(({ bucket, passed, total }) => `${bucket} ${passed}/${total}`).join(", ")}`);
process.exit(allPassed ? 0 : 1);
