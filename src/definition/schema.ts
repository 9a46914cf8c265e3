/**
 * The shipped JSON Schema (`mcpmock/schema.json`), the one source of the definition format:
 * what a file may hold, checked by ajv, and the examples that error messages show (its
 * `examples` keywords).
 * @module
 */
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";

/** A node of the schema, as far as this module reads it. */
interface SchemaNode {
  readonly $ref?: string;
  readonly allOf?: readonly SchemaNode[];
  readonly oneOf?: readonly SchemaNode[];
  readonly anyOf?: readonly SchemaNode[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly items?: SchemaNode;
  readonly examples?: readonly unknown[];
  readonly $defs?: Readonly<Record<string, SchemaNode>>;
}

/** What the root-level mistakes show: the outline of a file. */
export const FORMAT =
  'Format: { "tools": [ { "name": ..., "inputSchema": ... } ], "responses": [ { "tool": ..., "args": ..., "result": ... } ] } (see mcpmock/schema.json)';

const require = createRequire(import.meta.url);
let schema: SchemaNode | undefined;
let validator: ValidateFunction | undefined;

/** The schema, read once. The package refers to itself by name (its exports map has ./schema.json): the same from src/ and dist/. */
export function definitionSchema(): SchemaNode {
  schema ??= require("mcpmock/schema.json") as SchemaNode;
  return schema;
}

/** Every way `value` breaks the schema (none when it follows it). */
export function schemaErrors(value: unknown): readonly ErrorObject[] {
  if (!validator) {
    const Ajv = (require("ajv/dist/2020") as { default: new (o: object) => { compile(s: object): ValidateFunction } }).default;
    validator = new Ajv({ allErrors: true, strict: false }).compile(definitionSchema());
  }
  return validator(value) ? [] : (validator.errors ?? []);
}

/** The nodes that apply at one place: the node itself, what it refers to, and its combined parts. */
function expand(node: SchemaNode | boolean | undefined, into: SchemaNode[] = []): SchemaNode[] {
  if (node === undefined || typeof node === "boolean" || into.includes(node)) return into;
  into.push(node);
  if (node.$ref !== undefined) expand(definitionSchema().$defs?.[node.$ref.replace("#/$defs/", "")], into);
  for (const part of [...(node.allOf ?? []), ...(node.oneOf ?? []), ...(node.anyOf ?? [])]) expand(part, into);
  return into;
}

/** `responses[0].then[1].error` as its parts: `["responses", 0, "then", 1, "error"]`. */
function pathParts(path: string): Array<string | number> {
  if (path === "(the root)") return [];
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] === undefined ? (m[1] as string) : Number(m[2])));
}

/** One example as messages show it: `{ "a": 1 }`, `[1, 2]`; an empty object stands for any (`{ ... }`). */
function render(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(render).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    return entries.length === 0 ? "{ ... }" : `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${render(v)}`).join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** Walks the schema along `path`, calling `visit` with the nodes that apply at each step; returns those at its end. */
function walk(path: string, visit: (nodes: readonly SchemaNode[]) => void = () => undefined): SchemaNode[] {
  let nodes = expand(definitionSchema());
  for (const part of pathParts(path)) {
    const next: SchemaNode[] = [];
    for (const node of nodes) {
      if (typeof part === "number") expand(node.items, next);
      else expand(node.properties?.[part] ?? (typeof node.additionalProperties === "object" ? node.additionalProperties : undefined), next);
    }
    nodes = next;
    visit(nodes);
  }
  return nodes;
}

/**
 * The example for a mistake at `path`, and the place (indices left out: `responses[].delay`)
 * whose schema gave it. With `field`, only examples of the field itself or of a node within
 * it, or of the entry it is in when that example shows the field (a mistake in the field's
 * value: a delay's example for `delay: "fast"`, not a response's that has no delay); otherwise
 * those of the deepest schema node on the way there that has any. A list's example shows its
 * items; several examples are alternatives.
 */
export function exampleFor(path: string, field: boolean): { text: string; at: string } | undefined {
  const parts = pathParts(path);
  let found: { examples: readonly unknown[]; depth: number } | undefined;
  let depth = 0;
  walk(path, (nodes) => {
    depth++;
    const examples = nodes.find((n) => n.examples !== undefined)?.examples;
    if (examples !== undefined) found = { examples, depth };
  });
  if (found === undefined) return undefined;
  const text = found.examples.map((e) => (Array.isArray(e) ? e.map(render).join(", ") : render(e))).join(" or ");
  // An entry's example fits a mistake in one of its fields' values only if it shows that field.
  const name = parts.findLast((p): p is string => typeof p === "string");
  if (field && found.depth < parts.length && !(name !== undefined && text.includes(`${JSON.stringify(name)}:`))) return undefined;
  const at = parts.slice(0, found.depth).map((p, i) => (typeof p === "number" ? "[]" : i === 0 ? p : `.${p}`)).join("");
  return { text, at };
}

/** The field names the schema allows in the object at `path` (`"(the root)"` for the file itself). */
export function fieldsAt(path: string): string[] {
  return [...new Set(walk(path).flatMap((node) => Object.keys(node.properties ?? {})))];
}
