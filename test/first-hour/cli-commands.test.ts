/**
 * Issue 32, item 10: `mcpmock serve` started by npx ends when npx does, even when npx is killed
 * without a chance to pass the signal on (npx runs the command through `sh -c`, so the server's
 * parent is the shell, which outlives npx); the did-you-mean of a mistyped command knows every
 * command (record and check too), from one list.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { CLI } from "../support/build.js";
import { runCli } from "../support/cli-run.js";

const project = mkdtempSync(join(tmpdir(), "mcpmock-npx-"));
afterAll(() => {
  // Whatever a failed run left behind: the processes started in this project, by their ids.
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(project)) process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone already, or not ours to read
    }
  }
  rmSync(project, { recursive: true, force: true });
});

/** True once a connection to `url` is refused (ECONNREFUSED) within `withinMs`; a timeout or any other error is not a refusal. */
async function refused(url: string, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    try {
      await fetch(url, { method: "DELETE", signal: AbortSignal.timeout(500) });
    } catch (error) {
      if ((error as { cause?: { code?: unknown } }).cause?.code === "ECONNREFUSED") return true;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

test.skipIf(process.platform !== "linux")("serve run by npx stops when npx is killed (SIGKILL: no signal passed on to the shell between)", async () => {
  mkdirSync(join(project, "node_modules/.bin"), { recursive: true });
  symlinkSync(CLI, join(project, "node_modules/.bin/mcpmock"));
  writeFileSync(join(project, "package.json"), '{ "name": "npx-user", "private": true }\n');
  writeFileSync(join(project, "mock.json"), '{ "tools": [{ "name": "a" }] }\n');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|VITEST)/.test(k)));
  const npx = spawn("npx", ["--no-install", "mcpmock", "serve", join(project, "mock.json"), "--port", "0", "--no-admin"], { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  npx.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
  npx.stderr.setEncoding("utf8").on("data", (c: string) => (out += c));
  const until = Date.now() + 20_000;
  while (!/serving .* at (\S+)/.test(out) && Date.now() < until && npx.exitCode === null) await new Promise((r) => setTimeout(r, 100));
  const url = /serving .* at (\S+)/.exec(out)?.[1];
  expect(url, out).toBeDefined();
  expect(await refused(url as string, 300)).toBe(false); // it is serving
  npx.kill("SIGKILL");
  expect(await refused(url as string, 5_000)).toBe(true);
}, 30_000);

test("a mistyped command is told about every command, record and check included", async () => {
  const r = await runCli(["recrd"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('mcpmock: unknown command "recrd". Did you mean "record"? Commands: serve, stdio, validate, record, check, scenarios. See mcpmock --help.\n');
  expect((await runCli(["chek", "x.json"])).stderr).toContain('Did you mean "check"?');
});
