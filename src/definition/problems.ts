/**
 * The problems of one definition, collected so that all of them are reported at once: each
 * with its JSON path and what is wrong, then the schema's example for each kind of entry that
 * has a problem, once (a delay's example for a delay, a response's for a response).
 * @module
 */
import { McpMockError } from "../values/errors.js";
import { FORMAT, exampleFor } from "./schema.js";

/** Problems shown at most in one message. */
const MAX_PROBLEMS = 20;

interface Problem {
  readonly path: string;
  readonly message: string;
  /** The mistake is in the field's own value (its type, say): only the field's example fits. */
  readonly field: boolean;
}

/** A definition's problems, gathered in one pass. */
export class Problems {
  readonly #source: string;
  readonly #list: Problem[] = [];

  constructor(source: string) {
    this.#source = source;
  }

  /** Notes a problem at `path`; `field` when it is about that field's value, not the entry it is in. */
  add(path: string, message: string, field = false): void {
    if (!this.#list.some((p) => p.path === path && p.message === message)) this.#list.push({ path, message, field });
  }

  /** How many problems were found. */
  get size(): number {
    return this.#list.length;
  }

  /** Whether a problem was found at `path` or inside it (`responses[2].tool` is inside `responses[2]`). */
  hasAt(path: string): boolean {
    return this.#list.some((p) => p.path === path || p.path.startsWith(`${path}.`) || p.path.startsWith(`${path}[`));
  }

  /** Refuses the definition if anything was found: one problem and its example, or the list and then each example once. */
  throwIfAny(): void {
    const list = this.#list;
    if (list.length === 0) return;
    const head = `Invalid mock definition — ${this.#source}:`;
    if (list.length === 1) {
      const [only] = list as [Problem];
      const example = exampleFor(only.path, only.field);
      const hint = example ? `Expected like: ${example.text}` : only.field ? undefined : FORMAT;
      throw new McpMockError(`${head} ${only.path}: ${only.message}${hint ? `\n→ ${hint}` : ""}`);
    }
    const shown = list.slice(0, MAX_PROBLEMS);
    const lines = shown.map((p) => `- ${p.path}: ${p.message}`);
    if (list.length > MAX_PROBLEMS) lines.push(`- … and ${list.length - MAX_PROBLEMS} more`);
    // Each example once, after the list, naming the kinds of entry it is for.
    const examples = new Map<string, Set<string>>();
    let format = false;
    for (const p of shown) {
      const example = exampleFor(p.path, p.field);
      if (example) examples.set(example.text, (examples.get(example.text) ?? new Set()).add(example.at));
      else if (!p.field) format = true;
    }
    for (const [text, at] of examples) lines.push(`→ Expected like, for ${[...at].join(", ")}: ${text}`);
    if (format) lines.push(`→ ${FORMAT}`);
    throw new McpMockError(`${head} ${list.length} problems, all listed here.\n${lines.join("\n")}`);
  }
}
