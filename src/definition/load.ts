/**
 * Reading a definition file: the text (a byte-order mark dropped), JSON with the line and
 * column of a syntax error, then the checks of validate.ts.
 * @module
 */
import { readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { McpMockError } from "../values/errors.js";
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
  let text: string;
  try {
    text = readFileSync(fileOrObject, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new McpMockError(code === "ENOENT" ? `no definition file at ${fileOrObject}. Check the path (it is relative to ${process.cwd()}).` : `cannot read ${fileOrObject}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  text = text.replace(/^\uFEFF/, ""); // positions count in the text JSON.parse reads
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message.replace(/\s+/g, " ");
    const position = /position (\d+)/.exec(reason);
    let where = "";
    if (position) {
      const before = text.slice(0, Number(position[1]));
      const line = before.split("\n").length;
      where = ` at line ${line}, column ${before.length - before.lastIndexOf("\n")}`;
    }
    throw new McpMockError(`Invalid mock definition — ${source}: not valid JSON${where} (${reason}). Check the commas, quotes and brackets there; JSON allows no trailing commas or comments.`);
  }
  resolveAppFiles(parsed, dirname(resolve(fileOrObject)));
  checkDefinition(parsed, source, context);
  return { definition: parsed as MockDefinition, source };
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
