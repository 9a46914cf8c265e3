/**
 * Matchers: small, pure objects that say whether a call matches, how far off it is, and
 * what they look for, in words and as the DSL call that builds them.
 * @module
 */
import { isAny, type AnyValue } from "./any.js";
import type { McpCall } from "./call.js";
import { showValue } from "./errors.js";
import { canonicalJson, containsAny, diffJson, type FieldDiff } from "./json-value.js";

/** The result of one matcher against one call: 0 is a match, 1 nothing alike. */
export interface Match {
  readonly distance: number;
  /** The fields that differ, for reports. */
  readonly diffs?: readonly FieldDiff[];
}

/** What a matcher looks at. */
export type MatcherKind = "args" | "params" | "session" | "header" | "protocolVersion" | "body" | "predicate";

/** One condition of a stub. Pure; never throws (a throwing predicate counts as no match). */
export interface Matcher {
  readonly kind: MatcherKind;
  /** The phrase for stub sentences: `with arguments equal to {"a":1}`. */
  describe(): string;
  /** The DSL call that builds this matcher: `.withArgs({"a":1})`. */
  readonly dsl: string;
  match(call: McpCall): Match;
  /** Set on argument matchers that pin the arguments down (the seed's rule 1 tier). */
  readonly specific: boolean;
  /** For exact argument matchers: the canonical JSON the registry indexes by. */
  readonly argsKey?: string;
}

const MATCH: Match = { distance: 0 };
const MISS: Match = { distance: 1 };

/** A miss graded by the share of differing fields among all fields either side names. */
function graded(diffs: FieldDiff[], expectedSize: number, actual: unknown): Match {
  if (diffs.length === 0) return MATCH;
  const size = Math.max(expectedSize, leafCount(actual));
  return { distance: Math.min(1, 0.2 + (0.8 * diffs.length) / Math.max(1, size)), diffs };
}

function leafCount(value: unknown): number {
  if (value === null || typeof value !== "object") return 1;
  let n = 0;
  for (const child of Array.isArray(value) ? value : Object.values(value)) n += leafCount(child);
  return Math.max(1, n);
}

/** Tool or prompt arguments equal to a value (key order free; `ANY` inside matches any field value). */
export function argsEqual(expected: Record<string, unknown>): Matcher {
  const wildcard = containsAny(expected);
  const key = wildcard ? undefined : canonicalJson(expected);
  const shown = showValue(expected, 300).replace(/\{"kind":"ANY"\}/g, "ANY");
  const size = leafCount(expected);
  return {
    kind: "args",
    specific: true,
    ...(key === undefined ? {} : { argsKey: key }),
    dsl: `.withArgs(${shown})`,
    describe: () => `with arguments equal to ${shown}`,
    match: (call) =>
      key !== undefined && call.argsKey === key ? MATCH : graded(diffJson(expected, call.args, "args", false), size, call.args),
  };
}

/** Any arguments at all (the seed's ANY). */
export function argsAny(): Matcher {
  return { kind: "args", specific: false, dsl: ".withArgs(ANY)", describe: () => "with any arguments", match: () => MATCH };
}

/** Tool or prompt arguments that contain these fields (deeply; other fields are ignored). */
export function argsContaining(partial: Record<string, unknown>): Matcher {
  const shown = showValue(partial, 300).replace(/\{"kind":"ANY"\}/g, "ANY");
  const size = leafCount(partial);
  return {
    kind: "args",
    specific: true,
    dsl: `.withArgsMatching(${shown})`,
    describe: () => `with arguments containing ${shown}`,
    match: (call) => graded(diffJson(partial, call.args, "args", true), size, partial),
  };
}

/** Arguments accepted by a predicate. */
export function argsWhere(predicate: (args: Record<string, unknown>) => boolean): Matcher {
  const source = predicateSource(predicate);
  return {
    kind: "args",
    specific: true,
    dsl: `.withArgsMatching(${source})`,
    describe: () => `with arguments accepted by ${source}`,
    match: (call) => (safely(() => predicate(call.args)) ? MATCH : MISS),
  };
}

/** Params of any method equal to a value (key order free). */
export function paramsEqual(expected: Record<string, unknown>): Matcher {
  const key = containsAny(expected) ? undefined : canonicalJson(expected);
  const shown = showValue(expected, 300).replace(/\{"kind":"ANY"\}/g, "ANY");
  const size = leafCount(expected);
  return {
    kind: "params",
    specific: true,
    dsl: `.withParams(${shown})`,
    describe: () => `with params equal to ${shown}`,
    match: (call) =>
      key !== undefined && canonicalJson(call.params ?? {}) === key
        ? MATCH
        : graded(diffJson(expected, call.params ?? {}, "params", false), size, call.params),
  };
}

/** Params containing these fields. */
export function paramsContaining(partial: Record<string, unknown>): Matcher {
  const shown = showValue(partial, 300).replace(/\{"kind":"ANY"\}/g, "ANY");
  const size = leafCount(partial);
  return {
    kind: "params",
    specific: true,
    dsl: `.withParamsMatching(${shown})`,
    describe: () => `with params containing ${shown}`,
    match: (call) => graded(diffJson(partial, call.params ?? {}, "params", true), size, partial),
  };
}

/** Params accepted by a predicate. */
export function paramsWhere(predicate: (params: Record<string, unknown>) => boolean): Matcher {
  const source = predicateSource(predicate);
  return {
    kind: "params",
    specific: true,
    dsl: `.withParams(${source})`,
    describe: () => `with params accepted by ${source}`,
    match: (call) => (safely(() => predicate(call.params ?? {})) ? MATCH : MISS),
  };
}

/** A session id, or `ANY` for "some session" (the request must carry one). */
export function sessionIs(id: string | AnyValue): Matcher {
  if (isAny(id)) {
    return {
      kind: "session",
      specific: false,
      dsl: ".withSessionId(ANY)",
      describe: () => "in any session",
      match: (call) =>
        call.sessionId !== undefined
          ? MATCH
          : { distance: 1, diffs: [{ path: "session", expected: "any session", actual: undefined, reason: "missing" }] },
    };
  }
  return {
    kind: "session",
    specific: false,
    dsl: `.withSessionId(${JSON.stringify(id)})`,
    describe: () => `in session ${JSON.stringify(id)}`,
    match: (call) =>
      call.sessionId === id
        ? MATCH
        : {
            distance: 1,
            diffs: [{ path: "session", expected: id, actual: call.sessionId, reason: call.sessionId === undefined ? "missing" : "differs" }],
          },
  };
}

/** A request header equal to a string or matching a RegExp (name case-insensitive). */
export function headerIs(name: string, value: string | RegExp): Matcher {
  const lower = name.toLowerCase();
  const shown = typeof value === "string" ? JSON.stringify(value) : String(value);
  return {
    kind: "header",
    specific: false,
    dsl: `.withHeader(${JSON.stringify(name)}, ${shown})`,
    describe: () => `with header ${lower} ${typeof value === "string" ? "equal to" : "matching"} ${shown}`,
    match: (call) => {
      const actual = call.headers[lower];
      const ok = actual !== undefined && (typeof value === "string" ? actual === value : testRegExp(value, actual));
      return ok
        ? MATCH
        : {
            distance: 1,
            diffs: [{ path: `headers.${lower}`, expected: value, actual, reason: actual === undefined ? "missing" : "differs" }],
          };
    },
  };
}

/** The protocol version in effect for the request. */
export function protocolVersionIs(version: string): Matcher {
  return {
    kind: "protocolVersion",
    specific: false,
    dsl: `.withProtocolVersion(${JSON.stringify(version)})`,
    describe: () => `at protocol version ${version}`,
    match: (call) =>
      call.protocolVersion === version
        ? MATCH
        : { distance: 1, diffs: [{ path: "protocolVersion", expected: version, actual: call.protocolVersion, reason: "differs" }] },
  };
}

/** The raw message text contains a substring (the seed's `paramContains`). */
export function bodyContains(text: string): Matcher {
  return {
    kind: "body",
    specific: false,
    dsl: `.withBodyContaining(${JSON.stringify(text)})`,
    describe: () => `with a body containing ${JSON.stringify(text)}`,
    match: (call) =>
      call.body.includes(text)
        ? MATCH
        : { distance: 1, diffs: [{ path: "body", expected: `…${text}…`, actual: call.body, reason: "differs" }] },
  };
}

function testRegExp(re: RegExp, value: string): boolean {
  re.lastIndex = 0;
  return re.test(value);
}

function safely(check: () => boolean): boolean {
  try {
    return check() === true;
  } catch {
    return false;
  }
}

function predicateSource(fn: (...args: never[]) => unknown): string {
  const source = Function.prototype.toString.call(fn).replace(/\s+/g, " ");
  return source.length > 80 ? `${source.slice(0, 79)}…` : source;
}
