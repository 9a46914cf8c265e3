/**
 * JSON values: what a call can carry, a canonical (key-order free) form, and field diffs.
 * @module
 */
import { isValuePattern, matchesPattern, showExpected } from "./value-patterns.js";
import { McpMockError, jsonTypeOf, showValue } from "./errors.js";

/** The nesting limit for stubbed and received values (the seed's contract). */
export const MAX_JSON_DEPTH = 512;

/** One field where an expected value and a received value differ. */
export interface FieldDiff {
  /** Where, as a path from the root: `args.city`, `args.items[2]`. */
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
  /** Why: "differs", "missing", "unexpected", "type differs", or for a predicate what went wrong ("the predicate threw ..."). */
  readonly reason: string;
}

/**
 * Throws unless `value` is something a JSON call can carry, naming the path and the fix.
 * `undefined` passes (JSON drops it). `ANY` passes where `allowAny` is set.
 */
export function assertJsonCarriable(value: unknown, where: string, root: string, allowAny = false): void {
  // Most values are plain JSON: one walk that builds nothing. Anything else (or a walk too long
  // to be a tree) is walked again below, to say where and why.
  if (isPlainJsonValue(value)) return;
  const ancestors: object[] = [];
  // depth counts the objects and arrays on the way to a value (the same rule as depthExceeds).
  const visit = (v: unknown, path: string, depth: number): void => {
    switch (typeof v) {
      case "string":
      case "boolean":
      case "undefined":
        return;
      case "number":
        if (!Number.isFinite(v)) {
          throw new McpMockError(
            `${where}: ${path} is ${String(v)}, which JSON cannot carry (it arrives as null). Use a finite number or null.`,
          );
        }
        return;
      case "bigint":
        throw new McpMockError(`${where}: ${path} is a BigInt, which JSON cannot carry. Use a number or a string.`);
      case "symbol":
        throw new McpMockError(`${where}: ${path} is a symbol, which JSON cannot carry. Use a string.`);
      case "function":
        throw new McpMockError(
          `${where}: ${path} is a function, which no JSON call can carry. To match with code, use .withArgsMatching(args => ...).`,
        );
    }
    if (v === null) return;
    if (isValuePattern(v)) {
      if (allowAny) return;
      if (!(v instanceof RegExp)) throw new McpMockError(`${where}: ${path} is ${String(v)}, which is only a pattern. Put a JSON value here.`);
    }
    const obj = v as object;
    if (depth >= MAX_JSON_DEPTH) {
      throw new McpMockError(
        `${where}: ${path} is nested deeper than ${MAX_JSON_DEPTH} levels, which no MCP call carries. Flatten the value.`,
      );
    }
    if (ancestors.includes(obj)) {
      throw new McpMockError(`${where}: ${path} refers back to one of its parents (a cycle), which JSON cannot carry. Pass a tree.`);
    }
    if (Array.isArray(obj)) {
      ancestors.push(obj);
      for (let i = 0; i < obj.length; i++) {
        if (!(i in obj)) {
          throw new McpMockError(
            `${where}: ${path} is a sparse array (index ${i} is a hole), which JSON cannot carry. Fill the hole with null or a value.`,
          );
        }
        visit(obj[i], `${path}[${i}]`, depth + 1);
      }
      ancestors.pop();
      return;
    }
    const proto = Object.getPrototypeOf(obj) as unknown;
    if (proto !== Object.prototype && proto !== null) {
      throw new McpMockError(`${where}: ${path} is ${describeInstance(obj)}, which JSON cannot carry. ${fixFor(obj)}`);
    }
    ancestors.push(obj);
    for (const [key, child] of Object.entries(obj)) visit(child, `${path}${propertyPath(key)}`, depth + 1);
    ancestors.pop();
  };
  visit(value, root, 0);
}

/** Values the quick check walks at most (a cycle, or a shared subtree many times over, stops it). */
const QUICK_NODES = 100_000;

/**
 * Whether a value is plain JSON a call can carry (no pattern, no instance, nothing JSON drops or
 * mangles), in one walk that builds nothing: what an answer function returns is checked on
 * every call. `false` for anything else, and for a tree of more than QUICK_NODES values
 * (`assertJsonCarriable` then says where and why).
 */
export function isPlainJsonValue(value: unknown): boolean {
  nodesLeft = QUICK_NODES;
  return isPlainJson(value, 0);
}

/** The values the walk of `isPlainJsonValue` has left (it is synchronous: one counter serves every walk). */
let nodesLeft = 0;

function isPlainJson(v: unknown, depth: number): boolean {
  if (--nodesLeft < 0) return false;
  switch (typeof v) {
    case "string":
    case "boolean":
    case "undefined":
      return true;
    case "number":
      return Number.isFinite(v);
    case "object":
      break;
    default:
      return false;
  }
  if (v === null) return true;
  if (depth >= MAX_JSON_DEPTH) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!(i in v) || !isPlainJson(v[i], depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if ((proto !== Object.prototype && proto !== null) || Object.isFrozen(v)) return false;
  for (const key in v) if (!isPlainJson((v as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

function describeInstance(obj: object): string {
  const name = (obj as { constructor?: { name?: string } }).constructor?.name;
  return name ? `a ${name}` : "an object with a custom prototype";
}

function fixFor(obj: object): string {
  if (obj instanceof Date) return "Use an ISO string instead: date.toISOString().";
  if (obj instanceof Map) return "Use a plain object instead: Object.fromEntries(map).";
  if (obj instanceof Set) return "Use an array instead: [...set].";
  if (obj instanceof RegExp) return "A RegExp only matches (in withArgs, withArgsMatching, withParams and withHeader); here, put a string.";
  if (ArrayBuffer.isView(obj)) return "Encode the bytes as base64 text instead.";
  return "Pass a plain object ({ ... }) with JSON values.";
}

/** `.city`, `[3]` or `["odd key"]`: how a key continues a path. */
export function propertyPath(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/**
 * JSON with object keys sorted at every level, so `{a:1,b:2}` and `{b:2,a:1}` give the same
 * text. `undefined` properties are dropped and `undefined` array items become `null`, as in JSON.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i ? "," : "") + canonicalJson(value[i]);
    return out + "]";
  }
  const keys = Object.keys(value).sort();
  let out = "{";
  let first = true;
  for (const key of keys) {
    const child = (value as Record<string, unknown>)[key];
    if (child === undefined) continue;
    out += (first ? "" : ",") + JSON.stringify(key) + ":" + canonicalJson(child);
    first = false;
  }
  return out + "}";
}

/** A JSON object: not null, not an array. */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Whether a JSON value nests more than `limit` objects and arrays (iterative: safe on hostile input). */
export function depthExceeds(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== "object") return false;
  // Iterative (hostile input can nest far deeper than the stack), with two flat stacks.
  const values: object[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const v = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth >= limit) return true;
    if (Array.isArray(v)) {
      for (const child of v) if (child !== null && typeof child === "object") (values.push(child), depths.push(depth + 1));
    } else {
      for (const key in v) {
        const child = (v as Record<string, unknown>)[key];
        if (child !== null && typeof child === "object") (values.push(child), depths.push(depth + 1));
      }
    }
  }
  return false;
}

/**
 * The path (`responses[0].result[0][0]`, its first `shown` steps, then `…`) to the first
 * object or array nested more than `limit` deep, or `undefined`; iterative, like depthExceeds.
 */
export function pathBeyondDepth(value: unknown, limit: number, shown = 6): string | undefined {
  if (!depthExceeds(value, limit)) return undefined;
  const stack: Array<{ v: unknown; depth: number; path: string[] }> = [{ v: value, depth: 0, path: [] }];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop() as { v: unknown; depth: number; path: string[] };
    if (v === null || typeof v !== "object") continue;
    if (depth >= limit) return `${path.slice(0, shown).join("").replace(/^\./, "")}${path.length > shown ? "…" : ""}`;
    // Only the first steps (and one more, to say there are more) are kept: a path 100,000 steps long is never built.
    const step = (part: string): string[] => (path.length > shown ? path : [...path, part]);
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, path: step(`[${i}]`) });
    else for (const key of Object.keys(v).reverse()) stack.push({ v: (v as Record<string, unknown>)[key], depth: depth + 1, path: step(propertyPath(key)) });
  }
  return undefined;
}

/**
 * The fields where `actual` differs from `expected`. With `partial`, keys that `expected`
 * does not name are ignored (objects only; arrays still compare item by item). `ANY` inside
 * `expected` matches anything, including a missing value.
 */
export function diffJson(expected: unknown, actual: unknown, path: string, partial: boolean): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  const walk = (e: unknown, a: unknown, p: string): void => {
    if (isValuePattern(e)) {
      if (!matchesPattern(e, a)) diffs.push({ path: p, expected: e, actual: a, reason: a === undefined ? "missing" : "differs" });
      return;
    }
    if (e === undefined) return;
    if (a === undefined) {
      diffs.push({ path: p, expected: e, actual: a, reason: "missing" });
      return;
    }
    if (e === null || typeof e !== "object" || a === null || typeof a !== "object") {
      if (e !== a) diffs.push({ path: p, expected: e, actual: a, reason: sameKind(e, a) ? "differs" : "type differs" });
      return;
    }
    if (Array.isArray(e) !== Array.isArray(a)) {
      diffs.push({ path: p, expected: e, actual: a, reason: "type differs" });
      return;
    }
    if (Array.isArray(e) && Array.isArray(a)) {
      const n = Math.max(e.length, a.length);
      for (let i = 0; i < n; i++) {
        if (i >= e.length) diffs.push({ path: `${p}[${i}]`, expected: undefined, actual: a[i], reason: "unexpected" });
        else walk(e[i], a[i], `${p}[${i}]`);
      }
      return;
    }
    const eo = e as Record<string, unknown>;
    const ao = a as Record<string, unknown>;
    // Own fields only: a received "constructor" or "toString" is a field like any other, and an
    // inherited member (Object.prototype's) is no field of either side.
    for (const key of Object.keys(eo)) walk(eo[key], Object.hasOwn(ao, key) ? ao[key] : undefined, p + propertyPath(key));
    if (!partial) {
      for (const key of Object.keys(ao)) {
        if ((!Object.hasOwn(eo, key) || eo[key] === undefined) && ao[key] !== undefined) {
          diffs.push({ path: p + propertyPath(key), expected: undefined, actual: ao[key], reason: "unexpected" });
        }
      }
    }
  };
  walk(expected, actual, path);
  return diffs;
}

function sameKind(a: unknown, b: unknown): boolean {
  return jsonTypeOf(a) === jsonTypeOf(b);
}



/** One line per diff: `args.city: expected "Seoul", received "Jeju"`. */
export function showDiff(diff: FieldDiff): string {
  switch (diff.reason) {
    case "missing":
      return `${diff.path}: expected ${showExpected(diff.expected, 80)}, but it is missing`;
    case "unexpected":
      return `${diff.path}: not expected, received ${showValue(diff.actual, 80)}`;
    case "differs":
    case "type differs":
      return `${diff.path}: expected ${showExpected(diff.expected, 80)}, received ${showValue(diff.actual, 80)}`;
    default:
      // A predicate's refusal with a note (it threw, or did not return a boolean).
      return `${diff.path}: not ${String(diff.expected)}: ${diff.reason}`;
  }
}
