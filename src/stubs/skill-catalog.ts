/**
 * Skills as declarations (the Skills extension): a skill is its name and description (its
 * `SKILL.md` frontmatter, with any other fields), the body of its `SKILL.md`, and supporting
 * files by their path in the skill. Checked all at once, with the fix in the message; built
 * into the files the mock serves, each with its bytes, digest and size.
 * @module
 */
import { extname } from "node:path";
import { declaredFileBytes, readDeclaredFile } from "./declared-file.js";
import { SKILL_DESCRIPTION_MAX, SKILL_FILE, SKILL_MIME_TYPE, SKILL_NAME, SKILL_NAME_MAX, SKILL_URI_SCHEME, skillDigest } from "../protocol/skills.js";
import { isPlainJsonValue } from "../values/json-value.js";
import { McpMockError, showValue } from "../values/errors.js";

/**
 * A supporting file of a skill: its text, its bytes in base64 (`blob`), or a `file` to read
 * (relative to the working directory, or to the definition file).
 *
 * @example
 * ```ts
 * import type { SkillFile } from "mcpmock";
 * const guide: SkillFile = { text: "# Forms\n\nFill in every field.", mimeType: "text/markdown" };
 * const logo: SkillFile = { blob: "iVBORw0KGgo=", mimeType: "image/png" };
 * ```
 * @category Starting
 */
export interface SkillFile {
  /** The file's contents as text (served as text, its digest over the UTF-8 bytes). */
  readonly text?: string;
  /** The file's raw bytes, base64-encoded (served as a blob). */
  readonly blob?: string;
  /** A path to the file on disk. */
  readonly file?: string;
  /** Its MIME type (default: from the file name's extension). */
  readonly mimeType?: string;
}

/**
 * What a skill's entry (`skills/list`, `skills/get`) says in place of what the mock computes
 * from the files it serves: an entry that disagrees with its skill on purpose, to test that a
 * host verifies what it reads (SEP-2640: a digest, a size or the frontmatter that does not
 * match is a verification failure).
 *
 * @example
 * ```ts
 * import type { SkillEntryOverride } from "mcpmock";
 * // SKILL.md is served as declared; the entry claims another description and a digest it does not have.
 * const entry: SkillEntryOverride = {
 *   frontmatter: { name: "pdf-processing", description: "Extract, fill, and assemble PDF documents" },
 *   resources: { "SKILL.md": { digest: `sha256:${"0".repeat(64)}` } },
 * };
 * ```
 * @category Starting
 */
export interface SkillEntryOverride {
  /** The entry's frontmatter, in place of the one written into `SKILL.md`. */
  readonly frontmatter?: Readonly<Record<string, unknown>>;
  /** A file's `digest` or `size` by its path in the skill (`"SKILL.md"`, `"references/FORMS.md"`), in place of the served bytes'. */
  readonly resources?: Readonly<
    Record<
      string,
      {
        /** The digest the entry claims (`sha256:` and 64 hex digits). */
        readonly digest?: string;
        /** The size in bytes the entry claims. */
        readonly size?: number;
      }
    >
  >;
}

/**
 * A skill the mock serves (the Skills extension, `io.modelcontextprotocol/skills`): its
 * `SKILL.md` at `skill://<name>/SKILL.md` (or the `uri` given), written from `name`,
 * `description`, any other `frontmatter` fields and the body (`content`, or a `file`
 * holding it); its supporting `files` beside it, by path. `skills/list`, `skills/get`,
 * `resources/directory/read` and `resources/read` answer from it, with every file's
 * `sha256:` digest and size.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({
 *   skills: [{
 *     name: "pdf-processing",
 *     description: "Extract, fill, and assemble PDF documents",
 *     content: "# PDF processing\n\nChoose the matching template from `templates/`.",
 *     files: { "templates/invoice.md": "# Invoice", "scripts/extract.py": { text: "print('hi')" } },
 *   }],
 * });
 * ```
 * @category Starting
 */
export interface SkillDeclaration {
  /** The skill's name: lowercase letters and digits in hyphen-separated runs (the Agent Skills rule), at most 64 characters. */
  readonly name: string;
  /** What the skill does and when to use it (at most 1,024 characters). */
  readonly description: string;
  /** The URI of its `SKILL.md`: `skill://[<prefix>/]<name>/SKILL.md` (default `skill://<name>/SKILL.md`). */
  readonly uri?: string;
  /** Other frontmatter fields (`license`, `metadata`, `allowed-tools`, ...), written into `SKILL.md` and the entry as they are. */
  readonly frontmatter?: Readonly<Record<string, unknown>>;
  /** The body of `SKILL.md`, after the frontmatter the mock writes. */
  readonly content?: string;
  /** A file holding the body of `SKILL.md`. */
  readonly file?: string;
  /** Supporting files by their path in the skill (`"references/GUIDE.md"`): text, or a {@link SkillFile}. */
  readonly files?: Readonly<Record<string, string | SkillFile>>;
  /** Answer `"resources": "dynamic"` in its entry (no digests), as a generated skill does. */
  readonly dynamic?: boolean;
  /** `false`: left out of `skills/list`, still answered by `skills/get` and readable (default `true`). */
  readonly listed?: boolean;
  /** What its entry says instead of what the mock computes (a frontmatter, a file's digest or size): an entry that disagrees with the files on purpose. */
  readonly entry?: SkillEntryOverride;
}

/** One file the mock serves for a skill. */
export interface BuiltSkillFile {
  /** Its path in the skill (`SKILL.md`, `references/GUIDE.md`). */
  readonly path: string;
  readonly uri: string;
  readonly mimeType: string;
  /** Served as text when it is text, else as a base64 blob. */
  readonly text?: string;
  readonly blob?: string;
  readonly digest: string;
  readonly size: number;
}

/** A declared skill, built: its root, frontmatter and files (`SKILL.md` first). */
export interface BuiltSkill {
  readonly declaration: SkillDeclaration;
  readonly uri: string;
  /** `skill://<skill-path>`: the `SKILL.md` URI without `/SKILL.md`. */
  readonly root: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly files: readonly BuiltSkillFile[];
}

const FIELDS = ["name", "description", "uri", "frontmatter", "content", "file", "files", "dynamic", "listed", "entry"];
const ENTRY_FIELDS = ["frontmatter", "resources"];
const ENTRY_FILE_FIELDS = ["digest", "size"];
const FILE_FIELDS = ["text", "blob", "file", "mimeType"];
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const MIME = /^[\w.+-]+\/[\w.+-]+(?:;.*)?$/;
const EXAMPLE = `{ name: "git-workflow", description: "Follow the team's Git conventions", content: "# Git workflow\\n..." }`;
const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  ".md": "text/markdown", ".txt": "text/plain", ".py": "text/x-python", ".sh": "text/x-shellscript", ".js": "text/javascript",
  ".ts": "text/x-typescript", ".json": "application/json", ".yaml": "application/yaml", ".yml": "application/yaml", ".html": "text/html",
  ".csv": "text/csv", ".xml": "application/xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
  ".svg": "image/svg+xml", ".pdf": "application/pdf", ".zip": "application/zip",
};
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The URI of a skill's `SKILL.md`: the one declared, or `skill://<name>/SKILL.md`. */
export function skillUri(skill: SkillDeclaration): string {
  return typeof skill.uri === "string" ? skill.uri : `${SKILL_URI_SCHEME}${skill.name}/${SKILL_FILE}`;
}

/** What is wrong with a skill's declaration, one sentence each with the fix (empty when nothing is); `baseDir` resolves a relative `file`. */
export function skillProblems(skill: SkillDeclaration, where: string, baseDir = process.cwd()): string[] {
  if (!isObject(skill)) return [`${where} must be an object like ${EXAMPLE}, received ${showValue(skill)}.`];
  const problems: string[] = [];
  const unknown = Object.keys(skill).filter((k) => !FIELDS.includes(k));
  if (unknown.length > 0) problems.push(`${where} has ${unknown.map((k) => JSON.stringify(k)).join(", ")}, which a skill does not: its fields are ${FIELDS.join(", ")}.`);
  const name = skill.name;
  const nameOk = typeof name === "string" && name.length <= SKILL_NAME_MAX && SKILL_NAME.test(name);
  if (!nameOk) problems.push(`${where}.name must be a skill name: lowercase letters and digits in hyphen-separated runs, at most ${SKILL_NAME_MAX} characters (the Agent Skills rule), like "git-workflow", received ${showValue(name)}.`);
  if (typeof skill.description !== "string" || skill.description.trim() === "" || skill.description.length > SKILL_DESCRIPTION_MAX) {
    problems.push(`${where}.description must say what the skill does and when to use it, 1 to ${SKILL_DESCRIPTION_MAX} characters, received ${showValue(skill.description)}.`);
  }
  if (skill.uri !== undefined) problems.push(...uriProblems(skill.uri, nameOk ? name : undefined, `${where}.uri`));
  if (skill.frontmatter !== undefined) {
    if (!isObject(skill.frontmatter) || !isPlainJsonValue(skill.frontmatter)) problems.push(`${where}.frontmatter must be an object of JSON values (the other SKILL.md frontmatter fields), like { license: "Apache-2.0", metadata: { version: "1.0" } }, received ${showValue(skill.frontmatter)}.`);
    else for (const key of ["name", "description"].filter((k) => k in (skill.frontmatter as object))) problems.push(`${where}.frontmatter.${key}: give the skill's ${key} as ${where}.${key}, not in frontmatter (the mock writes both into SKILL.md).`);
  }
  const bodies = (["content", "file"] as const).filter((k) => skill[k] !== undefined);
  if (bodies.length !== 1) problems.push(`${where} needs exactly one of content (the body of SKILL.md) or file (a path to it), received ${bodies.length === 0 ? "neither" : "both"}.`);
  if (skill.content !== undefined) {
    if (typeof skill.content !== "string") problems.push(`${where}.content must be the body of SKILL.md as a string, received ${showValue(skill.content)}.`);
    else if (/^---\r?\n/.test(skill.content)) problems.push(`${where}.content starts with a "---" frontmatter block: content is SKILL.md's body, and the mock writes the frontmatter from name, description and frontmatter. Move those fields there and remove the block.`);
  }
  if (skill.file !== undefined) problems.push(...fileProblems(skill.file, `${where}.file`, baseDir, "give the body inline with content"));
  if (skill.files !== undefined) problems.push(...filesProblems(skill.files, `${where}.files`, baseDir));
  if (skill.dynamic !== undefined && typeof skill.dynamic !== "boolean") problems.push(`${where}.dynamic must be true or false, received ${showValue(skill.dynamic)}.`);
  if (skill.listed !== undefined && typeof skill.listed !== "boolean") problems.push(`${where}.listed must be true or false, received ${showValue(skill.listed)}.`);
  if (skill.entry !== undefined) problems.push(...entryProblems(skill.entry, skill.files, `${where}.entry`));
  return problems;
}

/** What is wrong with an entry override: its fields, and a path that is none of the skill's files. */
function entryProblems(entry: unknown, files: unknown, where: string): string[] {
  const example = `{ frontmatter: { name, description }, resources: { "SKILL.md": { digest: "sha256:...", size: 42 } } }`;
  if (!isObject(entry)) return [`${where} must be an object like ${example}, received ${showValue(entry)}.`];
  const problems: string[] = [];
  const unknown = Object.keys(entry).filter((k) => !ENTRY_FIELDS.includes(k));
  if (unknown.length > 0) problems.push(`${where} has ${unknown.map((k) => JSON.stringify(k)).join(", ")}, which an entry override does not: its fields are ${ENTRY_FIELDS.join(", ")}.`);
  if (entry["frontmatter"] !== undefined && (!isObject(entry["frontmatter"]) || !isPlainJsonValue(entry["frontmatter"]))) problems.push(`${where}.frontmatter must be an object of JSON values (the frontmatter the entry claims), like { name: "pdf-processing", description: "..." }, received ${showValue(entry["frontmatter"])}.`);
  const resources = entry["resources"];
  if (resources === undefined) return problems;
  if (!isObject(resources)) return [...problems, `${where}.resources must be an object of { digest?, size? } by a file's path in the skill, like ${example}, received ${showValue(resources)}.`];
  const paths = [SKILL_FILE, ...(isObject(files) ? Object.keys(files) : [])];
  for (const [path, value] of Object.entries(resources)) {
    const at = `${where}.resources[${JSON.stringify(path)}]`;
    if (!paths.includes(path)) problems.push(`${at}: the skill has no file ${JSON.stringify(path)}; its files are ${paths.map((p) => JSON.stringify(p)).join(", ")}.`);
    if (!isObject(value)) {
      problems.push(`${at} must be { digest?, size? }, received ${showValue(value)}.`);
      continue;
    }
    const extra = Object.keys(value).filter((k) => !ENTRY_FILE_FIELDS.includes(k));
    if (extra.length > 0) problems.push(`${at} has ${extra.map((k) => JSON.stringify(k)).join(", ")}: only digest and size can be overridden.`);
    if (value["digest"] !== undefined && (typeof value["digest"] !== "string" || value["digest"] === "")) problems.push(`${at}.digest must be a string like "sha256:<64 hex digits>", received ${showValue(value["digest"])}.`);
    if (value["size"] !== undefined && !(Number.isSafeInteger(value["size"]) && (value["size"] as number) >= 0)) problems.push(`${at}.size must be a whole number of bytes, 0 or more, received ${showValue(value["size"])}.`);
  }
  return problems;
}

function uriProblems(uri: unknown, name: string | undefined, where: string): string[] {
  const fix = `Write it "skill://${name ?? "<name>"}/SKILL.md", or "skill://<prefix>/${name ?? "<name>"}/SKILL.md" to place it under a prefix.`;
  if (typeof uri !== "string" || !uri.startsWith(SKILL_URI_SCHEME)) return [`${where} must be a skill:// URI (the scheme the mock serves skills under), received ${showValue(uri)}. ${fix}`];
  const segments = uri.slice(SKILL_URI_SCHEME.length).split("/");
  if (segments.length < 2 || segments.at(-1) !== SKILL_FILE || segments.some((s) => s === "" || s === "." || s === "..") || /[?#\s\\]/.test(uri)) {
    return [`${where} ${JSON.stringify(uri)} must name the skill's SKILL.md, with no empty, "." or ".." segment, query or fragment. ${fix}`];
  }
  if (name !== undefined && segments.at(-2) !== name) return [`${where} ${JSON.stringify(uri)} ends in ${JSON.stringify(segments.at(-2))}/SKILL.md, but the skill path's last segment must be the skill's name, ${JSON.stringify(name)}. ${fix}`];
  return [];
}

function fileProblems(file: unknown, where: string, baseDir: string, otherwise: string): string[] {
  if (typeof file !== "string" || file === "") return [`${where} must be a path to a file, received ${showValue(file)}.`];
  const read = readDeclaredFile(file, baseDir, where, otherwise);
  return "problem" in read ? [read.problem] : [];
}

function filesProblems(files: unknown, where: string, baseDir: string): string[] {
  if (!isObject(files)) return [`${where} must be an object of files by their path in the skill, like { "references/GUIDE.md": "# Guide", "assets/logo.png": { blob: "iVBORw0KGgo=" } }, received ${showValue(files)}.`];
  const problems: string[] = [];
  const paths = Object.keys(files);
  for (const [path, value] of Object.entries(files)) {
    const at = `${where}[${JSON.stringify(path)}]`;
    const segments = path.split("/");
    if (path === SKILL_FILE) problems.push(`${at}: SKILL.md is the skill's own file, written from name, description, frontmatter and content. Give its body as content.`);
    else if (segments.some((s) => s === "" || s === "." || s === "..") || /[\\?#]/.test(path) || path.length > 1024) {
      problems.push(`${at}: a file's path is relative to the skill's root, "/"-separated, with no empty, "." or ".." segment (like "references/GUIDE.md").`);
    } else if (paths.some((other) => other.startsWith(`${path}/`))) problems.push(`${at}: ${JSON.stringify(path)} is a file, and also the directory of ${JSON.stringify(paths.find((o) => o.startsWith(`${path}/`)))}. Rename one of them.`);
    if (typeof value === "string") continue;
    if (!isObject(value)) {
      problems.push(`${at} must be the file's text, or { text | blob | file, mimeType? }, received ${showValue(value)}.`);
      continue;
    }
    const unknown = Object.keys(value).filter((k) => !FILE_FIELDS.includes(k));
    if (unknown.length > 0) problems.push(`${at} has ${unknown.map((k) => JSON.stringify(k)).join(", ")}, which a skill file does not: its fields are ${FILE_FIELDS.join(", ")}.`);
    const sources = (["text", "blob", "file"] as const).filter((k) => value[k] !== undefined);
    if (sources.length !== 1) problems.push(`${at} needs exactly one of text, blob (base64) or file (a path), received ${sources.length === 0 ? "none" : sources.join(" and ")}.`);
    if (value["text"] !== undefined && typeof value["text"] !== "string") problems.push(`${at}.text must be a string, received ${showValue(value["text"])}.`);
    if (value["blob"] !== undefined && (typeof value["blob"] !== "string" || !BASE64.test(value["blob"]))) problems.push(`${at}.blob must be the file's bytes in base64 (like "aGVsbG8="), received ${showValue(value["blob"], 40)}.`);
    if (value["file"] !== undefined) problems.push(...fileProblems(value["file"], `${at}.file`, baseDir, "give its text inline"));
    if (value["mimeType"] !== undefined && (typeof value["mimeType"] !== "string" || !MIME.test(value["mimeType"]))) problems.push(`${at}.mimeType must be a MIME type like "text/markdown", received ${showValue(value["mimeType"])}.`);
  }
  return problems;
}

/** What is wrong with a list of skills, each with its index (`list[i]`): each one's problems, and a URI declared twice among them. */
export function skillListProblems(skills: ReadonlyArray<readonly [SkillDeclaration, number]>, list: string, baseDir?: string): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  skills.forEach(([skill, i]) => {
    const found = skillProblems(skill, `${list}[${i}]`, baseDir);
    if (found.length === 0 && seen.has(skillUri(skill))) found.push(`${list}[${i}]: ${JSON.stringify(skillUri(skill))} is declared twice. Give each skill one declaration (or another uri, to serve two skills of one name under different prefixes).`);
    problems.push(...found);
    if (found.length === 0) seen.add(skillUri(skill));
  });
  return problems;
}

/** Throws one error listing every problem, when there are any. */
export function throwSkillProblems(problems: readonly string[]): void {
  if (problems.length === 1) throw new McpMockError(problems[0] as string);
  if (problems.length > 1) throw new McpMockError(`${problems.length} problems in the skills:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
}

/** A frontmatter key as YAML writes it: plain when it can be, quoted otherwise. */
function yamlKey(key: string): string {
  return /^[A-Za-z_][\w-]*$/.test(key) ? key : JSON.stringify(key);
}

/** A skill's frontmatter as the entry carries it: name, description, then the other fields. */
export function skillFrontmatter(skill: SkillDeclaration): Record<string, unknown> {
  return { name: skill.name, description: skill.description, ...skill.frontmatter };
}

/**
 * The text of a skill's `SKILL.md`: the frontmatter as YAML (each value in JSON, which YAML
 * reads as the same value, so a host's parse equals the entry's `frontmatter`), then the body.
 */
export function skillMarkdown(frontmatter: Readonly<Record<string, unknown>>, body: string): string {
  const lines = Object.entries(frontmatter).map(([k, v]) => `${yamlKey(k)}: ${JSON.stringify(v)}`);
  return `---\n${lines.join("\n")}\n---\n\n${body}`;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function builtFile(path: string, uri: string, bytes: Uint8Array, mimeType: string | undefined, asBlob: boolean): BuiltSkillFile {
  let text: string | undefined;
  if (!asBlob) {
    try {
      text = UTF8.decode(bytes);
    } catch {
      text = undefined;
    }
  }
  const mime = mimeType ?? MIME_BY_EXTENSION[extname(path).toLowerCase()] ?? (text === undefined ? "application/octet-stream" : "text/plain");
  const contents = text === undefined ? { blob: Buffer.from(bytes).toString("base64") } : { text };
  return { path, uri, mimeType: mime, ...contents, digest: skillDigest(bytes), size: bytes.byteLength };
}

/** A checked skill, built: its files read (relative to `baseDir`), each with its digest and size. */
export function buildSkill(skill: SkillDeclaration, baseDir = process.cwd()): BuiltSkill {
  const uri = skillUri(skill);
  const root = uri.slice(0, -(SKILL_FILE.length + 1));
  const frontmatter = skillFrontmatter(skill);
  const body = skill.content ?? declaredFileBytes(skill.file as string, baseDir, `skill ${JSON.stringify(skill.name)}: file`, "give the body inline with content").toString("utf8");
  const files: BuiltSkillFile[] = [builtFile(SKILL_FILE, uri, Buffer.from(skillMarkdown(frontmatter, body), "utf8"), SKILL_MIME_TYPE, false)];
  for (const [path, value] of Object.entries(skill.files ?? {})) {
    const file = typeof value === "string" ? { text: value } : value;
    const bytes = file.text !== undefined ? Buffer.from(file.text, "utf8") : file.blob !== undefined ? Buffer.from(file.blob, "base64") : declaredFileBytes(file.file as string, baseDir, `skill ${JSON.stringify(skill.name)}: files[${JSON.stringify(path)}].file`, "give its text inline");
    files.push(builtFile(path, `${root}/${path}`, bytes, file.mimeType, file.blob !== undefined));
  }
  return { declaration: skill, uri, root, frontmatter, files };
}
