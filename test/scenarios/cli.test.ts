/**
 * `mcpmock scenarios` as a user runs it (dist/cli.js): the command gets the URL last and the
 * runner's variables, the JSON report, the last line and the exit codes, and mistakes on the
 * command line (exit 2) that say the fix.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runCli, startCli } from "../support/cli-run.js";

const dir = mkdtempSync(join(tmpdir(), "mcpmock-scenarios-cli-"));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mcpmock scenarios", () => {
  test("runs the command with the URL last and the runner's variables; --json; exit 0 when all pass", async () => {
    const seen = join(dir, "seen.txt");
    // A shell client that records what it was given and lists nothing: initialize is never sent, which the official scenario does not score.
    const command = `node -e "require('fs').writeFileSync('${seen}', process.env.MCP_CONFORMANCE_SCENARIO + ' ' + process.env.MCP_CONFORMANCE_PROTOCOL_VERSION + ' ' + process.argv.at(-1))"`;
    const report = join(dir, "report.json");
    const run = await runCli(["scenarios", "--command", command, "--scenario", "initialize", "--json", report]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split("\n").at(-1)).toBe("scenarios: 1/1 passed");
    expect(readFileSync(seen, "utf8")).toMatch(/^initialize 2025-11-25 http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(JSON.parse(readFileSync(report, "utf8"))).toMatchObject({ verdicts: [{ scenario: "initialize", passed: true, checks: [] }] });
  });

  test("--transport stdio: the command gets the server's command line, a real stdio server it spawns", async () => {
    // A client of a few lines on the v1 SDK: it spawns what it is given and calls add_numbers.
    const client = join(dir, "stdio-client.mjs");
    const sdk = (path: string) => JSON.stringify(new URL(`../../node_modules/@modelcontextprotocol/sdk/dist/esm/${path}`, import.meta.url).href);
    writeFileSync(
      client,
      [
        `import { Client } from ${sdk("client/index.js")};`,
        `import { StdioClientTransport } from ${sdk("client/stdio.js")};`,
        `const [command, ...args] = process.argv.slice(2);`,
        `const client = new Client({ name: "stdio-client", version: "1.0.0" });`,
        `await client.connect(new StdioClientTransport({ command, args }));`,
        `if (process.env.MCP_CONFORMANCE_SCENARIO === "tools_call") await client.callTool({ name: "add_numbers", arguments: { a: 1, b: 2 } });`,
        `await client.close();`,
      ].join("\n"),
    );
    const run = await runCli(["scenarios", "--command", `node ${client}`, "--transport", "stdio", "--suite", "official", "--spec-version", "2025-11-25", "--scenario", "initialize", "--scenario", "tools_call"]);
    expect(run.stdout).toContain("✓ tools_call (2025-11-25): passed");
    expect([run.code, run.stdout.trim().split("\n").at(-1)]).toEqual([0, "scenarios: 2/2 passed"]);
  });

  test("--jobs 3: three scenarios play at once, the verdicts print in order, the same as one at a time", async () => {
    const names = ["initialize", "tools_call", "hostile/canary-tool", "hostile/malformed-json"];
    // A client that notes when it starts and ends, connects to nothing and leaves after 400 ms.
    const client = join(dir, "timed-client.mjs");
    writeFileSync(client, `import { appendFileSync } from "node:fs";\nconst [log] = process.argv.slice(2, 3);\nappendFileSync(log, "start\\n");\nsetTimeout(() => appendFileSync(log, "end\\n"), 400);\n`);
    const run = async (jobs: string[]): Promise<{ code: number | null; stdout: string; log: string[] }> => {
      const log = join(dir, `timed-${jobs.length ? jobs[1] : 1}.log`);
      writeFileSync(log, "");
      const result = await runCli(["scenarios", "--command", `node ${client} ${log}`, ...names.flatMap((n) => ["--scenario", n]), ...jobs]);
      return { ...result, log: readFileSync(log, "utf8").trim().split("\n") };
    };
    const [one, three] = await Promise.all([run([]), run(["--jobs", "3"])]);
    // One at a time: each client ends before the next starts. Three at once: three start before any ends.
    expect(one.log).toEqual(names.flatMap(() => ["start", "end"]));
    expect(three.log.slice(0, 3)).toEqual(["start", "start", "start"]);
    const verdictLines = (out: string): string[] => out.split("\n").filter((l) => /^[✓✗] [\w/-]+ \(/.test(l));
    expect(verdictLines(three.stdout).map((l) => l.split(" ")[1])).toEqual(names);
    expect(verdictLines(three.stdout)).toEqual(verdictLines(one.stdout));
    expect([three.code, three.stdout.trim().split("\n").at(-1)]).toEqual([one.code, one.stdout.trim().split("\n").at(-1)]);
  });

  test("a client that fails: its checks and its output, exit 1", async () => {
    const run = await runCli(["scenarios", "--command", `node -e "console.error('cannot connect'); process.exit(3)"`, "--scenario", "tools_call"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("✗ tool-add-numbers: Validates that the add_numbers tool works correctly");
    expect(run.stdout).toContain("the client exited with code 3; its output ended with:");
    expect(run.stdout).toContain("cannot connect");
    expect(run.stdout.trim().split("\n").at(-1)).toBe("scenarios: 0/1 passed");
  });

  test("stopped with Ctrl-C (SIGINT), it ends the client still running, which a Ctrl-C does not reach, and exits 130", async () => {
    // A client that notes its pid and never ends: it runs in a process group of its own.
    const pidFile = join(dir, "endless-client.pid");
    const cli = startCli(["scenarios", "--command", `node -e "require('fs').writeFileSync('${pidFile}', String(process.pid)); setInterval(() => {}, 1000)"`, "--scenario", "tools_call"]);
    let pid: number | undefined;
    try {
      await expect.poll(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "", { timeout: 8_000 }).toBe(true);
      pid = Number(readFileSync(pidFile, "utf8"));
      cli.child.kill("SIGINT");
      const run = await cli.exited;
      expect([run.code, run.stderr.trim()]).toEqual([130, "mcpmock scenarios: stopped by SIGINT; the clients still running were ended."]);
      await expect.poll(() => alive(pid as number), { timeout: 3_000 }).toBe(false);
    } finally {
      cli.kill();
      if (pid !== undefined && alive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  test("--json into a directory that does not exist yet: the directory is made and the report written", async () => {
    const report = join(dir, "reports", "nightly", "verdicts.json");
    const run = await runCli(["scenarios", "--command", `node -e ""`, "--scenario", "initialize", "--json", report]);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(JSON.parse(readFileSync(report, "utf8"))).toMatchObject({ verdicts: [{ scenario: "initialize", passed: true }] });
  });

  test("--json where no file can be written is refused before any client runs", async () => {
    const marker = join(dir, "ran.txt");
    const client = `node -e "require('fs').writeFileSync('${marker}', 'ran')"`;
    const notADirectory = join(dir, "plain-file");
    writeFileSync(notADirectory, "");
    const aDirectory = join(dir, "a-directory");
    mkdirSync(aDirectory);
    const under = await runCli(["scenarios", "--command", client, "--scenario", "initialize", "--json", join(notADirectory, "verdicts.json")]);
    expect(under.code).toBe(2);
    expect(under.stderr).toContain(`--json "${join(notADirectory, "verdicts.json")}": its directory ${notADirectory} cannot be made`);
    const onto = await runCli(["scenarios", "--command", client, "--scenario", "initialize", "--json", aDirectory]);
    expect(onto.code).toBe(2);
    expect(onto.stderr).toContain(`--json "${aDirectory}" is a directory; give the report a file name, like --json "${aDirectory}/verdicts.json"`);
    expect(existsSync(marker)).toBe(false);
  });

  test.each([
    [["scenarios"], /needs the client to run: mcpmock scenarios --command "node my-client.js"/],
    [["scenarios", "--command", "x", "--scenario", "tools-call"], /no scenario is named "tools-call". Did you mean "tools_call"\?/],
    [["scenarios", "--command", "x", "--scenario", "canary-tool"], /no scenario is named "canary-tool". Did you mean "hostile\/canary-tool"\?/],
    [["scenarios", "--command", "x", "--scenario", "auth/scope"], /no scenario is named "auth\/scope". Did you mean "auth\/scope-step-up" or "auth\/scope-retry-limit" or "auth\/scope-from-www-authenticate"\?/],
    // Played there, a verdict would be labelled with a revision the scenario knows nothing of.
    [["scenarios", "--command", "x", "--scenario", "initialize", "--spec-version", "2099-01-01"], /^mcpmock: initialize applies to 2025-11-25 and 2025-06-18, not 2099-01-01: leave --spec-version out to play each at its own \(or add --force to play it at 2099-01-01 anyway, as the official runner's --force does\)\.$/m],
    [["scenarios", "--command", "x", "--scenario", "initialize", "--spec-version", "2099-01-01", "--force"], /--force plays a scenario at a revision the mock speaks: 2026-07-28, 2025-11-25, .*; received --spec-version "2099-01-01"/],
    [["scenarios", "--command", "x", "--suite", "official", "--spec-version", "2025-11-25", "--force"], /--force plays the scenarios named with --scenario at a --spec-version they do not apply to: give both, or leave --force out/],
    [["scenarios", "--command", "x", "--scenario", "initialize", "--spec-version", "2026-07-28"], /initialize applies to 2025-11-25 and 2025-06-18, not 2026-07-28: leave --spec-version out to play each at its own, or pick among those of 2026-07-28: tools_call, /],
    [["scenarios", "--command", "x", "--suite", "evil"], /--suite takes official, hostile or all; received "evil"/],
    [["scenarios", "--command", "x", "--timeout", "soon"], /--timeout takes milliseconds/],
    // Past what a timer holds, a timeout would fire at once and stop every client as it starts.
    [["scenarios", "--command", "x", "--timeout", "3000000000"], /--timeout takes milliseconds, a positive whole number up to 2147483647 like --timeout 30000; received "3000000000"/],
    [["scenarios", "--command", "x", "--jobs", "0"], /--jobs takes how many scenarios play at once, a whole number from 1 like --jobs 4; received "0"/],
    [["scenarios", "--command", "x", "--transport", "memory"], /--transport takes http or stdio; received "memory"/],
    [["scenarios", "--command", "x", "--transport", "stdio", "--scenario", "sse-retry"], /sse-retry cannot be played over stdio \(about HTTP, or read from the wire\); over stdio: initialize, tools_call/],
  ])("%j is refused with exit 2", async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
