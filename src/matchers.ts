/**
 * Matchers: small, pure objects that say whether a call matches, how far off it is, and
 * what they look for, in words and as the DSL call that builds them.
 * @module
 */
import { isAny, type AnyValue } from "./any.js";
import type { McpCall } from "./call.js";
import { showValue } from "./errors.js";
import { canonicalJson, containsAny, diffJson, type FieldDiff } from "./json-value.js";
import { valueRows, type TableRow } from "./table.js";

/** The result of one matcher against one call: 0 is a match, 1 nothing alike. */
export interface Match {
  readonly distance: number;
  /** The fields that differ, for reports. */
  readonly diffs?: readonly FieldDiff[];
}

/** What a matcher looks at. */
export type MatcherKind = "args" | "params" | "session" | "header" | "protocolVersion" | "body" | "scenario";

/** One condition of a stub. Pure; never throws (a throwing predicate counts as no match). */
export interface Matcher {
  readonly kind: MatcherKind;
  /** The phrase for stub sentences: `with arguments equal to {"a":1}`. */
  describe(): string;
  /** The DSL call that builds this matcher: `.withArgs({"a":1})`. */
  readonly dsl: string;
  match(call: McpCall): Match;
  /** The rows this matcher adds to a near-miss table for a call. */
  rows(call: McpCall): readonly TableRow[];
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
    rows: (call) => valueRows(expected, call.args, "args", false, diffJson(expected, call.args, "args", false), "arguments"),
  };
}

/** Any arguments at all (the seed's ANY). */
export function argsAny(): Matcher {
  return {
    kind: "args",
    specific: false,
    dsl: ".withArgs(ANY)",
    describe: () => "with any arguments",
    match: () => MATCH,
    rows: (call) => [{ expected: "args: ANY", actual: `args: ${showValue(call.args, 60)}` }],
  };
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
    rows: (call) => valueRows(partial, call.args, "args", true, diffJson(partial, call.args, "args", true), "arguments"),
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
    rows: (call) => [predicateRow(`args accepted by ${source}`, `args: ${showValue(call.args, 60)}`, safely(() => predicate(call.args)), "arguments")],
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
    rows: (call) => valueRows(expected, call.params, "params", false, diffJson(expected, call.params ?? {}, "params", false), "params"),
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
    rows: (call) => valueRows(partial, call.params, "params", true, diffJson(partial, call.params ?? {}, "params", true), "params"),
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
    rows: (call) => [
      predicateRow(`params accepted by ${source}`, `params: ${showValue(call.params ?? {}, 60)}`, safely(() => predicate(call.params ?? {})), "params"),
    ],
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
      rows: (call) => [sessionRow("session: any", call, call.sessionId !== undefined)],
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
    rows: (call) => [sessionRow(`session: ${JSON.stringify(id)}`, call, call.sessionId === id)],
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
    rows: (call) => {
      const actual = call.headers[lower];
      const ok = actual !== undefined && (typeof value === "string" ? actual === value : testRegExp(value, actual));
      const row = { expected: `${lower}: ${shown}`, actual: `${lower}: ${actual === undefined ? "(missing)" : JSON.stringify(actual)}` };
      return [ok ? row : { ...row, mismatch: "header" }];
    },
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
    rows: (call) => {
      const row = { expected: `protocol version: ${version}`, actual: `protocol version: ${call.protocolVersion}` };
      return [call.protocolVersion === version ? row : { ...row, mismatch: "protocol version" }];
    },
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
    rows: (call) => [predicateRow(`body containing ${JSON.stringify(text)}`, `body: ${showValue(call.body, 60)}`, call.body.includes(text), "body")],
    match: (call) =>
      call.body.includes(text)
        ? MATCH
        : { distance: 1, diffs: [{ path: "body", expected: `…${text}…`, actual: call.body, reason: "differs" }] },
  };
}

/** The scenario is in a state (read from the mock when a call arrives). */
export function scenarioStateIs(scenario: string, state: string, read: (scenario: string) => string): Matcher {
  return {
    kind: "scenario",
    specific: false,
    dsl: `.whenState(${JSON.stringify(state)})`,
    describe: () => `in scenario ${JSON.stringify(scenario)} state ${JSON.stringify(state)}`,
    rows: () => [predicateRow(`scenario ${JSON.stringify(scenario)}: ${JSON.stringify(state)}`, `scenario state: ${JSON.stringify(read(scenario))}`, read(scenario) === state, "scenario state")],
    match: () =>
      read(scenario) === state
        ? MATCH
        : { distance: 1, diffs: [{ path: `scenario ${JSON.stringify(scenario)}`, expected: state, actual: read(scenario), reason: "differs" }] },
  };
}

function predicateRow(expected: string, actual: string, ok: boolean, what: string): TableRow {
  return ok ? { expected, actual } : { expected, actual, mismatch: what };
}

function sessionRow(expected: string, call: McpCall, ok: boolean): TableRow {
  return predicateRow(expected, `session: ${call.sessionId === undefined ? "(none)" : JSON.stringify(call.sessionId)}`, ok, "session");
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
