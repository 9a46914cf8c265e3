/**
 * Placeholders compiled once and filled per call: the same answers as substituting afresh,
 * own keys only, a "__proto__" key kept as data.
 */
import { expect, test } from "vitest";
import { compileTemplate, substitute } from "../src/values/placeholders.js";

test("a compiled template fills whole values, text, nested parts and misses as substitute does", () => {
  const template = { sum: "{{args.a}}", text: "a={{args.a}}, b={{ args.b }}, o={{args.o}}, none={{args.nope}}", list: ["{{args.items[1]}}", "plain"], fixed: { x: 1 } };
  const context = { args: { a: 1, b: "two", o: { k: true }, items: ["x", "y"] } };
  const fill = compileTemplate(template);
  const expected = { sum: 1, text: 'a=1, b=two, o={"k":true}, none=', list: ["y", "plain"], fixed: { x: 1 } };
  expect(fill(context)).toEqual(expected);
  expect(fill({ args: { a: 5 } })).toEqual({ ...expected, sum: 5, text: "a=5, b=, o=, none=", list: ["", "plain"] });
  expect(substitute(template, context)).toEqual(expected);
});

test("inherited keys are not looked up, and a __proto__ key stays an own property", () => {
  const fill = compileTemplate(JSON.parse('{ "__proto__": "{{args.constructor}}", "v": "{{args.toString}}" }') as object);
  const out = fill({ args: {} }) as Record<string, unknown>;
  expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  expect(Object.hasOwn(out, "__proto__")).toBe(true);
  expect(out).toEqual(JSON.parse('{ "__proto__": "", "v": "" }'));
});
