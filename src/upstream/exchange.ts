/**
 * One HTTP request to an upstream as its connection's response handler: its head as a promise,
 * its body to one reader, aborted by the caller (`stop`) or by the reader (`drop`) at any point.
 * @module
 */
import type { ResponseHandler } from "./connections.js";

/** A response's head: its status and headers (names in lower case). */
export interface Head {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** What reads a response's body: each chunk, its end, or the fault that cut it. */
export interface BodyReader {
  data(chunk: Buffer): void;
  end(): void;
  cut(error: Error): void;
}

/** A reader that drops what it is given. */
const IGNORED: BodyReader = { data: () => {}, end: () => {}, cut: () => {} };

/**
 * One request to the upstream, as its response handler: its head resolves `responded` (a fault
 * before it rejects it), its body goes to the reader set once the head came (chunks that come
 * before are kept for it).
 */
export class Exchange implements ResponseHandler {
  stopped = false;
  /** Whether the whole body came. */
  complete = false;
  readonly responded: Promise<Head>;
  #abort: ((error?: Error) => void) | undefined;
  #aborted = false;
  #resolve!: (head: Head) => void;
  #reject!: (error: Error) => void;
  #head: Head | undefined;
  #reader: BodyReader | undefined;
  /** Body chunks (then the end or the fault) that came before a reader was set. */
  #early: (Buffer | { readonly end: true } | { readonly cut: Error })[] = [];

  constructor() {
    this.responded = new Promise<Head>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  onConnect(abort: (error?: Error) => void): void {
    this.#abort = abort;
    if (this.#aborted) abort(new Error("dropped"));
  }

  onHeaders(status: number, lines: readonly string[], statusText: string): void {
    const headers: Record<string, string> = {};
    for (let i = 0; i + 1 < lines.length; i += 2) {
      const name = (lines[i] as string).toLowerCase();
      const value = lines[i + 1] as string;
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    this.#head = { status, statusText, headers };
    this.#resolve(this.#head);
  }

  onData(chunk: Buffer): void {
    if (this.#reader) this.#reader.data(chunk);
    else this.#early.push(chunk);
  }

  onComplete(): void {
    this.complete = true;
    if (this.#reader) this.#reader.end();
    else this.#early.push({ end: true });
  }

  onError(error: Error): void {
    if (this.#head === undefined) this.#reject(error);
    else if (this.#reader) this.#reader.cut(error);
    else this.#early.push({ cut: error });
  }

  /** Where the body goes from now on (what came before, first). */
  read(reader: BodyReader): void {
    this.#reader = reader;
    const early = this.#early;
    this.#early = [];
    for (const item of early) {
      if (Buffer.isBuffer(item)) reader.data(item);
      else if ("end" in item) reader.end();
      else reader.cut(item.cut);
    }
  }

  /**
   * The whole body at once, when it has all come and nothing has read it yet (a small answer
   * comes in the same read as its head), and is at most `max` bytes: no reader, promise or hop.
   * Undefined otherwise, for {@link readBody} to wait for it.
   */
  takeWhole(max: number): Buffer | undefined {
    if (!this.complete || this.#reader !== undefined) return undefined;
    // Complete: the end is the last thing kept, after the chunks.
    const early = this.#early;
    const body = early.length === 1 ? Buffer.alloc(0) : early.length === 2 && Buffer.isBuffer(early[0]) && early[0].length <= max ? early[0] : undefined;
    if (body !== undefined) this.discard();
    return body;
  }

  /** The body is not wanted: whatever comes of it is dropped (the connection kept when it ends). */
  discard(): void {
    this.read(IGNORED);
  }

  /** Ends it for the caller's sake (a cancel, closing): what it then says is not read. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.drop();
  }

  /** Ends it for the reader's sake (answered, or at fault): the rest is not read. */
  drop(): void {
    this.#aborted = true;
    this.#abort?.(new Error("dropped"));
  }
}

/** A body read whole: its bytes, or the first `max` when it is longer (the rest is not read); a body cut short rejects. */
export function readBody(exchange: Exchange, max: number): Promise<{ readonly bytes: Buffer; readonly total: number; readonly whole: boolean }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let total = 0;
    let kept = 0;
    let done = false;
    const finish = (whole: boolean): void => {
      if (done) return;
      done = true;
      if (!whole) exchange.drop();
      resolve({ bytes: parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, kept), total, whole });
    };
    exchange.read({
      data: (chunk) => {
        if (done) return;
        total += chunk.length;
        if (total > max) return finish(false);
        parts.push(chunk);
        kept += chunk.length;
      },
      end: () => finish(true),
      cut: () => {
        if (done) return;
        done = true;
        reject(new Error(`the connection closed after ${total} bytes of the body`));
      },
    });
  });
}
