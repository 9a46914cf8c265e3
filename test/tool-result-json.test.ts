/**
 * toolResultJson: a tool result's JSON written without the serializer's object walk for its
 * text blocks, byte for byte what JSON.stringify writes, whatever the value.
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import { toolResultJson } from "../src/stubs/tool-result.js";

const text = (value: string): { type: string; text: string } => ({ type: "text", text: value });

test.each([
  ["one text block", { content: [text('{"sum":3}')] }],
  ["2026's resultType after the content", { content: [text("ok")], resultType: "complete" }],
  ["several blocks, structuredContent and isError", { content: [text("a"), text("b")], structuredContent: { sum: 3, list: [1, null] }, isError: true }],
  ["an empty content array", { content: [] }],
  ["no keys", {}],
  ["a block with more keys", { content: [{ type: "text", text: "a", annotations: { priority: 1 } }] }],
  ["a block with its keys the other way round", { content: [{ text: "a", type: "text" }] }],
  ["an image block", { content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] }],
  ["a text that is not a string", { content: [{ type: "text", text: 5 }] }],
  ["undefined and function values are left out", { content: [text("a")], skipped: undefined, fn: () => 1, _meta: { k: "v" } }],
  ["undefined in an array is null", { content: [text("a"), undefined] }],
  ["escapes, line separators and a lone surrogate", { content: [text('"\\\n\u2028\u0000\ud800')], "odd \"key\"": 1 }],
  ["numbers JSON writes its way", { content: [text("a")], n: -0, big: 1e21, nan: Number.NaN, inf: Number.POSITIVE_INFINITY }],
  ["a __proto__ key kept as data", JSON.parse('{"__proto__":{"x":1},"content":[{"type":"text","text":"a"}]}') as unknown],
  ["a null-prototype result", Object.assign(Object.create(null) as object, { content: [text("a")] })],
  ["a class instance", new (class Result { content = [text("a")]; })()],
  ["a toJSON", { content: [text("a")], toJSON: () => ({ replaced: true }) }],
  ["a block with toJSON", { content: [{ type: "text", text: "a", toJSON: () => "x" }] }],
  ["a Date inside", { content: [text("a")], at: new Date(0) }],
  ["not an object", "text"],
  ["an array", [text("a")]],
  ["null", null],
  ["undefined", undefined],
])("%s: the same text as JSON.stringify", (_name, value) => {
  expect(toolResultJson(value)).toBe(JSON.stringify(value));
});

test("an inherited enumerable key is not written (JSON.stringify writes own keys only)", () => {
  const result = Object.assign(Object.create({ inherited: 1 }) as object, { content: [text("a")] });
  expect(toolResultJson(result)).toBe(JSON.stringify(result));
  const block = Object.assign(Object.create({ inherited: 1 }) as object, text("a"));
  expect(toolResultJson({ content: [block] })).toBe(JSON.stringify({ content: [block] }));
});

test("any JSON value, and any tool result of text blocks, is written as JSON.stringify writes it", () => {
  const block = fc.oneof(fc.string().map(text), fc.record({ type: fc.constantFrom("text", "image"), text: fc.jsonValue() }, { requiredKeys: [] }));
  const result = fc.record({ content: fc.array(block, { maxLength: 4 }), structuredContent: fc.jsonValue(), isError: fc.boolean(), resultType: fc.constant("complete") }, { requiredKeys: [] });
  fc.assert(fc.property(fc.oneof(result, fc.jsonValue()), (value) => toolResultJson(value) === JSON.stringify(value)), { numRuns: 2000 });
});
