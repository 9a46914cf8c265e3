/**
 * withFields: a copy with fields set, the same as an object spread (own enumerable keys, in
 * order, a replaced key where it was, a "__proto__" key kept as data), without the spread's slow path.
 */
import { expect, test } from "vitest";
import { withFields } from "../src/values/with-fields.js";

test("the same object a spread makes: own keys in order, new keys after, a replaced key where it was", () => {
  const source = { a: 1, b: { c: 2 }, d: "x" };
  const copy = withFields(source, { e: true, a: 5 });
  expect(copy).toEqual({ ...source, e: true, a: 5 });
  expect(Object.keys(copy)).toEqual(Object.keys({ ...source, e: true, a: 5 }));
  expect(copy.b).toBe(source.b);
  expect(source).toEqual({ a: 1, b: { c: 2 }, d: "x" });
});

test("inherited keys are not copied; the copy is a plain object", () => {
  const source = Object.assign(Object.create({ inherited: 1 }) as object, { own: 2 });
  const copy = withFields(source, { added: 3 });
  expect(copy).toEqual({ own: 2, added: 3 });
  expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
});

test('a "__proto__" key from JSON stays an own property, in the source and in the fields', () => {
  const source = JSON.parse('{ "__proto__": { "polluted": true }, "a": 1 }') as object;
  const copy = withFields(source, JSON.parse('{ "__proto__": { "again": true } }') as Record<string, unknown>);
  expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  expect(Object.keys(copy)).toEqual(["__proto__", "a"]);
  expect(JSON.stringify(copy)).toBe('{"__proto__":{"again":true},"a":1}');
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
});
