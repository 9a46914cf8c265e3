/**
 * Tool argument validation against the declared `inputSchema`, by a real JSON Schema
 * validator (Ajv, draft 2020-12 by default as MCP 2025-11-25 says, draft-07 when the schema
 * names it), with diagnostics that name the field, the rule and the value received.
 * Ajv is loaded on first use, so importing mcpmock stays cheap.
 * @module
 */
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import { McpMockError, showTyped, showValue } from "../values/errors.js";
import { propertyPath } from "../values/json-value.js";

/** One broken rule, ready to print. */
export interface SchemaViolation {
  /** The field, as a path from the arguments: `args.city`. */
  readonly path: string;
  /** The JSON Schema keyword: `type`, `required`, `enum`, ... */
  readonly rule: string;
  /** What the rule asks, in words: `must be string`. */
  readonly expectation: string;
  readonly received: unknown;
  readonly missing: boolean;
}

/** A compiled argument check. */
export type ArgumentCheck = (args: unknown) => readonly SchemaViolation[];

interface AjvInstance {
  compile(schema: object): ValidateFunction;
}

const require = createRequire(import.meta.url);
let ajv2020: AjvInstance | undefined;
let ajv07: AjvInstance | undefined;

function makeAjv(module: string): AjvInstance {
  const Ajv = (require(module) as { default: new (o: object) => AjvInstance }).default;
  const instance = new Ajv({ allErrors: true, strict: false, validateFormats: true });
  (require("ajv-formats") as { default: (a: AjvInstance) => void }).default(instance);
  return instance;
}

function validatorFor(schema: Record<string, unknown>): AjvInstance {
  const dialect = typeof schema["$schema"] === "string" ? schema["$schema"] : "";
  if (/draft-0[4-7]/.test(dialect)) return (ajv07 ??= makeAjv("ajv"));
  return (ajv2020 ??= makeAjv("ajv/dist/2020"));
}

/**
 * Compiles a tool's `inputSchema`; throws an {@link McpMockError} naming the tool if the
 * schema itself is broken.
 */
export function compileArgumentCheck(schema: Record<string, unknown>, where: string): ArgumentCheck {
  let validate: ValidateFunction;
  try {
    validate = validatorFor(schema).compile(schema);
  } catch (error) {
    throw new McpMockError(
      `${where} is not a valid JSON Schema: ${(error as Error).message}. Fix the schema; MCP tools use JSON Schema 2020-12 unless "$schema" names another draft.`,
    );
  }
  return (args) => (validate(args) ? [] : violationsOf(validate.errors ?? [], args));
}

function violationsOf(errors: readonly ErrorObject[], args: unknown): SchemaViolation[] {
  const seen = new Set<string>();
  const out: SchemaViolation[] = [];
  for (const error of errors) {
    const violation = toViolation(error, args);
    const key = `${violation.path}|${violation.rule}|${violation.expectation}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(violation);
  }
  return out;
}

function toViolation(error: ErrorObject, args: unknown): SchemaViolation {
  const params = error.params as Record<string, unknown>;
  let path = pointerToPath(error.instancePath);
  let received = valueAt(args, error.instancePath);
  let missing = false;
  let expectation = error.message ?? `must satisfy "${error.keyword}"`;
  switch (error.keyword) {
    case "required":
      path += propertyPath(String(params["missingProperty"]));
      received = undefined;
      missing = true;
      expectation = "is required";
      break;
    case "additionalProperties":
      path += propertyPath(String(params["additionalProperty"]));
      received = (received as Record<string, unknown> | undefined)?.[String(params["additionalProperty"])];
      expectation = "is not allowed";
      break;
    case "enum":
      expectation = `must be one of ${(params["allowedValues"] as unknown[]).map((v) => showValue(v, 40)).join(", ")}`;
      break;
    case "const":
      expectation = `must be ${showValue(params["allowedValue"], 60)}`;
      break;
    case "type":
      expectation = `must be ${String(params["type"]).replace(/,/g, " or ")}`;
      break;
  }
  return { path, rule: error.keyword, expectation, received, missing };
}

function pointerToPath(pointer: string): string {
  let path = "args";
  if (!pointer) return path;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    path += /^\d+$/.test(key) ? `[${key}]` : propertyPath(key);
  }
  return path;
}

function valueAt(root: unknown, pointer: string): unknown {
  if (!pointer) return root;
  let value: unknown = root;
  for (const raw of pointer.slice(1).split("/")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[raw.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return value;
}

/** `args.city must be string (rule: type), received 0 (integer)`. */
export function showViolation(v: SchemaViolation): string {
  const tail = v.missing ? "but it is missing" : `received ${showTyped(v.received)}`;
  return `${v.path} ${v.expectation} (rule: ${v.rule}), ${tail}`;
}
