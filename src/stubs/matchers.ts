/**
 * Matchers: small, pure objects that say whether a call matches, how far off it is, and
 * what they look for, in words and as the DSL call that builds them.
 * @module
 */
import { isAny, type AnyValue } from "../values/any.js";
import type { McpCall } from "./call.js";
import { showValue } from "../values/errors.js";
import { canonicalJson, diffJson, type FieldDiff } from "../values/json-value.js";
import { holdsPattern, matchesPattern, showExpected, type ValuePattern } from "../values/value-patterns.js";
import { valueRows, type TableRow } from "../values/table.js";
import { exactFieldsOf, type ArgsFields } from "./args-fields.js";
import { judge, predicateMatch, predicateRows, predicateSource, REFUSED, type Verdict } from "./predicates.js";

/** The result of one matcher against one call: 0 is a match, 1 nothing alike. */
export interface Match {
  readonly distance: number;
  /** The fields that differ, for reports. */
  readonly diffs?: readonly FieldDiff[];
}

/** What a matcher looks at. */
export type MatcherKind = "args" | "params" | "uri" | "ref" | "argument" | "session" | "header" | "protocolVersion" | "body" | "scenario" | "clientExtension";

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
  /** Values this matcher captures from a matching call (URI-template variables), for answers. */
  captures?(call: McpCall): Record<string, unknown>;
  /** Set on argument matchers that pin the arguments down (the seed's rule 1 tier). */
  readonly specific: boolean;
  /** For exact argument matchers: the canonical JSON the registry indexes by. */
  readonly argsKey?: string;
  /**
   * For argument patterns (a wildcard inside, or containing): top-level fields the arguments
   * must hold exactly, by name, and their values' canonical JSON ({@link fieldsKey}), so the
   * registry tries only the stubs whose exact parts a call has.
   */
  readonly argsFields?: ArgsFields;
  /** Set on the scenario matcher (`whenState`): the scenario it reads, for listings such as the inspector's. */
  readonly scenario?: string;
}

/** Whether every matcher matches the call exactly (a stub's or a verification pattern's). */
export function matchesAll(matchers: readonly Matcher[], call: McpCall): boolean {
  for (const m of matchers) if (m.match(call).distance !== 0) return false;
  return true;
}

const MATCH: Match = { distance: 0 };

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

/** What a JSON-value matcher compares: the arguments of a tool or prompt, or any method's params. */
interface JsonMatcherSpec {
  readonly kind: "args" | "params";
  readonly noun: "arguments" | "params";
  /** The DSL method: `.withArgs`, `.withArgsMatching`, `.withParams`, `.withParamsMatching`. */
  readonly dsl: string;
  readonly expected: Record<string, unknown>;
  /** Only the fields `expected` names count. */
  readonly partial: boolean;
  readonly of: (call: McpCall) => Record<string, unknown> | undefined;
  /** The call's value in canonical JSON, for the exact fast path. */
  readonly keyOf: (call: McpCall) => string;
  /** Expose the canonical key for the registry's index. */
  readonly indexed: boolean;
}

/** Equal to (or, partial, containing) a JSON value; `ANY` inside matches any value of a field. */
function jsonMatcher(spec: JsonMatcherSpec): Matcher {
  const { expected, partial } = spec;
  const key = partial || holdsPattern(expected) ? undefined : canonicalJson(expected);
  const shown = showExpected(expected, 300);
  const size = leafCount(expected);
  const diffs = (call: McpCall): FieldDiff[] => diffJson(expected, spec.of(call) ?? {}, spec.kind, partial);
  const fields = key === undefined && spec.kind === "args" ? exactFieldsOf(expected, partial) : undefined;
  return {
    kind: spec.kind,
    specific: true,
    ...(key !== undefined && spec.indexed ? { argsKey: key } : {}),
    ...(fields ? { argsFields: fields } : {}),
    dsl: `${spec.dsl}(${shown})`,
    describe: () => `with ${spec.noun} ${partial ? "containing" : "equal to"} ${shown}`,
    match: (call) => (key !== undefined && spec.keyOf(call) === key ? MATCH : graded(diffs(call), size, partial ? expected : spec.of(call))),
    rows: (call) => valueRows(expected, spec.of(call), spec.kind, partial, diffs(call), spec.noun),
  };
}

const ofArgs = (call: McpCall): Record<string, unknown> => call.args;
const argsKeyOf = (call: McpCall): string => call.argsKey;
const ofParams = (call: McpCall): Record<string, unknown> | undefined => call.params;
const paramsKeyOf = (call: McpCall): string => canonicalJson(call.params ?? {});

/** Tool or prompt arguments equal to a value (key order free; `ANY` inside matches any field value). */
export function argsEqual(expected: Record<string, unknown>): Matcher {
  return jsonMatcher({ kind: "args", noun: "arguments", dsl: ".withArgs", expected, partial: false, of: ofArgs, keyOf: argsKeyOf, indexed: true });
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
  return jsonMatcher({ kind: "args", noun: "arguments", dsl: ".withArgsMatching", expected: partial, partial: true, of: ofArgs, keyOf: argsKeyOf, indexed: false });
}

/** Arguments accepted by a predicate. */
export function argsWhere(predicate: (args: Record<string, unknown>) => boolean): Matcher {
  const source = predicateSource(predicate);
  return {
    kind: "args",
    specific: true,
    dsl: `.withArgsMatching(${source})`,
    describe: () => `with arguments accepted by ${source}`,
    match: (call) => predicateMatch(judge(() => predicate(call.args)), "args", source),
    rows: (call) => predicateRows(`args accepted by ${source}`, `args: ${showValue(call.args, 60)}`, judge(() => predicate(call.args)), "arguments"),
  };
}

/** The params without `_meta` (protocol metadata: a progress token, the 2026-07-28 envelope). */
const ofParamsWithoutMeta = (call: McpCall): Record<string, unknown> | undefined => {
  const params = call.params;
  if (params === undefined || !("_meta" in params)) return params;
  const { _meta: _ignored, ...rest } = params;
  return rest;
};

/**
 * Params of any method equal to a value (key order free). `_meta` is compared only when the
 * expected value names it, so one stub matches a 2025 request and a 2026-07-28 one (which
 * carries its envelope in `_meta`) alike.
 */
export function paramsEqual(expected: Record<string, unknown>): Matcher {
  const of = "_meta" in expected ? ofParams : ofParamsWithoutMeta;
  return jsonMatcher({ kind: "params", noun: "params", dsl: ".withParams", expected, partial: false, of, keyOf: (call) => canonicalJson(of(call) ?? {}), indexed: false });
}

/** Params containing these fields. */
export function paramsContaining(partial: Record<string, unknown>): Matcher {
  return jsonMatcher({ kind: "params", noun: "params", dsl: ".withParamsMatching", expected: partial, partial: true, of: ofParams, keyOf: paramsKeyOf, indexed: false });
}

/** Params accepted by a predicate. */
export function paramsWhere(predicate: (params: Record<string, unknown>) => boolean): Matcher {
  const source = predicateSource(predicate);
  return {
    kind: "params",
    specific: true,
    dsl: `.withParams(${source})`,
    describe: () => `with params accepted by ${source}`,
    match: (call) => predicateMatch(judge(() => predicate(call.params ?? {})), "params", source),
    rows: (call) => predicateRows(`params accepted by ${source}`, `params: ${showValue(call.params ?? {}, 60)}`, judge(() => predicate(call.params ?? {})), "params"),
  };
}

/** A resource URI matching an RFC 6570 template (the SDK's matcher, as SDK servers match). */
export function uriMatchesTemplate(template: string, compiled: { match(uri: string): Record<string, unknown> | null }): Matcher {
  const ok = (call: McpCall): boolean => call.uri !== undefined && compiled.match(call.uri) !== null;
  return {
    kind: "uri",
    captures: (call) => (call.uri === undefined ? {} : (compiled.match(call.uri) ?? {})),
    specific: true,
    dsl: "",
    describe: () => `matching the template ${JSON.stringify(template)}`,
    rows: (call) => [predicateRow(`uri: ${template}`, `uri: ${call.uri ?? "(none)"}`, ok(call), "URI")],
    match: (call) => (ok(call) ? MATCH : { distance: 1, diffs: [{ path: "uri", expected: template, actual: call.uri, reason: "differs" }] }),
  };
}

/** A resource URI accepted by a predicate. */
export function uriWhere(predicate: (uri: string) => boolean): Matcher {
  const source = predicateSource(predicate);
  const verdict = (call: McpCall): Verdict => (call.uri === undefined ? REFUSED : judge(() => predicate(call.uri as string)));
  return {
    kind: "uri",
    specific: true,
    dsl: "",
    describe: () => `with a URI accepted by ${source}`,
    rows: (call) => predicateRows(`uri accepted by ${source}`, `uri: ${call.uri ?? "(none)"}`, verdict(call), "URI"),
    match: (call) => predicateMatch(verdict(call), "uri", source),
  };
}

/** A completion request for a prompt (by name) or a resource template (by URI). */
export function completionRef(ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string }): Matcher {
  const shown = ref.type === "ref/prompt" ? `prompt ${JSON.stringify(ref.name)}` : `resource ${JSON.stringify(ref.uri)}`;
  const dsl = ref.type === "ref/prompt" ? `.forPrompt(${JSON.stringify(ref.name)})` : `.forResource(${JSON.stringify(ref.uri)})`;
  const actual = (call: McpCall): Record<string, unknown> | undefined => call.params?.["ref"] as Record<string, unknown> | undefined;
  const ok = (call: McpCall): boolean => {
    const r = actual(call);
    return r?.["type"] === ref.type && (ref.type === "ref/prompt" ? r["name"] === ref.name : r["uri"] === ref.uri);
  };
  return {
    kind: "ref",
    specific: true,
    dsl,
    describe: () => `for ${shown}`,
    rows: (call) => [predicateRow(`ref: ${shown}`, `ref: ${showValue(actual(call), 60)}`, ok(call), "ref")],
    match: (call) => (ok(call) ? MATCH : { distance: 1, diffs: [{ path: "params.ref", expected: ref, actual: actual(call), reason: "differs" }] }),
  };
}

/** A completion request for an argument, optionally with a typed value starting with a prefix. */
export function completionArgument(name: string, prefix?: string): Matcher {
  const arg = (call: McpCall): { name?: unknown; value?: unknown } | undefined => call.params?.["argument"] as { name?: unknown; value?: unknown } | undefined;
  const ok = (call: McpCall): boolean => {
    const a = arg(call);
    return a?.name === name && (prefix === undefined || (typeof a.value === "string" && a.value.startsWith(prefix)));
  };
  const phrase = prefix === undefined ? `argument ${JSON.stringify(name)}` : `argument ${JSON.stringify(name)} starting with ${JSON.stringify(prefix)}`;
  return {
    kind: "argument",
    specific: true,
    dsl: prefix === undefined ? `.withArgument(${JSON.stringify(name)})` : `.withArgument(${JSON.stringify(name)}, ${JSON.stringify(prefix)})`,
    describe: () => `for ${phrase}`,
    rows: (call) => [predicateRow(phrase, `argument: ${showValue(arg(call), 60)}`, ok(call), "argument")],
    match: (call) => (ok(call) ? MATCH : { distance: 1, diffs: [{ path: "params.argument", expected: phrase, actual: arg(call), reason: "differs" }] }),
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

/** How a header pattern reads in a stub sentence. */
const HEADER_PHRASES: Readonly<Record<"ANY" | "ABSENT" | "contains" | "regex", (shown: string) => string>> = {
  ANY: () => "present",
  ABSENT: () => "absent",
  contains: (shown) => `containing ${shown.slice("contains(".length, -1)}`,
  regex: (shown) => `matching ${shown}`,
};

function patternKind(value: ValuePattern): keyof typeof HEADER_PHRASES {
  return value instanceof RegExp ? "regex" : value.kind;
}

/**
 * A request header (name case-insensitive) equal to a string, or matching a value pattern: a
 * RegExp, `contains(text)`, `ANY` (present) or `ABSENT` (not sent).
 */
export function headerIs(name: string, value: string | ValuePattern): Matcher {
  const lower = name.toLowerCase();
  const shown = typeof value === "string" ? JSON.stringify(value) : String(value);
  // For a header, ANY means present with any value (a header is never "any or none").
  const test = (actual: string | undefined): boolean =>
    typeof value === "string" ? actual === value : isAny(value) ? actual !== undefined : matchesPattern(value, actual);
  const phrase = typeof value === "string" ? `equal to ${shown}` : HEADER_PHRASES[patternKind(value)](shown);
  return {
    kind: "header",
    specific: false,
    dsl: `.withHeader(${JSON.stringify(name)}, ${shown})`,
    describe: () => `with header ${lower} ${phrase}`,
    rows: (call) => {
      const actual = call.headers[lower];
      const ok = test(actual);
      const row = { expected: `${lower}: ${shown}`, actual: `${lower}: ${actual === undefined ? "(missing)" : JSON.stringify(actual)}` };
      return [ok ? row : { ...row, mismatch: "header" }];
    },
    match: (call) => {
      const actual = call.headers[lower];
      const ok = test(actual);
      return ok
        ? MATCH
        : {
            distance: 1,
            diffs: [{ path: `headers.${lower}`, expected: value, actual, reason: actual === undefined ? "missing" : "differs" }],
          };
    },
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
    scenario,
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
