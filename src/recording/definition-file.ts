/**
 * Writing the recording's file: the whole definition each time, into a temporary file beside
 * it renamed over it, so the file is a valid definition at every moment and a recorder
 * killed half way loses nothing already written. While recording, writes are debounced
 * ({@link RecordingFile}): a huge answer makes one slow write, not one per later answer.
 * @module
 */
import { renameSync, writeFileSync } from "node:fs";
import { toDefinition, type WriteOptions } from "./definition-writer.js";
import type { Recording } from "./exchanges.js";

/** Writes the recording's definition to `path` atomically (synchronous, so a signal handler can call it last). */
export function writeRecording(path: string, recording: Recording, options: Omit<WriteOptions, "secrets"> = {}): void {
  const definition = toDefinition(recording.exchanges, { ...options, secrets: recording.secrets });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(definition, null, 2)}\n`);
  renameSync(temporary, path);
}

/**
 * The recording's file while it grows. A change is written at once when the last write is
 * longer ago than twice what it took (a small file: at once, so a recorder killed right after
 * an answer has it); otherwise when that pause is over, so writing takes at most a third of
 * the time however big the file grows, and a huge answer is not rewritten once per later answer.
 * `flush()` writes now (at the end, from a signal handler).
 */
export class RecordingFile {
  readonly #write: () => void;
  #timer: NodeJS.Timeout | undefined;
  /** When the last write ended, and the pause owed after it (twice its duration). */
  #lastEnd = -Infinity;
  #pause = 0;

  constructor(path: string, recording: Recording, options: Omit<WriteOptions, "secrets"> = {}) {
    this.#write = () => writeRecording(path, recording, options);
  }

  /** Something was recorded: the file is written now, or when the pause after the last write is over. */
  changed(): void {
    if (this.#timer !== undefined) return;
    const wait = this.#lastEnd + this.#pause - performance.now();
    if (wait <= 0) return this.flush();
    this.#timer = setTimeout(() => this.flush(), wait);
    this.#timer.unref();
  }

  /** Writes the file now (and cancels the pending write). */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const started = performance.now();
    this.#write();
    this.#lastEnd = performance.now();
    this.#pause = 2 * (this.#lastEnd - started);
  }
}
