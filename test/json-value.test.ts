import { describe, expect, test } from "vitest";
import { ANY } from "../src/values/any.js";
import { McpMockError } from "../src/values/errors.js";
import {
  MAX_JSON_DEPTH,
  assertJsonCarriable,
  canonicalJson,
  depthExceeds,
  diffJson,
  propertyPath,
  showDiff,
  type FieldDiff,
} from "../src/values/json-value.js";

const WHERE = 'toolsCall("add").withArgs(...)';

/** The message of the McpMockError that `fn` throws (fails if it throws nothing or something else). */
function rejection(fn: () => void): string {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, "expected a throw").toBeInstanceOf(McpMockError);
  return (thrown as McpMockError).message;
}

/** `{ a: { a: ... leaf } }`, `levels` objects deep: the leaf sits at depth `levels`. */
function nested(levels: number, leaf: unknown = 1): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe("assertJsonCarriable rejects, naming the path and the fix", () => {
  const at = (value: unknown): string => rejection(() => assertJsonCarriable({ city: "Seoul", when: value }, WHERE, "args"));
  const prefix = `[mcpmock] ${WHERE}: args.when is`;

  test.each([
    ["NaN", Number.NaN, `${prefix} NaN, which JSON cannot carry (it arrives as null). Use a finite number or null.`],
    ["Infinity", Number.POSITIVE_INFINITY, `${prefix} Infinity, which JSON cannot carry (it arrives as null). Use a finite number or null.`],
    ["-Infinity", Number.NEGATIVE_INFINITY, `${prefix} -Infinity, which JSON cannot carry (it arrives as null). Use a finite number or null.`],
    ["a function", () => 1, `${prefix} a function, which no JSON call can carry. To match with code, use .withArgsMatching(args => ...).`],
    ["a symbol", Symbol("s"), `${prefix} a symbol, which JSON cannot carry. Use a string.`],
    ["a BigInt", 10n, `${prefix} a BigInt, which JSON cannot carry. Use a number or a string.`],
    ["a Map", new Map([["a", 1]]), `${prefix} a Map, which JSON cannot carry. Use a plain object instead: Object.fromEntries(map).`],
    ["a Set", new Set([1]), `${prefix} a Set, which JSON cannot carry. Use an array instead: [...set].`],
    ["a Date", new Date(0), `${prefix} a Date, which JSON cannot carry. Use an ISO string instead: date.toISOString().`],
    [
      "a RegExp",
      /x/,
      `${prefix} a RegExp, which JSON cannot carry. A RegExp only matches (in withArgs, withArgsMatching, withParams and withHeader); here, put a string.`,
    ],
    ["a Uint8Array", new Uint8Array([1, 2]), `${prefix} a Uint8Array, which JSON cannot carry. Encode the bytes as base64 text instead.`],
    ["a class instance", new Point(1, 2), `${prefix} a Point, which JSON cannot carry. Pass a plain object ({ ... }) with JSON values.`],
    [
      "an object with a constructor-less prototype",
      Object.create(Object.create(null) as object) as object,
      `${prefix} an object with a custom prototype, which JSON cannot carry. Pass a plain object ({ ... }) with JSON values.`,
    ],
    ["a boxed string", Object("s") as object, `${prefix} a String, which JSON cannot carry. Pass a plain object ({ ... }) with JSON values.`],
    ["ANY (not allowed)", ANY, `${prefix} ANY, which is only a pattern. Put a JSON value here.`],
  ])("%s", (_name, value, message) => {
    expect(at(value)).toBe(message);
  });

  test("a cycle through an object", () => {
    const obj: Record<string, unknown> = { a: 1 };
    obj["self"] = obj;
    expect(rejection(() => assertJsonCarriable(obj, WHERE, "args"))).toBe(
      `[mcpmock] ${WHERE}: args.self refers back to one of its parents (a cycle), which JSON cannot carry. Pass a tree.`,
    );
  });

  test("a cycle through an array, deep down", () => {
    const list: unknown[] = [1];
    const root = { outer: { list } };
    list.push({ back: root });
    expect(rejection(() => assertJsonCarriable(root, WHERE, "args"))).toBe(
      `[mcpmock] ${WHERE}: args.outer.list[1].back refers back to one of its parents (a cycle), which JSON cannot carry. Pass a tree.`,
    );
  });

  test("a sparse array names the hole", () => {
    // eslint-disable-next-line no-sparse-arrays
    const items = [1, , 3];
    expect(rejection(() => assertJsonCarriable({ items }, WHERE, "args"))).toBe(
      `[mcpmock] ${WHERE}: args.items is a sparse array (index 1 is a hole), which JSON cannot carry. Fill the hole with null or a value.`,
    );
    expect(() => assertJsonCarriable({ items: new Array(2) }, WHERE, "args")).toThrow(/index 0 is a hole/);
  });

  test("a 600-deep object", () => {
    const message = rejection(() => assertJsonCarriable(nested(600), WHERE, "args"));
    // Depth counts objects and arrays: the 513th nested object is at args + 512 × ".a".
    expect(message).toBe(
      `[mcpmock] ${WHERE}: args${".a".repeat(MAX_JSON_DEPTH)} is nested deeper than 512 levels, which no MCP call carries. Flatten the value.`,
    );
  });

  test("one level past the limit", () => {
    expect(MAX_JSON_DEPTH).toBe(512);
    expect(() => assertJsonCarriable(nested(MAX_JSON_DEPTH + 1), WHERE, "args")).toThrow(McpMockError);
    expect(() => assertJsonCarriable(nested(MAX_JSON_DEPTH + 1, {}), WHERE, "args")).toThrow(/nested deeper than 512 levels/);
    // 512 nested objects pass; an empty object inside them is the 513th.
    expect(() => assertJsonCarriable(nested(MAX_JSON_DEPTH, {}), WHERE, "args")).toThrow(/nested deeper than 512 levels/);
  });

  test("paths: odd keys, array items, the root itself", () => {
    expect(rejection(() => assertJsonCarriable({ "odd key": Number.NaN }, WHERE, "args"))).toContain(`: args["odd key"] is NaN`);
    expect(rejection(() => assertJsonCarriable({ items: [{ name: "a" }, { name: 1n }] }, WHERE, "args"))).toContain(
      `: args.items[1].name is a BigInt`,
    );
    expect(rejection(() => assertJsonCarriable({ "0": { $ok: [Symbol()] } }, WHERE, "args"))).toContain(`: args["0"].$ok[0] is a symbol`);
    expect(rejection(() => assertJsonCarriable(Number.NaN, "the answer function of stub-1", "returned value"))).toBe(
      "[mcpmock] the answer function of stub-1: returned value is NaN, which JSON cannot carry (it arrives as null). Use a finite number or null.",
    );
  });

  test("ANY is rejected at any depth unless allowed", () => {
    expect(rejection(() => assertJsonCarriable({ list: [1, ANY] }, WHERE, "args"))).toContain(": args.list[1] is ANY");
    expect(rejection(() => assertJsonCarriable(ANY, WHERE, "args"))).toContain(": args is ANY");
  });
});

describe("assertJsonCarriable accepts", () => {
  test.each([
    ["undefined properties", { a: undefined, b: { c: undefined } }],
    ["undefined at the root", undefined],
    ["primitives and null", { s: "x", n: -0.5, z: 0, t: true, f: false, nul: null }],
    ["nested arrays", { m: [[1, [2, [3, []]]], [], [{ a: [null] }]] }],
    ["null-prototype objects", { a: Object.assign(Object.create(null) as object, { b: Object.create(null) as object }) }],
    ["depth exactly 512 (leaf at depth 512)", nested(MAX_JSON_DEPTH)],
  ])("%s", (_name, value) => {
    expect(() => assertJsonCarriable(value, WHERE, "args")).not.toThrow();
  });

  test("shared, non-cyclic references", () => {
    const shared = { x: [1, 2] };
    expect(() => assertJsonCarriable({ a: shared, b: shared, list: [shared, shared, { c: shared }] }, WHERE, "args")).not.toThrow();
    const arr = [1];
    expect(() => assertJsonCarriable([arr, arr, [arr]], WHERE, "args")).not.toThrow();
  });

  test("ANY where allowed, at the root and inside", () => {
    expect(() => assertJsonCarriable(ANY, WHERE, "args", true)).not.toThrow();
    expect(() => assertJsonCarriable({ city: ANY, list: [ANY, { deep: ANY }] }, WHERE, "args", true)).not.toThrow();
  });
});

describe("propertyPath", () => {
  test.each([
    ["city", ".city"],
    ["_x1", "._x1"],
    ["$ref", ".$ref"],
    ["odd key", '["odd key"]'],
    ["0", '["0"]'],
    ["a-b", '["a-b"]'],
    ['q"uote', '["q\\"uote"]'],
    ["", '[""]'],
  ])("%j → %s", (key, path) => {
    expect(propertyPath(key)).toBe(path);
  });
});

describe("canonicalJson", () => {
  test("sorts keys at every depth, including inside arrays", () => {
    const value = { b: 1, a: { d: [{ z: 1, y: { q: 2, p: 1 } }], c: 2 } };
    expect(canonicalJson(value)).toBe('{"a":{"c":2,"d":[{"y":{"p":1,"q":2},"z":1}]},"b":1}');
  });

  test("is key-order free", () => {
    const one = { x: 1, y: { m: [1, { k: "v", j: null }], n: true } };
    const two = { y: { n: true, m: [1, { j: null, k: "v" }] }, x: 1 };
    expect(canonicalJson(one)).toBe(canonicalJson(two));
    // …but not array-order free, and not value free.
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: "1" }));
  });

  test("drops undefined properties, turns undefined array items into null", () => {
    expect(canonicalJson({ b: undefined, a: 1, c: { d: undefined } })).toBe('{"a":1,"c":{}}');
    expect(canonicalJson({ only: undefined })).toBe("{}");
    expect(canonicalJson([undefined, 1, undefined])).toBe("[null,1,null]");
    expect(canonicalJson({ a: undefined })).toBe(canonicalJson({}));
  });

  test("primitives and escaping are JSON's", () => {
    expect(canonicalJson(null)).toBe("null");
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson("a\"b\n")).toBe('"a\\"b\\n"');
    expect(canonicalJson(-0)).toBe("0");
    expect(canonicalJson({ 'k"ey': 1 })).toBe('{"k\\"ey":1}');
    expect(canonicalJson([])).toBe("[]");
  });

  test("parses back to the same value as JSON.stringify would give", () => {
    const value = { z: [1, "two", { three: 3, four: [null, false] }], a: { "odd key": 0.5 }, m: "" };
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });
});

describe("depthExceeds", () => {
  test("counts containers only", () => {
    expect(depthExceeds(5, 0)).toBe(false);
    expect(depthExceeds(null, 0)).toBe(false);
    expect(depthExceeds({}, 0)).toBe(true);
    expect(depthExceeds({}, 1)).toBe(false);
    expect(depthExceeds({ a: { b: 1 } }, 2)).toBe(false);
    expect(depthExceeds({ a: { b: {} } }, 2)).toBe(true);
    expect(depthExceeds([1, [2, [3]]], 2)).toBe(true);
    expect(depthExceeds([1, [2, [3]]], 3)).toBe(false);
    expect(depthExceeds({ wide: [1, 2, 3], deep: [[[[]]]] }, 4)).toBe(true);
  });

  test("a 100,000-deep array does not overflow the stack (iterative)", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => depthExceeds(deep, MAX_JSON_DEPTH)).not.toThrow();
    expect(depthExceeds(deep, MAX_JSON_DEPTH)).toBe(true);
    // Walking all of it (limit above its depth) must not throw either.
    expect(depthExceeds(deep, 100_001)).toBe(false);
    expect(depthExceeds(deep, 100_000)).toBe(true);
  });

  // Both count objects and arrays, so what withArgs accepts is what a call may carry.
  test.each([nested(MAX_JSON_DEPTH, {}), nested(MAX_JSON_DEPTH), nested(MAX_JSON_DEPTH - 1, [])])("agrees with assertJsonCarriable on the 512 limit (%#)", (value) => {
    let carriable = true;
    try {
      assertJsonCarriable(value, WHERE, "args");
    } catch {
      carriable = false;
    }
    expect(depthExceeds(value, MAX_JSON_DEPTH)).toBe(!carriable);
  });
});

describe("diffJson", () => {
  const d = (path: string, expected: unknown, actual: unknown, reason: string): FieldDiff => ({ path, expected, actual, reason });

  test("equal values have no diffs, in both modes", () => {
    const v = { a: 1, b: { c: [1, { d: "x" }] } };
    expect(diffJson(v, structuredClone(v), "args", false)).toEqual([]);
    expect(diffJson(v, structuredClone(v), "args", true)).toEqual([]);
    expect(diffJson({ b: 2, a: 1 }, { a: 1, b: 2 }, "args", false)).toEqual([]);
  });

  test("exact mode reports unexpected keys; partial mode ignores them", () => {
    expect(diffJson({ a: 1 }, { a: 1, extra: { x: 1 } }, "args", false)).toEqual([d("args.extra", undefined, { x: 1 }, "unexpected")]);
    expect(diffJson({ a: 1 }, { a: 1, extra: { x: 1 } }, "args", true)).toEqual([]);
    expect(diffJson({ n: { a: 1 } }, { n: { a: 1, b: 2 } }, "args", false)).toEqual([d("args.n.b", undefined, 2, "unexpected")]);
    expect(diffJson({ n: { a: 1 } }, { n: { a: 1, b: 2 } }, "args", true)).toEqual([]);
  });

  test("an actual key that is undefined is not unexpected", () => {
    expect(diffJson({ a: 1 }, { a: 1, b: undefined }, "args", false)).toEqual([]);
  });

  test("missing, differs, type differs", () => {
    expect(diffJson({ city: "Seoul" }, {}, "args", false)).toEqual([d("args.city", "Seoul", undefined, "missing")]);
    expect(diffJson({ city: "Seoul" }, { city: "Jeju" }, "args", true)).toEqual([d("args.city", "Seoul", "Jeju", "differs")]);
    expect(diffJson({ n: 1 }, { n: "1" }, "args", false)).toEqual([d("args.n", 1, "1", "type differs")]);
    expect(diffJson({ n: null }, { n: {} }, "args", false)).toEqual([d("args.n", null, {}, "type differs")]);
    expect(diffJson({ n: {} }, { n: null }, "args", false)).toEqual([d("args.n", {}, null, "type differs")]);
    expect(diffJson({ n: [1] }, { n: { 0: 1 } }, "args", false)).toEqual([d("args.n", [1], { 0: 1 }, "type differs")]);
    expect(diffJson({ n: {} }, { n: [] }, "args", true)).toEqual([d("args.n", {}, [], "type differs")]);
    expect(diffJson({ b: true }, { b: false }, "args", false)).toEqual([d("args.b", true, false, "differs")]);
  });

  test("paths into arrays and odd keys", () => {
    const expected = { items: [{ name: "a" }, { name: "b" }, { name: "c" }], "odd key": 1 };
    const actual = { items: [{ name: "a" }, { name: "b" }, { name: "x" }], "odd key": 2 };
    expect(diffJson(expected, actual, "args", false)).toEqual([
      d("args.items[2].name", "c", "x", "differs"),
      d('args["odd key"]', 1, 2, "differs"),
    ]);
  });

  test("arrays compare item by item, even in partial mode", () => {
    expect(diffJson({ items: [1, 2] }, { items: [1] }, "args", true)).toEqual([d("args.items[1]", 2, undefined, "missing")]);
    expect(diffJson({ items: [1] }, { items: [1, 2] }, "args", true)).toEqual([d("args.items[1]", undefined, 2, "unexpected")]);
    expect(diffJson([1, 2, 3], [3, 2, 1], "args", false)).toEqual([d("args[0]", 1, 3, "differs"), d("args[2]", 3, 1, "differs")]);
  });

  test("ANY inside expected matches anything, including a missing value", () => {
    expect(diffJson({ city: ANY, n: 1 }, { city: { any: ["thing"] }, n: 1 }, "args", false)).toEqual([]);
    expect(diffJson({ city: ANY, n: 1 }, { n: 1 }, "args", false)).toEqual([]);
    expect(diffJson({ list: [ANY, 2] }, { list: ["x", 2] }, "args", false)).toEqual([]);
    expect(diffJson({ list: [ANY, 2] }, { list: ["x", 3] }, "args", false)).toEqual([d("args.list[1]", 2, 3, "differs")]);
    expect(diffJson(ANY, 42, "args", false)).toEqual([]);
    // ANY does not excuse other keys in exact mode.
    expect(diffJson({ city: ANY }, { city: 1, other: 2 }, "args", false)).toEqual([d("args.other", undefined, 2, "unexpected")]);
  });

  test("every difference is reported, expected keys first", () => {
    expect(diffJson({ a: 1, b: 2, c: 3 }, { z: 0, c: 3, b: "2" }, "params", false)).toEqual([
      d("params.a", 1, undefined, "missing"),
      d("params.b", 2, "2", "type differs"),
      d("params.z", undefined, 0, "unexpected"),
    ]);
  });

  test("uses the root path given", () => {
    expect(diffJson(1, 2, "x", false)).toEqual([d("x", 1, 2, "differs")]);
    expect(diffJson({ a: 1 }, {}, "params.arguments", false)[0]?.path).toBe("params.arguments.a");
  });
});

describe("showDiff", () => {
  test("one line per reason", () => {
    expect(showDiff({ path: "args.city", expected: "Seoul", actual: undefined, reason: "missing" })).toBe(
      'args.city: expected "Seoul", but it is missing',
    );
    expect(showDiff({ path: "args.extra", expected: undefined, actual: { x: 1 }, reason: "unexpected" })).toBe(
      'args.extra: not expected, received {"x":1}',
    );
    expect(showDiff({ path: "args.city", expected: "Seoul", actual: "Jeju", reason: "differs" })).toBe(
      'args.city: expected "Seoul", received "Jeju"',
    );
    expect(showDiff({ path: "args.n", expected: 1, actual: "1", reason: "type differs" })).toBe('args.n: expected 1, received "1"');
    expect(showDiff({ path: "args.n", expected: null, actual: undefined, reason: "differs" })).toBe("args.n: expected null, received undefined");
  });

  test("long values are cut at 80 characters with an ellipsis", () => {
    const long = "x".repeat(200);
    const line = showDiff({ path: "args.s", expected: long, actual: "y", reason: "differs" });
    expect(line).toBe(`args.s: expected "${"x".repeat(78)}…, received "y"`);
    expect(showDiff({ path: "args.s", expected: "y", actual: long, reason: "differs" })).toBe(
      `args.s: expected "y", received "${"x".repeat(78)}…`,
    );
    expect(showDiff({ path: "args.s", expected: long, actual: undefined, reason: "missing" })).toBe(
      `args.s: expected "${"x".repeat(78)}…, but it is missing`,
    );
    expect(showDiff({ path: "args.s", expected: undefined, actual: long, reason: "unexpected" })).toBe(
      `args.s: not expected, received "${"x".repeat(78)}…`,
    );
    // 80 characters exactly are kept whole.
    const eighty = "x".repeat(78);
    expect(showDiff({ path: "p", expected: undefined, actual: eighty, reason: "unexpected" })).toBe(`p: not expected, received "${eighty}"`);
  });

  test("renders what diffJson produces", () => {
    const lines = diffJson({ items: [{ name: "a" }], n: 1 }, { items: [{ name: "b" }], m: 2 }, "args", false).map(showDiff);
    expect(lines).toEqual([
      'args.items[0].name: expected "a", received "b"',
      "args.n: expected 1, but it is missing",
      "args.m: not expected, received 2",
    ]);
  });
});
