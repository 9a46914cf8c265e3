/**
 * The `mcpmock` command as a child process, the way a user runs it (dist/cli.js, built once by
 * test/support/build.ts): `runCli(...args)` to its end, or `startCli(args)` to read its output
 * while it runs.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { CLI, ROOT } from "./build.js";
import { Waiters } from "./waiters.js";

/** How a run ended, and what it printed. */
export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running `mcpmock` process with its output so far. */
export interface RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  readonly out: { stdout: string; stderr: string };
  readonly exited: Promise<CliRun>;
  /** Resolves when stdout or stderr satisfies `until`; rejects on exit or timeout. */
  waitFor(stream: "stdout" | "stderr", until: (text: string) => boolean, timeoutMs?: number): Promise<string>;
  kill(): void;
}

/** Starts `mcpmock ...args`; `env` is added to (or, with a value of `undefined`, taken from) this process's environment. */
export function startCli(args: readonly string[], env: Record<string, string | undefined> = {}): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: "pipe", env: { ...process.env, ...env } });
  const out = { stdout: "", stderr: "" };
  const waiters = new Waiters();
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out.stdout += chunk;
    waiters.wake();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    out.stderr += chunk;
    waiters.wake();
  });
  const exited = new Promise<CliRun>((resolve) => child.once("close", (code, signal) => resolve({ code, signal, ...out })));
  return {
    child,
    out,
    exited,
    waitFor: (stream, until, timeoutMs = 10_000) =>
      waiters.until(
        () => (until(out[stream]) ? out[stream] : undefined),
        timeoutMs,
        () => `timed out waiting on ${stream}; stdout: ${out.stdout}\nstderr: ${out.stderr}`,
        exited.then((r) => `mcpmock exited (${r.code ?? r.signal}) first; stdout: ${r.stdout}\nstderr: ${r.stderr}`),
      ),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

/** Runs `mcpmock ...args` to its end (killed after 10 s). */
export async function runCli(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const p = startCli(args, env);
  const timer = setTimeout(() => p.kill(), 10_000);
  try {
    return await p.exited;
  } finally {
    clearTimeout(timer);
    p.kill();
  }
}
