/**
 * A byte relay to a real server over stdio: it spawns the server, passes a client's bytes to
 * its stdin and its stdout back as they come (its stderr passes through), and hands every
 * complete line each way to a reader beside (the recorder's). Each side waits for the other to
 * read, as a direct pipe makes it (neither one's bytes pile up in the relay's memory). The
 * server ends when the client's side closes (SIGTERM after a grace period) or on `stop()`.
 * @module
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import type { Readable, Writable } from "node:stream";
import { upstreamEnvironment } from "./target.js";
import { redactText } from "./secrets.js";
import { LineReader } from "../values/line-reader.js";
import { MAX_LINE_BYTES } from "./line-reader.js";

/** Milliseconds the real server gets to exit after its stdin closes, before SIGTERM. */
const EXIT_GRACE_MS = 2_000;

/** A stderr line longer than this is written without waiting for its end. */
const STDERR_LINE_CHARS = 64 * 1024;

/**
 * A splitter: feed it chunks, it calls `line` with each complete line (linear in the bytes; a
 * line over 16 MiB is not read beside, its bytes are still relayed).
 */
function lines(line: (text: string) => void, side: string): (chunk: Buffer) => void {
  const reader = new LineReader({
    line: (text) => {
      if (text.trim() !== "") line(text);
    },
    oversize: (bytes) => process.stderr.write(`mcpmock record: the ${side} sent a line of more than ${MAX_LINE_BYTES} bytes (${bytes} so far); it is relayed but not recorded.\n`),
  }, MAX_LINE_BYTES);
  return (chunk) => reader.push(chunk);
}

/** What the relay runs, where it reads and writes, and who reads the lines beside it. */
export interface ByteRelayOptions {
  /** The real server's command. */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** Environment variables over the SDK's default environment (the recorder's own is not passed on). */
  readonly env?: Readonly<Record<string, string>>;
  /** Values its stderr must not show on the recorder's (replaced by `[redacted]`). */
  readonly secrets?: readonly string[];
  /** The client's side: its bytes arrive here. */
  readonly input: Readable;
  /** The client's side: the server's bytes go here. */
  readonly output: Writable;
  /** Each complete line the client sent. */
  readonly clientLine: (line: string) => void;
  /** Each complete line the server sent. */
  readonly serverLine: (line: string) => void;
}

/** A running relay. */
export interface ByteRelay {
  /** Resolves when the real server has exited (with its exit code, 127 when it could not start, or `null` when a signal ended it). */
  readonly exited: Promise<number | null>;
  /** Ends the real server now. */
  stop(): void;
}

/** Spawns the real server and relays. */
export function relayBytes(options: ByteRelayOptions): ByteRelay {
  const secrets = options.secrets ?? [];
  const child = spawn(options.command, [...options.args], { stdio: ["pipe", "pipe", secrets.length === 0 ? "inherit" : "pipe"], env: upstreamEnvironment(options.env) }) as ChildProcessByStdio<Writable, Readable, Readable | null>;
  // Its stderr passes through, a line at a time with its secrets replaced when it has any.
  if (child.stderr) {
    let pending = "";
    const decoder = new StringDecoder("utf8");
    const flush = (all: boolean): void => {
      const end = all ? pending.length : Math.max(pending.lastIndexOf("\n") + 1, pending.length > STDERR_LINE_CHARS ? pending.length : 0);
      if (end === 0) return;
      process.stderr.write(redactText(pending.slice(0, end), secrets));
      pending = pending.slice(end);
    };
    child.stderr.on("data", (chunk: Buffer) => {
      pending += decoder.write(chunk);
      flush(false);
    });
    child.stderr.once("end", () => {
      pending += decoder.end();
      flush(true);
    });
  }
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", (error) => {
      // What went wrong starting it: one line on stderr.
      process.stderr.write(`mcpmock record: cannot start ${options.command}: ${error.message}\n`);
      resolve(127);
    });
    child.once("close", (code) => resolve(code));
  });
  child.stdin.on("error", () => {}); // the server went away; its exit says so
  // Bytes are relayed as they come (the real server's timing and chunks kept); lines are read beside them.
  const clientLines = lines(options.clientLine, "client");
  // Each side waits for the other to read, as a direct pipe would make it: a server that stops
  // reading its stdin (or a client its stdout) pauses the other side instead of filling memory.
  options.input.on("data", (chunk: Buffer) => {
    clientLines(chunk);
    if (child.stdin.writable && !child.stdin.write(chunk)) {
      options.input.pause();
      child.stdin.once("drain", () => options.input.resume());
    }
  });
  let grace: NodeJS.Timeout | undefined;
  options.input.once("end", () => {
    child.stdin.end();
    grace = setTimeout(() => child.kill("SIGTERM"), EXIT_GRACE_MS);
    grace.unref();
  });
  const serverLines = lines(options.serverLine, "server");
  // Once it has exited, what is left in its pipe (a pipe's worth at most) is passed on without
  // waiting, so that its end is not held by a client that reads no more.
  child.once("exit", () => child.stdout.resume());
  child.stdout.on("data", (chunk: Buffer) => {
    serverLines(chunk);
    if (!options.output.write(chunk) && child.exitCode === null && child.signalCode === null) {
      child.stdout.pause();
      options.output.once("drain", () => child.stdout.resume());
    }
  });
  void exited.then(() => {
    if (grace) clearTimeout(grace);
    options.input.pause();
  });
  return {
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    },
  };
}
