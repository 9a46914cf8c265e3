/**
 * The client side of stdio to an upstream command, in place of the SDK's transport: its stdout
 * is read by our own line reader (linear, 16 MiB a line at most), a line that is not JSON is
 * skipped rather than thrown inside a stream listener, and every way the child can fail (it
 * cannot start, it exits, it floods one line, a write finds it gone) ends the connection with
 * the reason in words, so the call in flight answers it and the next one starts it again. A
 * child that stops reading its stdin holds at most 16 MiB of what was written to it: past that a
 * message is refused at once, with the reason, instead of waiting in memory for a reader.
 * @module
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LineReader } from "../values/line-reader.js";
import { MAX_LINE_BYTES } from "./line-reader.js";

/** Bytes written to a child's stdin and not yet read by it, past which a message is refused. */
const MAX_UNREAD_STDIN_BYTES = 16 * 1024 * 1024;
/** Milliseconds a child gets to exit after its stdin closes, before SIGTERM (and as long again before SIGKILL). */
const EXIT_GRACE_MS = 500;

/** How the child is started. */
export interface StdioUpstreamParams {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Each chunk of its stderr, as text. */
  readonly stderr?: (chunk: string) => void;
}

/** A child process speaking MCP on its stdin and stdout. */
export class StdioUpstreamTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** Why the connection ended, when more is to be said than that the child exited. */
  closedWhy: string | undefined;
  readonly #params: StdioUpstreamParams;
  #child: ChildProcess | undefined;
  #ended = false;
  #exited: Promise<void> = Promise.resolve();

  constructor(params: StdioUpstreamParams) {
    this.#params = params;
  }

  start(): Promise<void> {
    const { command, args, env, cwd } = this.#params;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], { env: { ...env }, stdio: ["pipe", "pipe", "pipe"], shell: false, ...(cwd === undefined ? {} : { cwd }) });
      this.#child = child;
      this.#exited = new Promise((done) => child.once("close", () => done()));
      child.once("error", (error) => {
        const why = `cannot start ${command}: ${error.message}`;
        reject(new Error(why));
        this.#end(why);
      });
      child.once("spawn", () => resolve());
      // An exit is said by the session with the child's last words; "close" waits for its last output.
      child.once("close", () => this.#end(undefined));
      child.stdin?.on("error", () => {}); // a write to a child gone: its exit says why
      child.stderr?.on("data", (chunk: Buffer) => this.#params.stderr?.(chunk.toString("utf8")));
      const lines = new LineReader({
        line: (line) => this.#line(line),
        oversize: (bytes) => {
          this.#end(`it wrote more than ${MAX_LINE_BYTES} bytes (16 MiB) on stdout without a newline (${bytes} bytes so far); it was stopped`);
          child.kill("SIGKILL");
        },
      }, MAX_LINE_BYTES);
      child.stdout?.on("data", (chunk: Buffer) => {
        if (!this.#ended) lines.push(chunk);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (this.#ended || !stdin || !stdin.writable) return Promise.reject(new Error(this.closedWhy ?? "the server is not running"));
    if (stdin.writableLength > MAX_UNREAD_STDIN_BYTES) {
      return Promise.reject(new Error(`it has not read the ${stdin.writableLength} bytes already written to its stdin (over ${MAX_UNREAD_STDIN_BYTES}, 16 MiB): it is not reading (is its loop blocked, or does it read only at start?), so ${"method" in message ? message.method : "the answer"} was not written; calls are refused so until it reads`));
    }
    return new Promise((resolve, reject) => {
      stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(new Error(this.closedWhy ?? `it could not be written to: ${error.message}`)) : resolve()));
    });
  }

  /** Ends the child: its stdin closes, then SIGTERM, then SIGKILL, each after a short grace. */
  async close(): Promise<void> {
    const child = this.#child;
    this.#end(undefined);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.stdin?.end();
    const grace = (ms: number): Promise<boolean> => Promise.race([this.#exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
    if (await grace(EXIT_GRACE_MS)) return;
    child.kill("SIGTERM");
    if (await grace(EXIT_GRACE_MS)) return;
    child.kill("SIGKILL");
  }

  #line(line: string): void {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return; // a server's stray print is not a message (the SDK skips it too)
    }
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) this.onmessage?.(parsed as JSONRPCMessage);
  }

  /** The connection ends once: with a reason, or (from `close()`) without. */
  #end(why: string | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    this.closedWhy = why;
    this.onclose?.();
  }
}
