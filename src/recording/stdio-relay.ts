/**
 * The stdio recorder: it is the server a client launches. It spawns the real server, relays
 * lines both ways unchanged (client stdin to the server, the server's stdout to the client;
 * the server's stderr passes through), and feeds every JSON-RPC line to the recording.
 * @module
 */
import { spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import type { Readable, Writable } from "node:stream";
import { Correlator, messagesIn, type Recording } from "./exchanges.js";

/** Milliseconds the real server gets to exit after its stdin closes, before SIGTERM. */
const EXIT_GRACE_MS = 2_000;

/** A splitter: feed it chunks, it calls `line` with each complete line. */
function lines(line: (text: string) => void): (chunk: Buffer) => void {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  return (chunk) => {
    pending += decoder.write(chunk);
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    for (const part of parts) if (part.trim() !== "") line(part.replace(/\r$/, ""));
  };
}

/** What the relay runs and where it reads and writes. */
export interface StdioRelayOptions {
  /** The real server's command. */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** The client's side: its requests arrive here (the recorder's stdin). */
  readonly input: Readable;
  /** The client's side: answers go here (the recorder's stdout). */
  readonly output: Writable;
  /** Where the exchanges go. */
  readonly recording: Recording;
}

/** A running relay. */
export interface StdioRelay {
  /** Resolves when the real server has exited (with its exit code, or `null` when a signal ended it). */
  readonly exited: Promise<number | null>;
  /** Ends the real server now. */
  stop(): void;
}

/**
 * Spawns the real server and relays. When the client closes its side, the server's stdin is
 * closed too; a server that does not exit within 2 s gets SIGTERM.
 *
 * @example
 * ```ts
 * import { Recording } from "./exchanges.js";
 * const relay = relayStdio({ command: "node", args: ["server.js"], input: process.stdin, output: process.stdout, recording: new Recording() });
 * await relay.exited;
 * ```
 */
export function relayStdio(options: StdioRelayOptions): StdioRelay {
  const correlator = new Correlator(options.recording);
  const child = spawn(options.command, [...options.args], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", (error) => {
      process.stderr.write(`mcpmock record: cannot start ${options.command}: ${error.message}\n`);
      resolve(127);
    });
    child.once("close", (code) => resolve(code));
  });
  child.stdin.on("error", () => {}); // the server went away; its exit says so
  // Bytes are relayed as they come (the real server's timing and chunks kept); lines are read beside them for the recording.
  const clientLines = lines((line) => messagesIn(line).forEach((m) => correlator.fromClient(m)));
  options.input.on("data", (chunk: Buffer) => {
    if (child.stdin.writable) child.stdin.write(chunk);
    clientLines(chunk);
  });
  let grace: NodeJS.Timeout | undefined;
  options.input.once("end", () => {
    child.stdin.end();
    grace = setTimeout(() => child.kill("SIGTERM"), EXIT_GRACE_MS);
    grace.unref();
  });
  const serverLines = lines((line) => messagesIn(line).forEach((m) => correlator.fromServer(m)));
  child.stdout.on("data", (chunk: Buffer) => {
    serverLines(chunk);
    options.output.write(chunk);
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
