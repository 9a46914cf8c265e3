/**
 * Reading a definition file: the text (a byte-order mark dropped), JSON with the line and
 * column of a syntax error, then the checks of validate.ts.
 * @module
 */
import { isUtf8 } from "node:buffer";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { McpMockError } from "../values/errors.js";
import { readRegularFile } from "../stubs/declared-file.js";
import { lineAndColumn, scanJson } from "./json-text.js";
import type { MockDefinition } from "./format.js";
import { checkDefinition, type DefinitionContext } from "./validate.js";

export type { MockDefinition };

/**
 * Reads and checks a definition file (or checks an object); the source names the file in
 * messages. `context.proxied`: the mock has an upstream, which may serve tools the file does not declare.
 */
export function loadDefinition(fileOrObject: string | MockDefinition, context: DefinitionContext = {}): { definition: MockDefinition; source: string } {
  if (typeof fileOrObject !== "string") {
    checkDefinition(fileOrObject, "definition", context);
    return { definition: fileOrObject, source: "definition" };
  }
  const source = basename(fileOrObject);
  let text = readDefinitionText(fileOrObject, source);
  let parsed: unknown;
  text = text.replace(/^\uFEFF/, ""); // positions count in the text JSON.parse reads
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message.replace(/\s+/g, " ");
    // V8 gives a position for some mistakes ("at position 18"); for others (a trailing comma,
    // a comment) the scan finds it.
    const position = /position (\d+)/.exec(reason)?.[1];
    const offset = position === undefined ? scanJson(text).error : Number(position);
    const where = offset === undefined ? "" : ` at ${lineAndColumn(text, offset)}`;
    throw new McpMockError(`Invalid mock definition — ${source}: not valid JSON${where} (${reason}). Check the commas, quotes and brackets there; JSON allows no trailing commas or comments.`);
  }
  duplicateKeys(text, source);
  resolveAppFiles(parsed, dirname(resolve(fileOrObject)));
  checkDefinition(parsed, source, context);
  return { definition: parsed as MockDefinition, source };
}

/** The largest definition file read (256 MiB): it is held in memory, as text and as the parsed value. */
export const MAX_DEFINITION_BYTES = 256 * 1024 * 1024;

/** What the system's codes mean, for the message. */
const READ_CODES: Readonly<Record<string, string>> = { EACCES: "permission denied", EPERM: "permission denied", ELOOP: "too many symbolic links", ENOTDIR: "a part of the path is not a directory" };

/**
 * A definition file's text: only a regular file (a FIFO or a device named by mistake is refused
 * at once, not waited on with the event loop held), at most {@link MAX_DEFINITION_BYTES}, and
 * UTF-8 (a byte that is not is reported at its line and column, not read as U+FFFD).
 */
function readDefinitionText(file: string, source = basename(file)): string {
  const read = readRegularFile(file, MAX_DEFINITION_BYTES, "a definition file");
  if (typeof read === "string") {
    if (read === "ENOENT") throw new McpMockError(`no definition file at ${file}. Check the path (it is relative to ${process.cwd()}).`);
    throw new McpMockError(`cannot read ${file}: ${READ_CODES[read] ?? read}.`);
  }
  if (!isUtf8(read)) {
    const at = firstNonUtf8(read);
    const before = read.subarray(0, at).toString("utf8").replace(/^\uFEFF/, "");
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    throw new McpMockError(`Invalid mock definition — ${source}: not UTF-8 text at line ${line}, column ${column} (byte 0x${(read[at] ?? 0).toString(16).padStart(2, "0")}). Save the file as UTF-8.`);
  }
  return read.toString("utf8");
}

/** The offset of the first byte that does not begin (or continue) a UTF-8 sequence. */
function firstNonUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] as number;
    const more = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (more < 0) return i;
    for (let k = 1; k <= more; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += more + 1;
  }
  return 0;
}

/** Refuses keys given twice in one object: JSON.parse keeps the last without a word, so the first would be silently ignored. */
function duplicateKeys(text: string, source: string): void {
  const { duplicates } = scanJson(text);
  if (duplicates.length === 0) return;
  const lines = duplicates.slice(0, 20).map((d) => `${d.path} is given twice in one object, at ${lineAndColumn(text, d.at)} and first at ${lineAndColumn(text, d.first)}`);
  if (duplicates.length > 20) lines.push(`… and ${duplicates.length - 20} more`);
  const fix = "JSON keeps only the last, so the first would be ignored: merge the two (one list of all the entries, say) or remove one.";
  throw new McpMockError(`Invalid mock definition — ${source}: ${lines.length === 1 ? `${lines[0]}. ${fix}` : `${duplicates.length} keys are given twice, all listed here.\n${lines.map((l) => `- ${l}`).join("\n")}\n→ ${fix}`}`);
}

/** An app's `file`, a skill's and its supporting files' are relative to the definition: made absolute here, so the mock finds them wherever it runs. */
function resolveAppFiles(parsed: unknown, dir: string): void {
  const absolute = (item: unknown): void => {
    const holder = item as { file?: unknown } | null;
    if (holder !== null && typeof holder === "object" && typeof holder.file === "string" && holder.file !== "" && !isAbsolute(holder.file)) holder.file = resolve(dir, holder.file);
  };
  const { apps, skills } = (parsed ?? {}) as { apps?: unknown; skills?: unknown };
  if (Array.isArray(apps)) apps.forEach(absolute);
  if (!Array.isArray(skills)) return;
  for (const skill of skills as Array<{ files?: unknown } | null>) {
    absolute(skill);
    const files = skill?.files;
    if (files !== null && typeof files === "object" && !Array.isArray(files)) Object.values(files).forEach(absolute);
  }
}
