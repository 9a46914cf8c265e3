/**
 * The stdio transport: newline-delimited JSON-RPC on stdin and stdout, through the same
 * pipeline as HTTP. Nothing but protocol goes to stdout; anything else goes to the log
 * (stderr). The session is implicit: it opens at initialize and ends when stdin closes.
 * What it does with a message, and how a reply becomes lines, is shared with the in-memory
 * transport (`pipe.ts`); this file only frames lines.
 * @module
 */
import type { Readable, Writable } from "node:stream";
import type { MockCore } from "../engine/core.js";
import { PREFIX, printable } from "../values/errors.js";
import { PipeConnection } from "./pipe.js";
import { InFlight } from "../values/in-flight.js";
import { LineReader } from "../values/line-reader.js";

/** How long answers in flight may still be written after stdin closes. */
export const FINISH_GRACE_MS = 2_000;

/** Longest line accepted (the SDK's stdio buffer limit). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** Most bytes of log lines left unread (on stderr) before further log lines are dropped, and counted. */
export const MAX_LOG_BACKLOG_BYTES = 1024 * 1024;

/** Where stdio writes: protocol lines, and log lines. */
export interface StdioStreams {
  readonly input: Readable;
  readonly output: Writable;
  readonly log: Writable;
}

export class StdioTransport {
  readonly #io: StdioStreams;
  readonly #pipe: PipeConnection;
  /** Splits stdin into lines in linear time, however the bytes are cut into chunks. */
  readonly #reader: LineReader;
  /** Lines read while stdout is full, taken in order once it drains (stdin is paused meanwhile). */
  #queue: string[] = [];
  #closed = false;
  /** Stdout is full: stdin is paused and lines wait in `#queue` until it drains. */
  #waiting = false;
  #resolveDone!: () => void;
  /** Resolves when stdin has closed and every answer in flight is written. */
  readonly done: Promise<void>;
  readonly #inFlight = new InFlight<Promise<void>>();
  /** The key of the last line taken into `#inFlight`. */
  #lines = 0;
  /** Ends the grace period of #finish at once. */
  #endGrace: (() => void) | undefined;
  /** Log lines dropped since the log was last drained (see #logLine). */
  #droppedLogLines = 0;
  /** Called for the `connection-reset` fault: the process should end as if it crashed. */
  onCrash: () => void = () => undefined;

  constructor(core: MockCore, io: StdioStreams) {
    this.#io = io;
    this.done = new Promise((resolve) => (this.#resolveDone = resolve));
    this.#pipe = new PipeConnection(core, "stdio", {
      send: (text) => this.#line(text),
      reset: () => {
        this.#logLine("fault connection-reset: the server ends as if it crashed.");
        this.#io.output.end();
        this.onCrash();
      },
      log: (text) => this.#logLine(text),
      ready: () => this.#drained(),
    }, () => "stdio");
    this.#reader = new LineReader({
      line: (text) => this.#onLineRead(text),
      oversize: (_bytes, ended) => this.#logLine(`a line longer than ${MAX_LINE_BYTES} bytes was dropped${ended ? "" : " (up to its newline)"}.`),
      // As over HTTP (a body that is not UTF-8 is refused), never read with replacement characters.
      notUtf8: (bytes) => this.#logLine(`ignored a line that is not valid UTF-8 (MCP messages are UTF-8 JSON): ${JSON.stringify(bytes.subarray(0, 120).toString("latin1"))}`),
    }, MAX_LINE_BYTES);
    io.input.on("data", (chunk: string | Buffer) => this.#reader.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk));
    io.input.on("end", () => void this.#finish());
    io.input.on("close", () => void this.#finish());
    io.input.on("error", () => void this.#finish());
  }

  /** One line on stdout; nothing once stdout has ended (after a connection-reset fault). */
  #line(text: string): void {
    if (this.#io.output.writableEnded) return;
    if (!this.#io.output.write(`${text}\n`)) this.#waitForOutput();
  }

  /**
   * Stdout is full (the client is not reading it): stop reading stdin until it drains, as a
   * pipe would, so a client that writes requests and never reads the answers is held back
   * instead of having every answer pile up in memory.
   */
  #waitForOutput(): void {
    if (this.#waiting) return;
    const drained = this.#drained();
    if (!drained) return;
    this.#waiting = true;
    this.#io.input.pause();
    void drained.then(() => {
      this.#waiting = false;
      if (this.#closed) return;
      const queue = this.#queue;
      let taken = 0;
      while (!this.#waiting && taken < queue.length) this.#take(queue[taken++] as string);
      this.#queue = queue.slice(taken);
      if (!this.#waiting) this.#io.input.resume();
    });
  }

  /** `undefined` while stdout takes more; else a promise of its next drain (or its end). */
  #drained(): Promise<void> | undefined {
    const output = this.#io.output;
    if (!output.writableNeedDrain || output.writableEnded || output.destroyed) return undefined;
    return new Promise((resolve) => {
      const done = (): void => {
        output.off("drain", done).off("close", done).off("error", done);
        resolve();
      };
      output.on("drain", done).on("close", done).on("error", done);
    });
  }

  /**
   * One line for the log, unless more than {@link MAX_LOG_BACKLOG_BYTES} wait unread in it (the
   * client does not read stderr): then it is counted, not held, and once the log drains one line
   * says how many were dropped. Stderr on a pipe is asynchronous, so what the client leaves unread
   * would otherwise pile up in memory, a log line for every junk line it writes.
   */
  #logLine(text: string): void {
    const log = this.#io.log;
    if (log.writableLength > MAX_LOG_BACKLOG_BYTES && log.writableNeedDrain && !log.writableEnded && !log.destroyed) {
      if (this.#droppedLogLines++ === 0) {
        log.once("drain", () => {
          const dropped = this.#droppedLogLines;
          this.#droppedLogLines = 0;
          log.write(`${PREFIX} ${dropped} log line${dropped === 1 ? " was" : "s were"} dropped: more than ${MAX_LOG_BACKLOG_BYTES} bytes of the log were waiting unread.\n`);
        });
      }
      return;
    }
    log.write(`${PREFIX} ${text}\n`);
  }

  /** A complete line of stdin: taken now, or queued behind the others while stdout is full. */
  #onLineRead(text: string): void {
    if (this.#waiting || this.#queue.length > 0) this.#queue.push(text);
    else this.#take(text);
  }

  #take(line: string): void {
    if (line.trim()) this.#track(this.#onLine(line));
    if (this.#io.output.writableNeedDrain) this.#waitForOutput();
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => this.#logLine(`error while answering: ${String(error)}`));
    void this.#inFlight.during(++this.#lines, tracked, tracked);
  }

  async #onLine(line: string): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.#logLine(`ignored a line that is not JSON (as the SDK does): ${printable(line.slice(0, 120))}`);
      return;
    }
    await this.#pipe.handle(parsed, line);
  }

  async #finish(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Answers already in flight get a moment to be written; long streams are then stopped.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => {
      this.#endGrace = resolve;
      timer = setTimeout(resolve, FINISH_GRACE_MS);
    });
    await Promise.race([Promise.allSettled(this.#inFlight.values()), grace]);
    clearTimeout(timer);
    this.#pipe.stop();
    this.#resolveDone(); // what still runs (a stub's delay) ends when the mock closes
  }

  /** Ends now (the mock is closing): answers still running are stopped, no grace. */
  close(): void {
    void this.#finish();
    this.#endGrace?.();
  }
}
