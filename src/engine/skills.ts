/**
 * A mock's skills (the Skills extension): each declared skill's files served as resources
 * (so `resources/read` reads them), its entry for `skills/list` and `skills/get`, and the
 * directory tree `resources/directory/read` answers from; the extension advertised while a
 * skill is declared.
 * @module
 */
import { JsonRpcFailure } from "../protocol/jsonrpc.js";
import { InvalidCursorError, page } from "../protocol/pagination.js";
import { ErrorCodes } from "../protocol/revisions.js";
import { EXTENSIONS_CAPABILITY, withExtensions } from "../protocol/extensions.js";
import { DIRECTORY_MIME_TYPE, noSkillMessage, SKILL_FILE, SKILL_URI_SCHEME, SKILLS_EXTENSION, skillsExtensionSettings, type SkillEntry } from "../protocol/skills.js";
import { buildSkill, skillListProblems, skillProblems, throwSkillProblems, type BuiltSkill, type BuiltSkillFile, type SkillDeclaration } from "../stubs/skill-catalog.js";
import type { ResourceCatalog, ResourceDeclaration } from "../stubs/resource-catalog.js";
import { showValue } from "../values/errors.js";
import type { SkillAnswers } from "./built-ins/source.js";

/** The longest URI an error message repeats whole. */
const SHOWN_URI = 200;

/** A child of a directory, as `resources/directory/read` lists it. */
type Child = Record<string, unknown> & { readonly uri: string };

/** The declared skills, their files as resources, and their directories. */
export class Skills implements SkillAnswers {
  readonly #resources: ResourceCatalog;
  readonly #skills = new Map<string, BuiltSkill>();
  /** Directory URI → its children by URI (rebuilt when a skill is declared or removed). */
  #directories = new Map<string, Map<string, Child>>();

  constructor(host: { readonly resources: ResourceCatalog }) {
    this.#resources = host.resources;
  }

  /** How many skills are declared (the extension is advertised when any is). */
  get size(): number {
    return this.#skills.size;
  }

  /** Capabilities with the skills extension added when a skill is declared, unless an `extensions` entry already advertises it (on purpose, with other settings). */
  advertised(capabilities: Record<string, unknown>): Record<string, unknown> {
    if (this.#skills.size === 0) return capabilities;
    const extensions = capabilities[EXTENSIONS_CAPABILITY] as Record<string, unknown> | undefined;
    return extensions?.[SKILLS_EXTENSION] !== undefined ? capabilities : withExtensions(capabilities, [[SKILLS_EXTENSION, skillsExtensionSettings()]]);
  }

  /** Declares the start options' (or a definition's) skills: every problem in one error, a URI declared twice among them. */
  declareAll(skills: readonly SkillDeclaration[] | undefined, baseDir: string | undefined, list = "skills"): void {
    throwSkillProblems(skillListProblems((skills ?? []).map((s, i) => [s, i] as const), list, baseDir));
    for (const skill of skills ?? []) this.#declare(skill, baseDir);
  }

  /** Declares one skill while the mock runs (or replaces the one with the same URI). */
  declare(skill: SkillDeclaration, where: string, baseDir?: string): void {
    throwSkillProblems(skillProblems(skill, where, baseDir));
    this.#declare(skill, baseDir);
  }

  #declare(skill: SkillDeclaration, baseDir: string | undefined): void {
    const built = buildSkill(skill, baseDir);
    this.#forget(built.uri);
    this.#skills.set(built.uri, built);
    for (const file of built.files) this.#resources.declare(resourceOf(built, file), `skill ${JSON.stringify(built.uri)}: ${file.path}`);
    this.#index();
  }

  #forget(uri: string): boolean {
    const old = this.#skills.get(uri);
    if (old === undefined) return false;
    for (const file of old.files) this.#resources.remove(file.uri);
    this.#skills.delete(uri);
    return true;
  }

  /** The declared skills' `SKILL.md` URIs. */
  uris(): string[] {
    return [...this.#skills.keys()];
  }

  /** The listed skills' entries, in declaration order. */
  listed(): SkillEntry[] {
    return [...this.#skills.values()].filter((s) => s.declaration.listed !== false).map(entryOf);
  }

  /** `skills/get`: the entry of the skill whose `SKILL.md` is at `uri`; -32602 naming it otherwise. */
  get(uri: unknown): { skill: SkillEntry } {
    if (typeof uri !== "string") throw invalid(`Invalid params: skills/get needs params.uri, the URI of a skill's SKILL.md`, `[mcpmock] skills/get was sent uri ${showValue(uri, 80)}; send { "uri": "skill://<name>/SKILL.md" }.`);
    const skill = this.#skills.get(uri);
    if (skill !== undefined) return { skill: entryOf(skill) };
    const shown = uri.length > SHOWN_URI ? `${uri.slice(0, SHOWN_URI)}… (${uri.length} characters)` : uri;
    const known = this.uris();
    throw invalid(noSkillMessage(shown), `[mcpmock] no skill is declared at ${shown}. Declared skills: ${known.length ? known.slice(0, 20).join(", ") : "none"}. Declare it with skills: [{ name, description, content }], or stub skills/get.`);
  }

  /** `resources/directory/read`: the direct children of a directory resource, paged; -32602 for a URI that is no directory. */
  directory(uri: unknown, cursor: unknown, pageSize: number): { resources: Child[]; nextCursor?: string } {
    if (typeof uri !== "string") throw invalid(`Invalid params: resources/directory/read needs params.uri, the URI of a directory`, `[mcpmock] resources/directory/read was sent uri ${showValue(uri, 80)}; send { "uri": "skill://<name>" }.`);
    const shown = uri.length > SHOWN_URI ? `${uri.slice(0, SHOWN_URI)}… (${uri.length} characters)` : uri;
    const children = this.#directories.get(uri);
    if (children === undefined) {
      const file = this.#resources.read(uri) !== undefined;
      const hint = uri.endsWith("/") && this.#directories.has(uri.slice(0, -1)) ? ` Directory URIs have no trailing slash: read ${uri.slice(0, -1)}.` : "";
      throw invalid(file ? `${shown} is not a directory resource` : `No directory resource at ${shown}`, `[mcpmock] ${shown} is ${file ? "a file" : "not a directory of any declared skill"}.${hint} Directories: ${[...this.#directories.keys()].slice(0, 20).join(", ") || "none"}.`);
    }
    try {
      const { items, nextCursor } = page([...children.values()], cursor, pageSize, `resources/directory/read ${uri}`);
      return nextCursor === undefined ? { resources: items } : { resources: items, nextCursor };
    } catch (error) {
      if (error instanceof InvalidCursorError) throw invalid(`Invalid params: invalid cursor`, `[mcpmock] ${error.message}.`);
      throw error;
    }
  }

  /** Every directory of every skill, from the first segment after `skill://` down, with its direct children. */
  #index(): void {
    const directories = new Map<string, Map<string, Child>>();
    const dir = (uri: string): Map<string, Child> => {
      let children = directories.get(uri);
      if (children !== undefined) return children;
      directories.set(uri, (children = new Map()));
      const slash = uri.lastIndexOf("/");
      // The first segment (the authority) is the top: no directory above it.
      if (slash > SKILL_URI_SCHEME.length) dir(uri.slice(0, slash)).set(uri, { uri, name: uri.slice(slash + 1), mimeType: DIRECTORY_MIME_TYPE });
      return children;
    };
    for (const skill of this.#skills.values()) {
      for (const file of skill.files) {
        const slash = file.uri.lastIndexOf("/");
        const { text: _t, blob: _b, ...listed } = resourceOf(skill, file);
        dir(file.uri.slice(0, slash)).set(file.uri, listed as Child);
      }
    }
    this.#directories = directories;
  }
}

function invalid(message: string, report: string): JsonRpcFailure {
  return new JsonRpcFailure(ErrorCodes.InvalidParams, message, report);
}

/** A skill's entry: the `SKILL.md` URI, the frontmatter, every file's digest and size (or `"dynamic"`), with what `entry` says instead. */
function entryOf(skill: BuiltSkill): SkillEntry {
  const override = skill.declaration.entry;
  return {
    uri: skill.uri,
    frontmatter: override?.frontmatter ?? skill.frontmatter,
    resources: skill.declaration.dynamic === true ? "dynamic" : skill.files.map((f) => ({ uri: f.uri, digest: override?.resources?.[f.path]?.digest ?? f.digest, size: override?.resources?.[f.path]?.size ?? f.size })),
  };
}

/** A skill's file as the resource the mock serves: `SKILL.md` named and described from the frontmatter, the others by their file name. */
function resourceOf(skill: BuiltSkill, file: BuiltSkillFile): ResourceDeclaration {
  const own = file.path === SKILL_FILE;
  return {
    uri: file.uri,
    name: own ? skill.declaration.name : (file.path.split("/").pop() as string),
    ...(own ? { description: skill.declaration.description } : {}),
    mimeType: file.mimeType,
    size: file.size,
    ...(file.text === undefined ? { blob: file.blob as string } : { text: file.text }),
  };
}
