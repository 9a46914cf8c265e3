/**
 * What a definition's tool schemas mean, checked against the file itself: a `required` that
 * names a property the schema does not declare, a stub's `args` that the tool's `inputSchema`
 * refuses (so no client call could ever match), and a `result` that breaks the tool's
 * `outputSchema` (so SDK clients would reject it). All found in one pass, each with its fix.
 * A matcher-valued argument (`{ "$regex": ... }`, `{ "$any": true }`) is not a value and is
 * not checked, nor is a `{ "$literal": v }` (the escape for one field: `v` exactly, as written).
 * `"options": { "strict": false }` turns the argument and result checks off for the whole file,
 * for one that answers broken calls or sends broken answers on purpose.
 * @module
 */
import { closestNames } from "../journal/explain.js";
import { hasPlaceholders } from "../values/placeholders.js";
import { propertyPath } from "../values/json-value.js";
import { compileArgumentCheck, showViolation, type ArgumentCheck, type SchemaViolation } from "../stubs/schema-check.js";
import { isCallToolResult, wrapToolPayload } from "../stubs/tool-result.js";
import type { AnswerDefinition, MockDefinition } from "./format.js";
import type { Problems } from "./problems.js";

type Json = Record<string, unknown>;
type ToolDeclaration = NonNullable<MockDefinition["tools"]>[number];
type ResponseEntry = NonNullable<MockDefinition["responses"]>[number];

/** Violations shown for one value; the rest are counted. */
const MAX_VIOLATIONS = 5;

const ESCAPE = `or, to keep it on purpose, give the file "options": { "strict": false }`;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Every `required` name that the schema's `properties` (or `patternProperties`) do not
 * declare, at any depth of object schemas: `where` is the schema's path in the file.
 */
export function undeclaredRequired(schema: unknown, where: string, report: (path: string, message: string) => void): void {
  if (Array.isArray(schema)) {
    schema.forEach((s, i) => undeclaredRequired(s, `${where}[${i}]`, report));
    return;
  }
  if (!isObject(schema)) return;
  const properties = schema["properties"];
  const required = schema["required"];
  if (isObject(properties) && Array.isArray(required)) {
    const declared = Object.keys(properties);
    const patterns = isObject(schema["patternProperties"]) ? Object.keys(schema["patternProperties"]) : [];
    required.forEach((name, i) => {
      if (typeof name !== "string" || declared.includes(name)) return;
      if (patterns.some((p) => safeTest(p, name))) return;
      const similar = closestNames(name, declared);
      const hint = similar.length ? `Did you mean ${JSON.stringify(similar[0])}? ` : "";
      report(
        `${where}.required[${i}]`,
        `names ${JSON.stringify(name)}, which "properties" does not declare (it declares ${declared.map((d) => JSON.stringify(d)).join(", ") || "none"}). ` +
          `${hint}Add ${JSON.stringify(name)} to "properties", or take it out of "required".`,
      );
    });
  }
  // The schemas inside this one: properties, items, combinators, definitions.
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" || key === "patternProperties" || key === "$defs" || key === "definitions" || key === "dependentSchemas") {
      if (isObject(value)) for (const [name, sub] of Object.entries(value)) undeclaredRequired(sub, `${where}.${key}${propertyPath(name)}`, report);
    } else if (["items", "additionalProperties", "not", "if", "then", "else", "contains", "prefixItems", "allOf", "anyOf", "oneOf"].includes(key)) {
      undeclaredRequired(value, `${where}.${key}`, report);
    }
  }
}

function safeTest(pattern: string, name: string): boolean {
  try {
    return new RegExp(pattern, "u").test(name);
  } catch {
    return false;
  }
}

/**
 * A stub's expected arguments as the value a client would send: each matcher-valued place
 * (`{ "$regex": ... }` and the like) and each `{ "$literal": ... }` is left out and listed, so
 * nothing is said of it.
 */
function argumentValue(value: unknown, path: string, matchers: string[]): unknown {
  if (Array.isArray(value)) return value.map((v, i) => argumentValue(v, `${path}[${i}]`, matchers));
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && (keys[0] as string).startsWith("$")) {
    matchers.push(path);
    return undefined;
  }
  const out: Json = {};
  for (const key of keys) {
    const v = argumentValue(value[key], `${path}${propertyPath(key)}`, matchers);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

function under(path: string, matchers: readonly string[]): boolean {
  return matchers.some((m) => path === m || path.startsWith(`${m}.`) || path.startsWith(`${m}[`));
}

function listed(violations: readonly SchemaViolation[], rename: (path: string) => string): string {
  const shown = violations.slice(0, MAX_VIOLATIONS).map((v) => showViolation({ ...v, path: rename(v.path) }));
  const more = violations.length > MAX_VIOLATIONS ? `; and ${violations.length - MAX_VIOLATIONS} more` : "";
  return shown.join("; ") + more;
}

/** A compiled check of a tool's schema, or `undefined` when it has none or it does not compile (reported elsewhere). */
function compiled(schema: unknown, where: string): ArgumentCheck | undefined {
  if (!isObject(schema)) return undefined;
  try {
    return compileArgumentCheck(schema, where);
  } catch {
    return undefined;
  }
}

/** The arguments of a tool entry, checked against the tool's inputSchema: exactly (`args`) or as the fields given (`argsMatching`). */
function argsProblems(r: ResponseEntry, where: string, check: ArgumentCheck, tool: string, report: (path: string, message: string) => void): void {
  for (const key of ["args", "argsMatching"] as const) {
    const given = (r as unknown as Json)[key];
    if (given === undefined) continue;
    const matchers: string[] = [];
    const value = argumentValue(given, "args", matchers);
    const violations = check(value).filter((v) => !under(v.path, matchers) && !(key === "argsMatching" && v.missing));
    if (violations.length === 0) continue;
    report(
      `${where}.${key}`,
      `no call can match: tool ${JSON.stringify(tool)}'s inputSchema refuses these arguments (${listed(violations, (p) => p.replace(/^args/, key))}). ` +
        `Fix the value to one the schema accepts, write a matcher for a field that may vary ({ "$any": true }, { "$regex": "..." }), ` +
          `write a field that must break the schema on purpose as { "$literal": ... }, ${ESCAPE}.`,
    );
  }
}

/** What a client would receive for a constant answer of a tool with an outputSchema, checked as the SDK client checks it. */
function resultProblems(answer: AnswerDefinition, where: string, check: ArgumentCheck, tool: string, report: (path: string, message: string) => void): void {
  const { result } = answer;
  if (result === undefined || answer.isError === true || hasPlaceholders(result)) return;
  const sent = wrapToolPayload(result, { isError: false, hasOutputSchema: true, structuredContent: true });
  if (sent.isError === true) return;
  const structured = sent.structuredContent;
  if (structured === undefined) {
    const whole = isCallToolResult(result);
    report(
      `${where}.result`,
      `tool ${JSON.stringify(tool)} declares an outputSchema, and this ${whole ? "result has no structuredContent" : "answer is not an object"}, so SDK clients reject it ("has an output schema but did not return structured content"). ` +
        `Answer an object that matches the outputSchema (it goes out as structuredContent)${whole ? ", add structuredContent" : ""}, set "isError": true for a failure, ${ESCAPE}.`,
    );
    return;
  }
  const violations = check(structured);
  if (violations.length === 0) return;
  const base = isCallToolResult(result) ? "result.structuredContent" : "result";
  report(
    `${where}.result`,
    `breaks tool ${JSON.stringify(tool)}'s outputSchema (${listed(violations, (p) => p.replace(/^args/, base))}), so SDK clients reject it ` +
      `("Structured content does not match the tool's output schema"). Fix the answer to match the outputSchema, ${ESCAPE}.`,
  );
}

/**
 * Reports every schema-semantic mistake of a definition's tools and tool entries; `tools` and
 * `responses` are the entries the schema accepted, each with its index.
 */
export function schemaSemantics(
  def: MockDefinition,
  tools: ReadonlyArray<[ToolDeclaration, number]>,
  responses: ReadonlyArray<[ResponseEntry, number]>,
  problems: Problems,
): void {
  const report = (path: string, message: string): void => problems.add(path, message);
  for (const [tool, i] of tools) {
    undeclaredRequired(tool.inputSchema, `tools[${i}].inputSchema`, report);
    undeclaredRequired(tool.outputSchema, `tools[${i}].outputSchema`, report);
  }
  if (def.options?.strict === false) return;
  const declared = new Map(tools.map(([t, i]) => [t.name, { tool: t, i }]));
  const inputs = new Map<string, ArgumentCheck | undefined>();
  const outputs = new Map<string, ArgumentCheck | undefined>();
  for (const [r, i] of responses) {
    if (r.tool === undefined) continue;
    const found = declared.get(r.tool);
    if (!found) continue;
    if (!inputs.has(r.tool)) inputs.set(r.tool, compiled(found.tool.inputSchema, `tools[${found.i}].inputSchema`));
    if (!outputs.has(r.tool)) outputs.set(r.tool, compiled(found.tool.outputSchema, `tools[${found.i}].outputSchema`));
    const input = inputs.get(r.tool);
    const output = outputs.get(r.tool);
    const where = `responses[${i}]`;
    if (input) argsProblems(r, where, input, r.tool, report);
    if (output) {
      resultProblems(r, where, output, r.tool, report);
      (r.then ?? []).forEach((next, j) => resultProblems(next, `${where}.then[${j}]`, output, r.tool as string, report));
    }
  }
}
