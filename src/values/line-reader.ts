/**
 * Splitting bytes into lines, in linear time and bounded memory: the pieces of a line are kept
 * as they came (never joined again chunk by chunk, nor searched again for a newline), and a line
 * over the cap is dropped up to its newline rather than held. Read by the stdio transport, the
 * stdio upstream, the SSE reader and the stdio recorder.
 * @module
 */
import { isUtf8 } from "node:buffer";

/** What a reader does with what it reads. */
export interface LineSink {
  /** A complete line, decoded as UTF-8, without its `\n` (nor a `\r` before it). */
  line(text: string): void;
  /**
   * A line grew past the cap: it is dropped up to its newline (`bytes`: what had arrived of it;
   * `ended`: its newline had arrived too, so nothing more of it is to come).
   */
  oversize?(bytes: number, ended: boolean): void;
  /**
   * A complete line that is not valid UTF-8 (`bytes`: the line). With this member such a line is
   * handed here instead of to {@link LineSink.line}; without it, it is decoded with U+FFFD
   * where bytes are invalid.
   */
  notUtf8?(bytes: Buffer): void;
}

/** Feeds chunks in, calls the sink with each complete line. */
export class LineReader {
  readonly #max: number;
  readonly #sink: LineSink;
  #parts: Buffer[] = [];
  #size = 0;
  /** Set while the rest of an oversized line is skipped, up to its newline. */
  #skipping = false;

  /** `maxLineBytes`: the longest line kept, in bytes (its `\n` not counted). */
  constructor(sink: LineSink, maxLineBytes: number) {
    this.#sink = sink;
    this.#max = maxLineBytes;
  }

  /** Bytes of the line not finished yet (0 between lines). */
  get pending(): number {
    return this.#size;
  }

  /** Reads one chunk. */
  push(chunk: Buffer | Uint8Array): void {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start <= bytes.length) {
      const newline = bytes.indexOf(10, start);
      const end = newline === -1 ? bytes.length : newline;
      if (!this.#skipping && end > start) {
        if (this.#size + (end - start) > this.#max) {
          const had = this.#size + (end - start);
          this.#parts = [];
          this.#size = 0;
          this.#skipping = true;
          this.#sink.oversize?.(had, newline !== -1);
        } else {
          this.#parts.push(bytes.subarray(start, end));
          this.#size += end - start;
        }
      }
      if (newline === -1) return;
      if (!this.#skipping) this.#emit();
      this.#skipping = false;
      this.#parts = [];
      this.#size = 0;
      start = newline + 1;
    }
  }

  #emit(): void {
    const whole = this.#parts.length === 1 ? (this.#parts[0] as Buffer) : Buffer.concat(this.#parts, this.#size);
    if (this.#sink.notUtf8 !== undefined && !isUtf8(whole)) return this.#sink.notUtf8(whole);
    let text = whole.toString("utf8");
    if (text.endsWith("\r")) text = text.slice(0, -1);
    this.#sink.line(text);
  }
}
