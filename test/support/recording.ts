/**
 * A realistic client session for the recording tests, run with the official SDK v1 Client,
 * and the transcript it gives (every answer and every notification, in order), so a session
 * against the real server and one against the replay can be compared as values.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";

export type Step = (client: Client, log: unknown[]) => Promise<unknown>;

/** Runs steps through a client on a transport; each step's answer or error goes into the transcript. */
export async function transcript(transport: SdkTransport, steps: readonly Step[], options: { elicit?: boolean } = {}): Promise<unknown[]> {
  const client = new Client({ name: "recording-test", version: "1.0.0" }, options.elicit ? { capabilities: { elicitation: {} } } : {});
  // The client's answer to a server's elicitation request: the same every run.
  if (options.elicit) client.setRequestHandler(ElicitRequestSchema, (request) => ({ action: "accept", content: { name: `Ada (asked "${request.params.message}")` } }));
  const log: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, () => {});
  await client.connect(transport);
  // Notifications as they arrive on the wire, before the client handles them: the SDK client
  // handles a notification a microtask after a response read with it, so its onprogress may
  // miss the last progress of a real server that writes it right before the answer.
  const deliver = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    const m = message as { method?: string; params?: Record<string, unknown> };
    if (m.method === "notifications/message") log.push({ log: m.params });
    if (m.method === "notifications/progress") {
      const { progressToken: _token, ...progress } = m.params ?? {};
      log.push({ progress });
    }
    deliver(message, extra);
  };
  log.push({ server: client.getServerVersion(), capabilities: client.getServerCapabilities(), instructions: client.getInstructions() });
  try {
    for (const step of steps) {
      try {
        log.push(await step(client, log));
      } catch (error) {
        log.push({ error: String(error) });
      }
    }
  } finally {
    await client.close();
  }
  return log;
}

/** A Streamable HTTP client transport to a URL, with optional headers. */
export function http(url: string, headers: Record<string, string> = {}): SdkTransport {
  return new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
}

/** A stdio client transport that launches a command. */
export function stdio(command: string, args: string[], env: Record<string, string> = {}): SdkTransport {
  return new StdioClientTransport({ command, args, env: { ...(process.env as Record<string, string>), ...env }, stderr: "pipe" });
}


import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createServer } from "node:net";
import { CLI, ROOT } from "./build.js";

/** A spawned `mcpmock` (or any) process, with its output gathered. */
export interface Spawned {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
  /** Resolves with the first stdout or stderr line that matches. */
  line(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

/** Spawns a command (no shell) from the repository root. */
export function run(command: string, args: readonly string[], env: Record<string, string> = {}): Spawned {
  const child = spawn(command, [...args], { cwd: ROOT, stdio: "pipe", env: { ...process.env, ...env } });
  let out = "";
  let err = "";
  const waiters: Array<() => void> = [];
  const wake = (): void => waiters.splice(0).forEach((w) => w());
  child.stdout.on("data", (d: Buffer) => ((out += d.toString()), wake()));
  child.stderr.on("data", (d: Buffer) => ((err += d.toString()), wake()));
  const exited = new Promise<number | string>((resolve) => child.once("close", (code, signal) => resolve(code ?? signal ?? -1)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    line: (pattern, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} in time; stdout: ${out}; stderr: ${err}`)), timeoutMs);
        const look = (): void => {
          const found = pattern.exec(out) ?? pattern.exec(err);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else waiters.push(look);
        };
        void exited.then(() => {
          const found = pattern.exec(out) ?? pattern.exec(err);
          if (!found) {
            clearTimeout(timer);
            reject(new Error(`exited before a line matching ${pattern}; stdout: ${out}; stderr: ${err}`));
          }
        });
        look();
      }),
  };
}

/** Runs the built `mcpmock` command. */
export function mcpmock(args: readonly string[]): Spawned {
  return run(process.execPath, [CLI, ...args]);
}

/** Stops a process with a signal and waits for it. */
export async function stop(spawned: Spawned, signal: NodeJS.Signals = "SIGTERM"): Promise<number | string> {
  if (spawned.child.exitCode === null && spawned.child.signalCode === null) spawned.child.kill(signal);
  return spawned.exited;
}

/** A free loopback port (for a server that only takes one from the environment). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export { CLI };
