/**
 * Writing the recording's file: the whole definition each time, into a temporary file beside
 * it renamed over it, so the file is a valid definition at every moment and a recorder
 * killed half way loses nothing already written.
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
