/**
 * Placeholders in definition files: `{{args.city}}`, `{{uri.id}}`, `{{answer.content.name}}`,
 * `{{progressToken}}`. Substituted from the call, never evaluated: a path is looked up, and
 * that is all.
 * @module
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z_$][\w$]*(?:\.[\w$-]+|\[\d+\])*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z_$][\w$]*(?:\.[\w$-]+|\[\d+\])*)\s*\}\}$/;

/** The values placeholders can name, by their first segment. */
export type PlaceholderContext = Readonly<Record<string, unknown>>;

/** Whether a value holds any placeholder. */
export function hasPlaceholders(value: unknown): boolean {
  if (typeof value === "string") return value.includes("{{");
  if (value === null || typeof value !== "object") return false;
  return Object.values(value).some(hasPlaceholders);
}

/**
 * The names a root's next segment may take, where the declaration says (a tool's inputSchema
 * properties, a prompt's arguments, a URI template's variables), and how to name their owner.
 */
export interface KnownNames {
  /** The names that exist. */
  readonly names: readonly string[];
  /** What they are, in a message: `the arguments of tool "add"`. */
  readonly what: string;
  /** Suggests the closest names to a misspelt one. */
  readonly closest: (name: string, names: readonly string[]) => string[];
}

/**
 * Reports (through `fail`) at load time a placeholder whose root is not one of `roots`, or whose name after
 * the root is not one the declaration has (`known`), naming the JSON path and the names that exist.
 */
export function checkPlaceholders(
  value: unknown,
  path: string,
  roots: readonly string[],
  fail: (path: string, message: string) => void,
  known: Readonly<Record<string, KnownNames>> = {},
): void {
  if (typeof value === "string") {
    for (const match of value.matchAll(PLACEHOLDER)) {
      const [root, name] = (match[1] as string).split(/[.[]/) as [string, string | undefined];
      if (roots.length === 0) {
        fail(path, `placeholders are not available here ({{${match[1]}}}). Only a templated resource ({ "uriTemplate": ... }) fills {{uri.name}} in its text.`);
        continue;
      }
      if (!roots.includes(root)) {
        fail(path, `the placeholder {{${match[1]}}} names "${root}", which is not known here. Placeholders here start with ${roots.map((r) => `"${r}"`).join(", ")}, like {{${roots[0]}.name}}.`);
        continue;
      }
      const names = Object.hasOwn(known, root) ? known[root] : undefined;
      if (names && name !== undefined && !names.names.includes(name)) {
        const similar = names.closest(name, names.names);
        fail(
          path,
          `the placeholder {{${match[1]}}} names "${name}", which is not one of ${names.what} (${names.names.join(", ") || "none"}), so it would always be empty.` +
            (similar.length ? ` Did you mean {{${root}.${similar[0]}}}?` : ""),
        );
      }
    }
    return;
  }
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) value.forEach((v, i) => checkPlaceholders(v, `${path}[${i}]`, roots, fail, known));
  else for (const [k, v] of Object.entries(value)) checkPlaceholders(v, `${path}.${k}`, roots, fail, known);
}

/** A placeholder's path, split once: `args.items[2].name` → `["args", "items", "2", "name"]`. */
function pathParts(path: string): readonly string[] {
  return path.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== "");
}

/** A path looked up in the request's own data: inherited keys (`__proto__`, `constructor`) are not there. */
function lookup(context: PlaceholderContext, parts: readonly string[]): unknown {
  let value: unknown = context;
  for (const part of parts) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A value as placeholder text: JSON for objects, empty for missing values. */
function asText(found: unknown): string {
  return found === undefined || found === null ? "" : typeof found === "object" ? JSON.stringify(found) : String(found);
}

/**
 * Compiles a value with placeholders once into the function that fills them: a string that is
 * one placeholder becomes the value itself (any JSON); placeholders inside text become text
 * (JSON for objects, empty for missing values); parts without placeholders are kept as they are.
 */
export function compileTemplate(value: unknown): (context: PlaceholderContext) => unknown {
  if (!hasPlaceholders(value)) return () => value;
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole) {
      const parts = pathParts(whole[1] as string);
      return (context) => lookup(context, parts) ?? "";
    }
    const pieces: Array<string | readonly string[]> = [];
    let last = 0;
    for (const match of value.matchAll(PLACEHOLDER)) {
      pieces.push(value.slice(last, match.index), pathParts(match[1] as string));
      last = match.index + match[0].length;
    }
    pieces.push(value.slice(last));
    return (context) => {
      let text = "";
      for (const piece of pieces) text += typeof piece === "string" ? piece : asText(lookup(context, piece));
      return text;
    };
  }
  if (Array.isArray(value)) {
    const items = value.map(compileTemplate);
    return (context) => items.map((fill) => fill(context));
  }
  const keys = Object.keys(value as object);
  const fills = keys.map((key) => compileTemplate((value as Record<string, unknown>)[key]));
  // Field by field (no arrays per call); a "__proto__" key is defined as an own property, as
  // JSON.parse makes it (an assignment would set the prototype instead).
  return (context) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const filled = (fills[i] as (c: PlaceholderContext) => unknown)(context);
      if (key === "__proto__") Object.defineProperty(out, key, { value: filled, enumerable: true, writable: true, configurable: true });
      else out[key] = filled;
    }
    return out;
  };
}

/**
 * Substitutes placeholders in one go (see {@link compileTemplate}, which answers that are
 * played many times use, to do the parsing once).
 */
export function substitute(value: unknown, context: PlaceholderContext): unknown {
  return compileTemplate(value)(context);
}
