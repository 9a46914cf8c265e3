/**
 * Issue 21, item 8: the `mcpmock` command as a newcomer meets it, run as a child process.
 * Mistakes said once ("mcpmock: ...", never "mcpmock: mcpmock ..."), in the command's own
 * terms (not Node's parseArgs text), with a did-you-mean; colours on a terminal unless
 * NO_COLOR; the start-up listing names the declared tools, resources and prompts.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { CLI, ROOT } from "../support/build.js";
import { runCli, startCli } from "../support/cli-run.js";

const dir = mkdtempSync(join(tmpdir(), "mcpmock-cli-polish-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, "shop.mock.json");
writeFileSync(
  file,
  JSON.stringify({
    tools: [{ name: "slow", inputSchema: { type: "object" } }],
    resources: [
      { uri: "test://hello", name: "hello", text: "Hello" },
      { uriTemplate: "test://items/{id}", name: "item", text: "item {{uri.id}}" },
    ],
    prompts: [{ name: "greet", arguments: [{ name: "name", required: true }, { name: "tone" }], messages: "Hello, {{args.name}}" }],
    responses: [{ tool: "slow", stream: [{ progress: 1, total: 2 }, { progress: 2, total: 2 }, { log: "info", data: "x" }], result: "done" }],
  }),
);

/** No colour in the environment either way, unless a test sets it. */
const plain = { NO_COLOR: undefined, FORCE_COLOR: undefined, NODE_DISABLE_COLORS: undefined };

describe.concurrent("command-line mistakes in the command's own terms", () => {
  test.for([
    [["serv", file], 'mcpmock: unknown command "serv". Did you mean "serve"? Commands: serve, stdio, validate, record, check, scenarios. See mcpmock --help.'],
    [["validat", file], 'mcpmock: unknown command "validat". Did you mean "validate"? Commands: serve, stdio, validate, record, check, scenarios. See mcpmock --help.'],
    [["launch", file], 'mcpmock: unknown command "launch". Commands: serve, stdio, validate, record, check, scenarios. See mcpmock --help.'],
    [["serve", file, "--prot", "8080"], "mcpmock: unknown option --prot. Did you mean --port? See mcpmock --help."],
    [["serve", file, "--stateles"], "mcpmock: unknown option --stateles. Did you mean --stateless? See mcpmock --help."],
    [["serve", file, "--frobnicate"], "mcpmock: unknown option --frobnicate. See mcpmock --help."],
    [["serve", file, "--port"], "mcpmock: --port needs a value, like --port 3000. See mcpmock --help."],
    [["serve", file, "--verbose=yes"], "mcpmock: --verbose takes no value. See mcpmock --help."],
    [["serve"], "mcpmock: the serve command needs a definition file: mcpmock serve <definition.json>"],
    [["stdio", "a.json", "b.json"], "mcpmock: the stdio command takes one file, received 2: a.json b.json"],
  ] as const)("mcpmock %j: exit 2 and one clear line", async ([args, message], { expect }) => {
    const r = await runCli(args, plain);
    expect({ code: r.code, stderr: r.stderr, stdout: r.stdout }).toEqual({ code: 2, stderr: `${message}\n`, stdout: "" });
    expect(r.stderr).not.toMatch(/mcpmock: mcpmock|To specify a positional argument/);
  });
});

describe("colours", () => {
  test("a pipe gets none; FORCE_COLOR turns them on", async () => {
    const piped = await runCli(["validate", file], plain);
    expect(piped.stdout).toBe(`${file} is a valid mcpmock definition.\n`);
    const forced = await runCli(["validate", file], { ...plain, FORCE_COLOR: "1" });
    expect(forced.stdout).toBe(`\u001b[32m${file} is a valid mcpmock definition.\u001b[39m\n`);
    const refused = await runCli(["validate", join(dir, "missing.json")], { ...plain, FORCE_COLOR: "1" });
    expect(refused.stderr.startsWith("\u001b[31m[mcpmock]\u001b[39m no definition file at")).toBe(true);
    const usage = await runCli(["serv", file], { ...plain, FORCE_COLOR: "1" });
    expect(usage.stderr.startsWith("\u001b[31mmcpmock:\u001b[39m unknown command")).toBe(true);
  });

  // A real terminal: util-linux `script` runs the command on a pseudo-terminal.
  const hasScript = (() => {
    try {
      execFileSync("script", ["--version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();
  test.skipIf(!hasScript)("on a terminal: coloured, and plain with NO_COLOR", () => {
    const onTerminal = (env: Record<string, string | undefined>): string =>
      execFileSync("script", ["-qec", `"${process.execPath}" "${CLI}" validate "${file}"`, "/dev/null"], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, ...plain, TERM: "xterm", ...env },
      });
    expect(onTerminal({})).toContain(`\u001b[32m${file} is a valid mcpmock definition.\u001b[39m`);
    const noColour = onTerminal({ NO_COLOR: "1" });
    expect(noColour).toContain(`${file} is a valid mcpmock definition.`);
    expect(noColour).not.toContain("\u001b[");
    expect(onTerminal({ TERM: "dumb" })).not.toContain("\u001b[");
  });
});

test("the start-up listing names the declared tools, resources and prompts, and counts steps without a plural typo", async () => {
  const serve = startCli(["serve", file, "--port", "0"], plain);
  try {
    const out = await serve.waitFor("stdout", (text) => text.includes("stub-1"));
    const listing = out.split("\n").filter((line) => line.startsWith("  ") || line === "").join("\n");
    expect(listing).toBe(
      [
        "  tools: slow",
        "  resources: test://hello, test://items/{id} (template)",
        "  prompts: greet (name, tone?)",
        '  stub-1: tools/call "slow" → a stream (progress ×2, log, then text "done") (seen 0)',
        "",
      ].join("\n"),
    );
  } finally {
    serve.kill();
    await serve.exited;
  }
});
