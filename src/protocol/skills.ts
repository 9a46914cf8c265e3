/**
 * The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640, its stable specification
 * written against base revision 2026-07-28): its wire facts. A skill is a directory of files
 * served as resources under `skill://<skill-path>/<file-path>`, the last segment of the skill
 * path its name; `skills/list` and `skills/get` answer `Skill` entries (the frontmatter, and
 * every file's `sha256:` digest and size), `resources/directory/read` a directory's children.
 * @module
 */
import { createHash } from "node:crypto";

/** The extension's identifier, the key under `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** The URI scheme skills are served under. */
export const SKILL_URI_SCHEME = "skill://";

/** The file every skill has at its root. */
export const SKILL_FILE = "SKILL.md";

/** The mime type of `SKILL.md`. */
export const SKILL_MIME_TYPE = "text/markdown";

/** The mime type of a directory resource (`resources/directory/read`). */
export const DIRECTORY_MIME_TYPE = "inode/directory";

/** The Agent Skills naming rule: lowercase letters and digits in hyphen-separated runs, at most 64 characters. */
export const SKILL_NAME = /^[\p{Ll}\p{Nd}]+(?:-[\p{Ll}\p{Nd}]+)*$/u;

/** The longest name and description the Agent Skills specification allows. */
export const SKILL_NAME_MAX = 64;
export const SKILL_DESCRIPTION_MAX = 1024;

/** The per-skill limits every host accepts: files, and bytes over all of them. */
export const SKILL_LIMITS = { resources: 512, bytes: 16 * 1024 * 1024 } as const;

/** What the server advertises for the extension: the mock answers directory reads too. */
export function skillsExtensionSettings(): Record<string, unknown> {
  return { directoryRead: true };
}

/** A file's digest as the extension writes it: `sha256:` and 64 lowercase hex digits of its raw bytes. */
export function skillDigest(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** One file of a skill in its entry: its URI, digest and size in bytes. */
export interface SkillResourceEntry {
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
}

/** A `Skill` entry, as `skills/list` and `skills/get` answer it. */
export interface SkillEntry {
  readonly uri: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly resources: readonly SkillResourceEntry[] | "dynamic";
}

/** The message of `skills/get`'s -32602 for a URI that is no skill (the specification's own wording). */
export function noSkillMessage(uri: string): string {
  return `No skill is served at ${uri}`;
}
