/**
 * A definition's schema errors (ajv's) made into its problems: the most telling one of each
 * entry and of each field in it, misspelt fields with the field meant, each at its JSON path.
 * @module
 */
import type { ErrorObject } from "ajv";
import { jsonTypeOf, showValue } from "../values/errors.js";
import { closestNames } from "../journal/explain.js";
import { fieldsAt } from "./schema.js";

function jsonPath(pointer: string): string {
  let path = "";
  for (const part of pointer.split("/").slice(1)) path += /^\d+$/.test(part) ? `[${part}]` : path ? `.${part}` : part;
  return path || "(the root)";
}

function valueAt(root: unknown, pointer: string): unknown {
  let v: unknown = root;
  for (const part of pointer.split("/").slice(1)) v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

/** The most telling schema error: the deepest one that is not a combinator summary. */
function bestError(errors: readonly ErrorObject[]): ErrorObject {
  const concrete = errors.filter((e) => !["oneOf", "anyOf", "allOf", "if"].includes(e.keyword));
  const pool = concrete.length ? concrete : errors;
  const rank = (e: ErrorObject): number => (e.keyword === "additionalProperties" || e.keyword === "unevaluatedProperties" ? 0 : e.keyword === "required" ? 2 : 1);
  return [...pool].sort((a, b) => b.instancePath.split("/").length - a.instancePath.split("/").length || rank(a) - rank(b))[0] as ErrorObject;
}

const UNKNOWN_FIELD = new Set(["additionalProperties", "unevaluatedProperties"]);

/** The entry a schema error is in: `/responses/0` for `/responses/0/then/1`, `/server` for `/server/name`, `/tools` for `/tools`. */
export function entryOf(pointer: string): string {
  const parts = pointer.split("/");
  return parts.slice(0, /^\d+$/.test(parts[2] ?? "") ? 3 : 2).join("/");
}

/**
 * The schema errors worth reporting: the most telling one of each entry (a response, a tool,
 * `server`, ...), and, where that one is an unknown field, every other unknown field of the entry
 * (typos are independent of each other). Entries are reported independently, so a file with
 * three broken responses gets three problems.
 */
export function schemaProblems(errors: readonly ErrorObject[], skip: ReadonlySet<string>): ErrorObject[] {
  const byEntry = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const entry = entryOf(error.instancePath);
    if (skip.has(entry)) continue;
    byEntry.set(entry, [...(byEntry.get(entry) ?? []), error]);
  }
  return [...byEntry].flatMap(([entry, group]) => {
    const best = bestError(group);
    const unknown = group.filter((e) => e !== best && UNKNOWN_FIELD.has(e.keyword));
    if (UNKNOWN_FIELD.has(best.keyword)) return [best, ...unknown];
    // Each field of the entry with a mistake in it gets its own most telling one (a "delay" and an
    // "isError" of the wrong type are two mistakes), so that all are fixed in one run.
    const byField = new Map<string, ErrorObject[]>();
    for (const error of group) {
      if (error.instancePath === entry) continue;
      const field = error.instancePath.split("/").slice(0, entry.split("/").length + 1).join("/");
      byField.set(field, [...(byField.get(field) ?? []), error]);
    }
    const fieldBests = [...byField.values()].map(bestError);
    if (fieldBests.length > 1) return [...fieldBests, ...unknown.filter((e) => e.instancePath === entry && !fieldsAt(jsonPath(entry)).includes(unknownKey(e)))];
    // A misspelt field of the entry itself is a mistake of its own beside the entry's most telling
    // one (a "reslt" beside a "delay" of the wrong type), when the entry has no such field at all.
    const fields = fieldsAt(jsonPath(entry));
    return [best, ...unknown.filter((e) => e.instancePath === entry && !fields.includes(unknownKey(e)))];
  });
}

/** The field an unknown-field error names. */
function unknownKey(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  return String(params["additionalProperty"] ?? params["unevaluatedProperty"]);
}

/** What to say of an unknown field: where it belongs, or the field it was probably meant to be. */
function unknownFieldHint(parentPath: string, key: string): string {
  if (parentPath === "") {
    const home = ["server", "options"].find((parent) => fieldsAt(parent).includes(key));
    if (home) return ` It belongs under "${home}": { "${home}": { "${key}": ... } }.`;
  }
  const similar = closestNames(key, fieldsAt(parentPath === "" ? "(the root)" : parentPath));
  return similar.length ? ` Did you mean "${similar[0]}"?` : "";
}

export function describeError(error: ErrorObject, root: unknown): { path: string; message: string; field?: boolean } {
  const params = error.params as Record<string, unknown>;
  const path = jsonPath(error.instancePath);
  const received = valueAt(root, error.instancePath);
  switch (error.keyword) {
    case "required":
      return { path, message: `"${String(params["missingProperty"])}" is required here.` };
    case "additionalProperties":
    case "unevaluatedProperties": {
      const key = unknownKey(error);
      const parent = path === "(the root)" ? "" : path;
      return { path: `${parent === "" ? "" : `${parent}.`}${key}`, message: `"${key}" is not a field here (a typo?).${unknownFieldHint(parent, key)}` };
    }
    case "type":
      return { path, field: true, message: `must be ${Array.isArray(params["type"]) ? params["type"].join(" or ") : String(params["type"])}, received ${showValue(received, 60)} (${jsonTypeOf(received)}).` };
    case "enum":
      return { path, field: true, message: `must be one of ${(params["allowedValues"] as unknown[]).map((v) => JSON.stringify(v)).join(", ")}, received ${showValue(received, 60)}.` };
    case "const":
      return { path, field: true, message: `must be ${JSON.stringify(params["allowedValue"])}, received ${showValue(received, 60)}.` };
    default:
      return { path, field: true, message: `${error.message ?? "is not valid"}, received ${showValue(received, 60)}.` };
  }
}
