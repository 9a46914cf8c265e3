import { describe, expect, test } from "vitest";
import { ANY } from "../src/values/any.js";
import { McpCall, type McpCallInit } from "../src/stubs/call.js";
import { showDiff } from "../src/values/json-value.js";
import {
  argsAny,
  argsContaining,
  argsEqual,
  argsWhere,
  bodyContains,
  headerIs,
  paramsContaining,
  paramsEqual,
  paramsWhere,
  sessionIs,
  type Match,
  type Matcher,
} from "../src/stubs/matchers.js";
import { protocolVersionIn, protocolVersionIs } from "../src/stubs/version-matchers.js";

/** Marks a tools/call without `arguments`. */
const NO_ARGS = Symbol("no arguments");

/** A tools/call for `add` with these arguments (or other parts overridden). */
function call(args: Record<string, unknown> | typeof NO_ARGS, over: Partial<McpCallInit> = {}): McpCall {
  const params = "params" in over ? over.params : args === NO_ARGS ? { name: "add" } : { name: "add", arguments: args };
  return new McpCall({
    method: "tools/call",
    params,
    id: 1,
    sessionId: undefined,
    headers: {},
    protocolVersion: "2025-06-18",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params }),
    transport: "http",
    ...over,
  });
}

/** A call of another method with these params. */
function request(params: Record<string, unknown> | undefined, over: Partial<McpCallInit> = {}): McpCall {
  return call(NO_ARGS, { method: "custom/thing", params, ...over });
}

function expectMatch(m: Matcher, c: McpCall): void {
  const r = m.match(c);
  expect(r.distance).toBe(0);
  expect(r.diffs ?? []).toEqual([]);
}

/** Asserts a miss (0 < distance <= 1) and returns it. */
function expectMiss(m: Matcher, c: McpCall): Match & { diffs: NonNullable<Match["diffs"]> } {
  const r = m.match(c);
  expect(r.distance).toBeGreaterThan(0);
  expect(r.distance).toBeLessThanOrEqual(1);
  expect(r.diffs, "a miss names its differences").toBeDefined();
  return r as Match & { diffs: NonNullable<Match["diffs"]> };
}

/** A predicate whose source text does not depend on how the test file is transformed. */
function fn<T>(param: string, body: string): (value: T) => boolean {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function(param, body) as (value: T) => boolean;
}

describe("argsEqual", () => {
  const m = argsEqual({ city: "Seoul", days: 3 });

  test("texts", () => {
    expect(m.kind).toBe("args");
    expect(m.specific).toBe(true);
    expect(m.dsl).toBe('.withArgs({"city":"Seoul","days":3})');
    expect(m.describe()).toBe('with arguments equal to {"city":"Seoul","days":3}');
  });

  test("matches equal arguments, key order free", () => {
    expectMatch(m, call({ city: "Seoul", days: 3 }));
    expectMatch(m, call({ days: 3, city: "Seoul" }));
    const nested = argsEqual({ b: { y: [1, { q: 1, p: 2 }], x: 2 }, a: 1 });
    expectMatch(nested, call({ a: 1, b: { x: 2, y: [1, { p: 2, q: 1 }] } }));
  });

  test("argsKey is the canonical JSON, the same as the call's", () => {
    expect(m.argsKey).toBe('{"city":"Seoul","days":3}');
    expect(argsEqual({ days: 3, city: "Seoul" }).argsKey).toBe(m.argsKey);
    expect(call({ days: 3, city: "Seoul" }).argsKey).toBe(m.argsKey);
    expect(argsEqual({ b: { d: 1, c: 2 }, a: [{ z: 0, y: 1 }] }).argsKey).toBe('{"a":[{"y":1,"z":0}],"b":{"c":2,"d":1}}');
    expect(argsEqual({}).argsKey).toBe("{}");
  });

  test("a miss is graded and names the path", () => {
    const one = expectMiss(m, call({ city: "Jeju", days: 3 }));
    expect(one.distance).toBeCloseTo(0.6); // 0.2 + 0.8 × 1 diff / 2 leaves
    expect(one.diffs).toEqual([{ path: "args.city", expected: "Seoul", actual: "Jeju", reason: "differs" }]);

    const two = expectMiss(m, call({ city: "Jeju", days: "3" }));
    expect(two.distance).toBeCloseTo(1);
    expect(two.diffs.map((d) => `${d.path} ${d.reason}`)).toEqual(["args.city differs", "args.days type differs"]);
    expect(two.distance).toBeGreaterThan(one.distance);

    const extra = expectMiss(m, call({ city: "Seoul", days: 3, unit: "c" }));
    expect(extra.diffs).toEqual([{ path: "args.unit", expected: undefined, actual: "c", reason: "unexpected" }]);

    const deep = expectMiss(argsEqual({ items: [{ name: "a" }, { name: "b" }, { name: "c" }] }), call({ items: [{ name: "a" }, { name: "b" }, { name: "x" }] }));
    expect(deep.diffs.map((d) => d.path)).toEqual(["args.items[2].name"]);
    expect(deep.distance).toBeLessThan(1);
  });

  test("distance is capped at 1", () => {
    // 2 missing + 2 unexpected = 4 diffs over 2 fields: uncapped it would be 0.2 + 0.8 × 4 / 2 = 1.8.
    const r = expectMiss(argsEqual({ a: 1, b: 1 }), call({ c: 1, d: 1 }));
    expect(r.distance).toBe(1);
    expect(r.diffs).toHaveLength(4);
  });

  test("a call without arguments is compared as {}", () => {
    expectMatch(argsEqual({}), call(NO_ARGS));
    const r = expectMiss(m, call(NO_ARGS));
    expect(r.diffs.map((d) => `${d.path} ${d.reason}`)).toEqual(["args.city missing", "args.days missing"]);
    expectMiss(argsEqual({}), call({ a: 1 }));
    // `arguments` that is not an object reads as {} too.
    expectMatch(argsEqual({}), call(NO_ARGS, { params: { name: "add", arguments: [1, 2] } }));
    expectMatch(argsEqual({}), call(NO_ARGS, { params: { name: "add", arguments: null } }));
  });

  test("nested ANY: no argsKey, ANY shown as ANY, any value (or none) matches", () => {
    const wild = argsEqual({ city: ANY, opts: { unit: ANY, n: 1 } });
    expect(wild.argsKey).toBeUndefined();
    expect("argsKey" in wild).toBe(false);
    expect(wild.specific).toBe(true);
    expect(wild.dsl).toBe('.withArgs({"city":ANY,"opts":{"unit":ANY,"n":1}})');
    expect(wild.describe()).toBe('with arguments equal to {"city":ANY,"opts":{"unit":ANY,"n":1}}');
    expectMatch(wild, call({ city: "x", opts: { unit: "c", n: 1 } }));
    expectMatch(wild, call({ opts: { n: 1 } }));
    expectMatch(wild, call({ city: { deep: [1] }, opts: { unit: null, n: 1 } }));
    const r = expectMiss(wild, call({ city: "x", opts: { n: 2 }, other: true }));
    expect(r.diffs.map((d) => `${d.path} ${d.reason}`)).toEqual(["args.opts.n differs", "args.other unexpected"]);
  });

  // An `undefined` property in `expected` is dropped, as in its argsKey (JSON drops it), so
  // argsEqual({ a: 1, b: undefined }) answers like argsEqual({ a: 1 }).
  test("undefined properties in expected are dropped, as in its argsKey", () => {
    const withUndefined = argsEqual({ a: 1, b: undefined });
    expect(withUndefined.argsKey).toBe('{"a":1}');
    expectMatch(withUndefined, call({ a: 1 }));
    expectMiss(argsEqual({ a: 1 }), call({ a: 1, b: 5 }));
  });
  test("undefined property in expected does not excuse that key", () => {
    expectMiss(argsEqual({ a: 1, b: undefined }), call({ a: 1, b: 5 }));
  });
});

describe("argsAny", () => {
  test("matches every call, not specific", () => {
    const m = argsAny();
    expect(m.kind).toBe("args");
    expect(m.specific).toBe(false);
    expect(m.argsKey).toBeUndefined();
    expect(m.dsl).toBe(".withArgs(ANY)");
    expect(m.describe()).toBe("with any arguments");
    expectMatch(m, call({ a: 1 }));
    expectMatch(m, call(NO_ARGS));
  });
});

describe("argsContaining", () => {
  const m = argsContaining({ user: { name: "kim" }, tags: ["a"] });

  test("texts", () => {
    expect(m.kind).toBe("args");
    expect(m.specific).toBe(true);
    expect(m.argsKey).toBeUndefined();
    expect(m.dsl).toBe('.withArgsMatching({"user":{"name":"kim"},"tags":["a"]})');
    expect(m.describe()).toBe('with arguments containing {"user":{"name":"kim"},"tags":["a"]}');
    expect(argsContaining({ x: ANY }).dsl).toBe('.withArgsMatching({"x":ANY})');
  });

  test("matches deeply, ignoring other keys", () => {
    expectMatch(m, call({ user: { name: "kim", age: 3 }, tags: ["a"], other: 1 }));
  });

  test("misses name the path", () => {
    const r = expectMiss(m, call({ user: { name: "lee" }, tags: ["a"] }));
    expect(r.diffs).toEqual([{ path: "args.user.name", expected: "kim", actual: "lee", reason: "differs" }]);
    expect(r.distance).toBeCloseTo(0.6);
    const items = expectMiss(m, call({ user: { name: "kim" }, tags: ["a", "b"] }));
    expect(items.diffs.map((d) => `${d.path} ${d.reason}`)).toEqual(["args.tags[1] unexpected"]);
    const none = expectMiss(m, call(NO_ARGS));
    expect(none.diffs.map((d) => `${d.path} ${d.reason}`)).toEqual(["args.user missing", "args.tags missing"]);
  });
});

describe("argsWhere", () => {
  const pred = fn<Record<string, unknown>>("args", "return args.a === 1");

  test("texts show the predicate's source, whitespace collapsed", () => {
    const m = argsWhere(pred);
    expect(m.kind).toBe("args");
    expect(m.specific).toBe(true);
    expect(m.dsl).toBe(".withArgsMatching(function anonymous(args ) { return args.a === 1 })");
    expect(m.describe()).toBe("with arguments accepted by function anonymous(args ) { return args.a === 1 }");
  });

  test("long sources are cut at 80 characters", () => {
    const long = fn<Record<string, unknown>>("args", `return args.a === "${"x".repeat(100)}"`);
    const src = `function anonymous(args ) { return args.a === "${"x".repeat(100)}" }`.slice(0, 79);
    expect(argsWhere(long).dsl).toBe(`.withArgsMatching(${src}…)`);
  });

  test("a source of exactly 80 characters is kept whole; 81 is cut to 79 + …", () => {
    const source = (n: number): string => `function anonymous(args ) { return "${"x".repeat(n)}" }`;
    const of = (n: number) => fn<Record<string, unknown>>("args", `return "${"x".repeat(n)}"`);
    expect(source(41)).toHaveLength(80);
    expect(argsWhere(of(41)).describe()).toBe(`with arguments accepted by ${source(41)}`);
    expect(argsWhere(of(42)).describe()).toBe(`with arguments accepted by ${source(42).slice(0, 79)}…`);
  });

  test("matches what the predicate accepts, given the arguments", () => {
    const m = argsWhere(pred);
    expectMatch(m, call({ a: 1 }));
    expect(m.match(call({ a: 2 }))).toEqual({ distance: 1 });
    const seen: unknown[] = [];
    argsWhere((args) => (seen.push(args), true)).match(call({ q: [1] }));
    argsWhere((args) => (seen.push(args), true)).match(call(NO_ARGS));
    expect(seen).toEqual([{ q: [1] }, {}]);
  });

  // Pins the strict reading in `safely` (`check() === true`): a truthy non-boolean is not a match.
  test("only `true` accepts; truthy values do not", () => {
    const truthy = argsWhere((args) => args["n"] as boolean);
    expect(truthy.match(call({ n: 1 })).distance).toBe(1);
    expect(truthy.match(call({ n: "yes" })).distance).toBe(1);
    expectMatch(truthy, call({ n: true }));
  });

  test("a throwing predicate counts as no match, without throwing", () => {
    const m = argsWhere(() => {
      throw new Error("boom");
    });
    expect(() => m.match(call({ a: 1 }))).not.toThrow();
    expect(m.match(call({ a: 1 })).distance).toBe(1);
    const typeError = argsWhere((args) => (args["missing"] as { x: number }).x === 1);
    expect(typeError.match(call({})).distance).toBe(1);
  });
});

describe("paramsEqual", () => {
  const m = paramsEqual({ uri: "file:///a", opts: { x: 1, y: [1, 2] } });

  test("texts", () => {
    expect(m.kind).toBe("params");
    expect(m.specific).toBe(true);
    expect(m.argsKey).toBeUndefined();
    expect(m.dsl).toBe('.withParams({"uri":"file:///a","opts":{"x":1,"y":[1,2]}})');
    expect(m.describe()).toBe('with params equal to {"uri":"file:///a","opts":{"x":1,"y":[1,2]}}');
    expect(paramsEqual({ id: ANY }).dsl).toBe('.withParams({"id":ANY})');
  });

  test("matches equal params, key order free", () => {
    expectMatch(m, request({ opts: { y: [1, 2], x: 1 }, uri: "file:///a" }));
    expectMatch(paramsEqual({}), request(undefined));
    expectMatch(paramsEqual({ id: ANY, n: 1 }), request({ n: 1, id: [1] }));
  });

  test("misses name the path under params", () => {
    const r = expectMiss(m, request({ uri: "file:///b", opts: { x: 1, y: [1, 2] } }));
    expect(r.diffs).toEqual([{ path: "params.uri", expected: "file:///a", actual: "file:///b", reason: "differs" }]);
    expect(r.distance).toBeLessThan(1);
    const extra = expectMiss(m, request({ uri: "file:///a", opts: { x: 1, y: [1, 2], z: 0 } }));
    expect(extra.diffs.map((d) => `${d.path} ${d.reason}`)).toEqual(["params.opts.z unexpected"]);
    const none = expectMiss(m, request(undefined));
    expect(none.diffs.map((d) => `${d.path} ${d.reason}`)).toEqual(["params.uri missing", "params.opts missing"]);
  });
});

describe("paramsContaining", () => {
  const m = paramsContaining({ uri: "file:///a" });

  test("texts", () => {
    expect(m.kind).toBe("params");
    expect(m.specific).toBe(true);
    expect(m.describe()).toBe('with params containing {"uri":"file:///a"}');
  });

  // The dsl names the builder method that makes this matcher (it once said `.withParams`).
  test("dsl names withParamsMatching", () => {
    expect(m.dsl).toBe('.withParamsMatching({"uri":"file:///a"})');
  });

  test("matches params containing the fields", () => {
    expectMatch(m, request({ uri: "file:///a", other: 1 }));
    expectMatch(paramsContaining({}), request(undefined));
    const r = expectMiss(m, request({ other: 1 }));
    expect(r.diffs).toEqual([{ path: "params.uri", expected: "file:///a", actual: undefined, reason: "missing" }]);
    const deep = expectMiss(paramsContaining({ a: { b: [1, { c: 2 }] } }), request({ a: { b: [1, { c: 3 }], z: 1 } }));
    expect(deep.diffs.map((d) => d.path)).toEqual(["params.a.b[1].c"]);
  });
});

describe("paramsWhere", () => {
  test("texts, match, and a throwing predicate", () => {
    const m = paramsWhere(fn<Record<string, unknown>>("params", "return params.id === 7"));
    expect(m.kind).toBe("params");
    expect(m.dsl).toBe(".withParams(function anonymous(params ) { return params.id === 7 })");
    expect(m.describe()).toBe("with params accepted by function anonymous(params ) { return params.id === 7 }");
    expectMatch(m, request({ id: 7 }));
    expect(m.match(request({ id: 8 }))).toEqual({ distance: 1 });
    expect(m.match(request(undefined)).distance).toBe(1);

    const seen: unknown[] = [];
    paramsWhere((p) => (seen.push(p), false)).match(request(undefined));
    expect(seen).toEqual([{}]);

    const throwing = paramsWhere((p) => (p["x"] as string).length > 0);
    expect(() => throwing.match(request({}))).not.toThrow();
    expect(throwing.match(request({})).distance).toBe(1);
    expectMatch(throwing, request({ x: "a" }));
  });
});

describe("sessionIs", () => {
  test("ANY requires some session", () => {
    const m = sessionIs(ANY);
    expect(m.kind).toBe("session");
    expect(m.specific).toBe(false);
    expect(m.dsl).toBe(".withSessionId(ANY)");
    expect(m.describe()).toBe("in any session");
    expectMatch(m, call({}, { sessionId: "abc" }));
    expectMatch(m, call({}, { sessionId: "" }));
    const r = expectMiss(m, call({}, { sessionId: undefined }));
    expect(r.distance).toBe(1);
    expect(r.diffs).toEqual([{ path: "session", expected: "any session", actual: undefined, reason: "missing" }]);
    expect(showDiff(r.diffs[0]!)).toBe('session: expected "any session", but it is missing');
  });

  test("a given id", () => {
    const m = sessionIs("s-1");
    expect(m.dsl).toBe('.withSessionId("s-1")');
    expect(m.describe()).toBe('in session "s-1"');
    expectMatch(m, call({}, { sessionId: "s-1" }));
    const r = expectMiss(m, call({}, { sessionId: "s-2" }));
    expect(r.diffs).toEqual([{ path: "session", expected: "s-1", actual: "s-2", reason: "differs" }]);
    expect(expectMiss(m, call({}, { sessionId: undefined })).diffs[0]?.actual).toBeUndefined();
    expectMiss(m, call({}, { sessionId: "S-1" }));
  });
});

describe("headerIs", () => {
  test("string value; the name is case-insensitive, the value is not", () => {
    const m = headerIs("X-Api-Key", "secret");
    expect(m.kind).toBe("header");
    expect(m.specific).toBe(false);
    expect(m.dsl).toBe('.withHeader("X-Api-Key", "secret")');
    expect(m.describe()).toBe('with header x-api-key equal to "secret"');
    expectMatch(m, call({}, { headers: { "x-api-key": "secret" } }));
    expectMatch(headerIs("X-API-KEY", "secret"), call({}, { headers: { "x-api-key": "secret" } }));
    expectMatch(headerIs("x-api-key", "secret"), call({}, { headers: { "x-api-key": "secret" } }));

    const differs = expectMiss(m, call({}, { headers: { "x-api-key": "Secret" } }));
    expect(differs.distance).toBe(1);
    expect(differs.diffs[0]).toMatchObject({ path: "headers.x-api-key", actual: "Secret", reason: "differs" });

    const missing = expectMiss(m, call({}, { headers: { other: "secret" } }));
    expect(missing.diffs[0]).toMatchObject({ path: "headers.x-api-key", actual: undefined, reason: "missing" });
  });

  // The diff's `expected` is the value itself, so showDiff quotes it once (it once quoted twice).
  test("a header miss renders the expected value once quoted", () => {
    const r = headerIs("X-Api-Key", "secret").match(call({}, { headers: { "x-api-key": "other" } }));
    expect(showDiff(r.diffs![0]!)).toBe('headers.x-api-key: expected "secret", received "other"');
  });

  test("RegExp, also with the global flag, matches again and again", () => {
    const re = /^Bearer \w+$/g;
    const m = headerIs("Authorization", re);
    expect(m.dsl).toBe('.withHeader("Authorization", /^Bearer \\w+$/g)');
    expect(m.describe()).toBe("with header authorization matching /^Bearer \\w+$/g");
    const ok = call({}, { headers: { authorization: "Bearer abc" } });
    for (let i = 0; i < 4; i++) expectMatch(m, ok);
    re.lastIndex = 5; // someone else used the RegExp
    expectMatch(m, ok);
    const stickyish = headerIs("authorization", /Bearer/gy);
    expectMatch(stickyish, ok);
    expectMatch(stickyish, ok);
    const r = expectMiss(m, call({}, { headers: { authorization: "Basic abc" } }));
    expect(r.diffs[0]).toMatchObject({ path: "headers.authorization", actual: "Basic abc", reason: "differs" });
    expectMiss(m, call({}, { headers: {} }));
  });
});

describe("protocolVersionIn", () => {
  test("matches any listed version, describes the range, and names it in the near-miss row", () => {
    const m = protocolVersionIn(["2025-11-25", "2025-06-18", "2025-03-26"]);
    expect(m.describe()).toBe("at protocol versions 2025-03-26 to 2025-11-25");
    expect(m.match(call({}, { protocolVersion: "2025-06-18" })).distance).toBe(0);
    expect(m.match(call({}, { protocolVersion: "2026-07-28" })).distance).toBe(1);
    expect(m.rows(call({}, { protocolVersion: "2026-07-28" }))).toEqual([{ expected: "protocol version: 2025-03-26 to 2025-11-25", actual: "protocol version: 2026-07-28", mismatch: "protocol version" }]);
    expect(protocolVersionIn(["2026-07-28"]).describe()).toBe("at protocol version 2026-07-28");
  });
});

describe("protocolVersionIs", () => {
  test("texts and match", () => {
    const m = protocolVersionIs("2025-03-26");
    expect(m.kind).toBe("protocolVersion");
    expect(m.specific).toBe(false);
    expect(m.dsl).toBe('.withProtocolVersion("2025-03-26")');
    expect(m.describe()).toBe("at protocol version 2025-03-26");
    expectMatch(m, call({}, { protocolVersion: "2025-03-26" }));
    const r = expectMiss(m, call({}, { protocolVersion: "2025-06-18" }));
    expect(r.diffs).toEqual([{ path: "protocolVersion", expected: "2025-03-26", actual: "2025-06-18", reason: "differs" }]);
    expect(showDiff(r.diffs[0]!)).toBe('protocolVersion: expected "2025-03-26", received "2025-06-18"');
  });
});

describe("bodyContains", () => {
  test("texts and match on the raw text", () => {
    const m = bodyContains("urgent");
    expect(m.kind).toBe("body");
    expect(m.specific).toBe(false);
    expect(m.dsl).toBe('.withBodyContaining("urgent")');
    expect(m.describe()).toBe('with a body containing "urgent"');
    expectMatch(m, call({}, { body: '{"params":{"arguments":{"note":"urgent!"}}}' }));
    // Raw text, not parsed JSON: the key name counts too, and escapes are as written.
    expectMatch(bodyContains('"note"'), call({}, { body: '{"note":1}' }));
    expectMiss(bodyContains("é"), call({}, { body: '{"a":"\\u00e9"}' }));
    const r = expectMiss(m, call({}, { body: '{"a":"Urgent"}' }));
    expect(r.distance).toBe(1);
    expect(r.diffs[0]).toMatchObject({ path: "body", expected: "…urgent…", reason: "differs" });
  });
});
