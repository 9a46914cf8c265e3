/**
 * A file a declaration names (an app's HTML, a skill's files): read whole, bounded by
 * bytes, and only when it is a regular file. Opened without blocking, so a FIFO or a device
 * named by mistake is refused at once instead of stopping the mock (a synchronous read of a
 * FIFO waits for a writer with the event loop held; `/dev/zero` never ends).
 * @module
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { McpMockError } from "../values/errors.js";

/** The largest file a declaration may name (16 MiB): it is held in memory and sent whole. */
export const MAX_DECLARED_FILE_BYTES = 16 * 1024 * 1024;

/** `O_NONBLOCK` where the platform has it: opening a FIFO then returns at once. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function kind(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * The file's bytes, or why it cannot serve, in words: what it is, or the system's code. Only a
 * regular file of at most `limit` bytes is read (the definition file itself is read this way too).
 */
export function readRegularFile(path: string, limit: number, what = "a declared file"): Buffer | string {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "EISDIR" ? "it is a directory" : (code ?? (error as Error).message);
  }
  try {
    // The opened file itself, not the path again: what is read is what was checked.
    const stats = fstatSync(fd);
    if (!stats.isFile()) return `it is ${kind(stats)}; name a regular file`;
    if (stats.size > limit) return `it is ${stats.size} bytes, more than the ${limit} ${what} may hold`;
    const buffer = Buffer.alloc(Math.min(limit + 1, stats.size + 64 * 1024));
    let length = 0;
    for (;;) {
      if (length === buffer.length) break;
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    // It grew while read: past the limit it is refused, as it would have been at its new size.
    if (length > limit) return `it grew past the ${limit} bytes ${what} may hold while it was read`;
    return buffer.subarray(0, length);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  } finally {
    closeSync(fd);
  }
}

/**
 * A declared file's bytes, or the sentence that says why it cannot be read: `where` names the
 * field (`apps[0].file`), `otherwise` the other way to give the content.
 */
export function readDeclaredFile(file: string, baseDir: string, where: string, otherwise: string, limit = MAX_DECLARED_FILE_BYTES): { bytes: Buffer } | { problem: string } {
  const path = resolve(baseDir, file);
  const read = readRegularFile(path, limit);
  if (typeof read !== "string") return { bytes: read };
  return { problem: `${where}: cannot read ${JSON.stringify(file)} (${path}: ${read}). ${isAbsolute(file) ? "Check" : `A relative path is taken from ${baseDir}; check`} the path, or ${otherwise}.` };
}

/** A declared file's bytes; throws the problem (checked already, but the file may have changed since). */
export function declaredFileBytes(file: string, baseDir: string, where: string, otherwise: string): Buffer {
  const read = readDeclaredFile(file, baseDir, where, otherwise);
  if ("bytes" in read) return read.bytes;
  throw new McpMockError(read.problem);
}
