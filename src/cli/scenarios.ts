/**
 * `mcpmock scenarios --command "<client command>"`: the official conformance runner's client
 * mode on mcpmock's scenarios. Each scenario starts, the command runs with the URL as its last
 * argument (with `--transport stdio`, the server's command line instead) and the runner's
 * environment variables, and the verdict is printed; `--json` writes every verdict to a file.
 * Exit 0 only when every scenario passed.
 * @module
 */
import { spawn } from "node:child_process";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Verdict } from "../scenarios/check.js";
import { findScenario, scenarioNames, similarScenarioNames } from "../scenarios/catalogue.js";
import { formatVerdict } from "../scenarios/report.js";
import { MAX_TIMEOUT_MS, runScenario, type ScenarioClientContext } from "../scenarios/run.js";
import { UsageError } from "./command.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../protocol/revisions.js";

/** The help of `mcpmock scenarios`. */
export const SCENARIOS_HELP = `mcpmock scenarios --command "<client command>" [--scenario <name>]... [--suite official|hostile|all]
                  [--spec-version 2025-11-25|2026-07-28 [--force]] [--transport http|stdio] [--json <file>]
                  [--timeout MS] [--jobs N]

Runs MCP clients against mcpmock's client scenarios, as the official conformance runner's
client mode does: for each scenario the command runs with the server's URL as its last
argument and MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT and
MCP_CONFORMANCE_PROTOCOL_VERSION in its environment, so a client written for that runner runs
unchanged. Each check is printed; the last line is "scenarios: P/T passed".
  --command CMD       the client to run (a shell command line; the URL is appended)
  --scenario NAME     a scenario to run (repeatable); default every one of --suite
  --suite SUITE       official, hostile or all (default all)
  --spec-version V    only the scenarios of that revision, run at it (default each one's own);
                      an extension's scenarios are off the spec timeline: name them with --scenario
                      (a scenario named with --scenario must apply to V, unless --force)
  --force             play the scenarios named with --scenario at --spec-version though they do
                      not apply to it (the official runner's --force)
  --transport T       http (default), or stdio: only the scenarios not about HTTP, and the
                      command gets the server's command line appended instead of a URL (the
                      client spawns it and speaks stdio to it)
  --json FILE         also write every verdict, with its checks, to FILE (its directory is
                      created if it does not exist)
  --timeout MS        how long the client may take per scenario (default 30000)
  --jobs N            how many scenarios play at once (default 1; each has its own mock on its
                      own port); the verdicts still print in order
Exit codes: 0 every scenario passed, 1 one failed, 2 the command line is wrong.`;

const SUITES = ["official", "hostile", "all"] as const;
const TRANSPORTS = ["http", "stdio"] as const;
const OUTPUT_TAIL_BYTES = 16 * 1024;
/** How much longer than the client runScenario waits: the driver stops the client itself first. */
const BACKSTOP_MS = 5_000;
/** The exit code of a run stopped by a signal, as a shell reports it (128 + the signal's number). */
const STOPPED_BY: Readonly<Partial<Record<NodeJS.Signals, number>>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/**
 * The clients running now, each as the way to end its process group. A client runs in a group
 * of its own (so what it leaves running can be ended with it), which a Ctrl-C at the terminal
 * does not reach: when mcpmock is stopped, it ends them itself.
 */
const running = new Set<() => void>();

function stopClients(): void {
  for (const kill of running) kill();
  running.clear();
}

function options(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: false,
      options: {
        help: { type: "boolean", short: "h" },
        command: { type: "string" },
        scenario: { type: "string", multiple: true },
        suite: { type: "string" },
        "spec-version": { type: "string" },
        force: { type: "boolean" },
        transport: { type: "string" },
        json: { type: "string" },
        timeout: { type: "string" },
        jobs: { type: "string" },
      },
    }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. See mcpmock scenarios --help.`);
  }
}

/** One argument as a POSIX shell reads it back: single-quoted. */
function shellQuoted(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`;
}

/** What the command gets appended: the URL, or over stdio the server's command line. */
function target(url: string, context: ScenarioClientContext): string {
  return context.stdio ? [context.stdio.command, ...context.stdio.args].map(shellQuoted).join(" ") : url;
}

/** Runs `command target` in a shell with the runner's environment; resolves when it exits 0. */
function runClient(command: string, url: string, context: ScenarioClientContext, timeout: number): Promise<void> {
  const env = { ...process.env, MCP_CONFORMANCE_SCENARIO: context.scenario, MCP_CONFORMANCE_PROTOCOL_VERSION: context.specVersion };
  if (context.context) Object.assign(env, { MCP_CONFORMANCE_CONTEXT: JSON.stringify({ name: context.scenario, ...context.context }) });
  return new Promise((done, fail) => {
    const child = spawn(`${command} ${target(url, context)}`, { shell: true, env, stdio: ["ignore", "pipe", "pipe"], detached: process.platform !== "win32" });
    let output = "";
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString("utf8")).slice(-OUTPUT_TAIL_BYTES);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const kill = (): void => {
      try {
        if (child.pid !== undefined) process.kill(process.platform === "win32" ? child.pid : -child.pid, "SIGKILL");
      } catch {
        // it has exited already
      }
    };
    running.add(kill);
    const timer = setTimeout(() => {
      kill();
      fail(new Error(`the client did not exit in ${timeout} ms (it was stopped)`));
    }, timeout);
    child.once("error", (error) => {
      clearTimeout(timer);
      running.delete(kill);
      fail(new Error(`the client did not start: ${error.message}`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      kill(); // anything it left running in its group
      running.delete(kill);
      if (code === 0) done();
      else fail(new Error(`the client exited with ${signal ?? `code ${code}`}${output.trim() ? `; its output ended with:\n${output.trim().split("\n").slice(-8).map((l) => `        ${l}`).join("\n")}` : ""}`));
    });
  });
}

function transportOf(values: ReturnType<typeof options>): (typeof TRANSPORTS)[number] {
  const transport = values.transport ?? "http";
  if (!(TRANSPORTS as readonly string[]).includes(transport)) throw new UsageError(`--transport takes http or stdio; received ${JSON.stringify(transport)}.`);
  return transport as (typeof TRANSPORTS)[number];
}

function selected(values: ReturnType<typeof options>, transport: (typeof TRANSPORTS)[number]): string[] {
  const suite = values.suite ?? "all";
  if (!(SUITES as readonly string[]).includes(suite)) throw new UsageError(`--suite takes official, hostile or all; received ${JSON.stringify(suite)}.`);
  const specVersion = values["spec-version"];
  const known = scenarioNames();
  for (const name of values.scenario ?? []) {
    if (!known.includes(name)) {
      const similar = similarScenarioNames(name);
      throw new UsageError(`no scenario is named ${JSON.stringify(name)}.${similar.length ? ` Did you mean ${similar.map((n) => JSON.stringify(n)).join(" or ")}?` : ""} Scenarios: ${known.join(", ")}.`);
    }
  }
  if (values.force && (specVersion === undefined || values.scenario === undefined)) throw new UsageError("--force plays the scenarios named with --scenario at a --spec-version they do not apply to: give both, or leave --force out.");
  if (values.force && !SUPPORTED_PROTOCOL_VERSIONS.includes(specVersion as string)) throw new UsageError(`--force plays a scenario at a revision the mock speaks: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}; received --spec-version ${JSON.stringify(specVersion)}.`);
  const elsewhere = specVersion === undefined || values.force ? [] : (values.scenario ?? []).filter((name) => !findScenario(name)?.specVersions.includes(specVersion));
  if (elsewhere.length) {
    const at = scenarioNames({ transport, specVersion: specVersion as string });
    throw new UsageError(`${elsewhere.map((name) => `${name} applies to ${findScenario(name)?.specVersions.join(" and ")}`).join("; ")}, not ${specVersion}: leave --spec-version out to play each at its own${at.length ? `, or pick among those of ${specVersion}: ${at.join(", ")}` : ""} (or add --force to play it at ${specVersion} anyway, as the official runner's --force does).`);
  }
  const playable = scenarioNames({ transport });
  const unplayable = (values.scenario ?? []).filter((name) => !playable.includes(name));
  if (unplayable.length) throw new UsageError(`${unplayable.join(", ")} cannot be played over ${transport} (about HTTP, or read from the wire); over ${transport}: ${playable.join(", ")}.`);
  const names = values.scenario ?? scenarioNames({ suite: suite as (typeof SUITES)[number], transport, ...(specVersion ? { specVersion } : {}) });
  if (names.length === 0) throw new UsageError(`no scenario of suite ${suite} applies to ${specVersion} over ${transport}; scenarios: ${known.join(", ")}.`);
  return names;
}

/**
 * Where `--json` writes, checked before any client runs: its directory is made if missing, and a
 * path that cannot be a file is refused now rather than after every scenario has played.
 */
function reportFile(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  const path = resolve(file);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw new UsageError(`--json ${JSON.stringify(file)}: its directory ${dirname(path)} cannot be made (${(error as Error).message}); give a file in a directory that exists or can be made.`);
  }
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--json ${JSON.stringify(file)} is a directory; give the report a file name, like --json ${JSON.stringify(`${file.replace(/[\\/]+$/, "")}/verdicts.json`)}.`);
  return path;
}

/** While the scenarios play, a SIGINT, SIGTERM or SIGHUP ends the clients running, then mcpmock. */
function stopOnSignals(): () => void {
  const stop = (signal: NodeJS.Signals): void => {
    stopClients();
    process.stderr.write(`mcpmock scenarios: stopped by ${signal}; the clients still running were ended.\n`);
    process.exit(STOPPED_BY[signal] ?? 1);
  };
  const signals = Object.keys(STOPPED_BY) as NodeJS.Signals[];
  for (const signal of signals) process.on(signal, stop);
  // Whatever else ends mcpmock (an error), the clients end with it.
  process.on("exit", stopClients);
  return () => {
    for (const signal of signals) process.off(signal, stop);
    process.off("exit", stopClients);
  };
}

/** Runs `mcpmock scenarios`; resolves with the exit code. */
export async function scenarios(args: string[]): Promise<number> {
  const values = options(args);
  if (values.help) {
    process.stdout.write(`${SCENARIOS_HELP}\n`);
    return 0;
  }
  const command = values.command;
  if (!command?.trim()) throw new UsageError(`the scenarios command needs the client to run: mcpmock scenarios --command "node my-client.js". See mcpmock scenarios --help.`);
  const timeout = values.timeout === undefined ? 30_000 : Number(values.timeout);
  if (!Number.isInteger(timeout) || timeout <= 0 || timeout > MAX_TIMEOUT_MS) throw new UsageError(`--timeout takes milliseconds, a positive whole number up to ${MAX_TIMEOUT_MS} like --timeout 30000; received ${JSON.stringify(values.timeout)}.`);
  const jobs = values.jobs === undefined ? 1 : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError(`--jobs takes how many scenarios play at once, a whole number from 1 like --jobs 4; received ${JSON.stringify(values.jobs)}.`);
  const transport = transportOf(values);
  const names = selected(values, transport);
  const report = reportFile(values.json);
  const specVersion = values["spec-version"];
  // The driver stops the client itself; runScenario's own limit is only a backstop.
  const backstop = Math.min(timeout + BACKSTOP_MS, MAX_TIMEOUT_MS);
  const play = (name: string): Promise<Verdict> => runScenario(name, { timeout: backstop, transport, ...(specVersion ? { specVersion } : {}), ...(values.force ? { force: true } : {}) }, (url, context) => runClient(command, url, context, timeout));
  const stopped = stopOnSignals();
  let verdicts: Verdict[];
  try {
    verdicts = await playInOrder(names, jobs, play);
  } finally {
    stopped();
  }
  if (report) writeFileSync(report, `${JSON.stringify({ command, verdicts }, null, 2)}\n`);
  const passed = verdicts.filter((v) => v.passed).length;
  process.stdout.write(`scenarios: ${passed}/${verdicts.length} passed\n`);
  return passed === verdicts.length ? 0 : 1;
}

/** Plays `names`, `jobs` at a time, printing each verdict in order as it is reached. */
async function playInOrder(names: readonly string[], jobs: number, play: (name: string) => Promise<Verdict>): Promise<Verdict[]> {
  const playing: Array<Promise<Verdict>> = [];
  const verdicts: Verdict[] = [];
  for (let i = 0; i < names.length; i++) {
    // This scenario and the next jobs - 1 play while this one is awaited: the verdicts print in order.
    for (let j = i; j < Math.min(names.length, i + jobs); j++) {
      if (playing[j] !== undefined) continue;
      playing[j] = play(names[j] as string);
      playing[j]?.catch(() => undefined); // its failure is reported when its turn comes
    }
    const verdict = await (playing[i] as Promise<Verdict>);
    verdicts.push(verdict);
    process.stdout.write(`${formatVerdict(verdict)}\n`);
  }
  return verdicts;
}
