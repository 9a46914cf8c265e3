/**
 * The scan of a definition's JSON text (src/definition/json-text.ts): it accepts what
 * JSON.parse accepts, finds the offset of what it refuses when V8 gives none, and lists the
 * keys an object gives twice, compared after unescaping.
 */
import { describe, expect, test } from "vitest";
import { scanJson } from "../src/definition/json-text.js";

describe("scanJson", () => {
  const valid = [
    "0", "-0.5e+10", "true", "null", '""', '"\\u00e9\\n\\"\\\\\\/"', "[]", "{}", " \t\r\n[ 1 , [ ] , { } ]\n",
    '{"a":{"b":[1,{"c":null}]},"d":"é ✓ \\ud83d\\ude00"}', '[{"a":1},{"a":1}]', '{"a":1,"b":{"a":2}}',
    `${"[".repeat(10_000)}${"]".repeat(10_000)}`,
  ];
  test.each(valid)("accepts %j as JSON.parse does, with no duplicate", (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(scanJson(text)).toStrictEqual({ duplicates: [] });
  });

  // The offset is where the mistake is: the character JSON.parse could not take.
  const invalid: Array<[string, number]> = [
    ["", 0], ["[1,]", 3], ['{"a":1,}', 7], ["// c\n{}", 0], ['{"a" 1}', 5], ["[1 2]", 3], ["{} {}", 3],
    ['"a\nb"', 2], ['"\\x"', 1], ["01", 1], ["[", 1], ['{"a":1', 6], ["{'a':1}", 1], ["tru", 0],
  ];
  test.each(invalid)("refuses %j at offset %i", (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(scanJson(text).error).toBe(offset);
  });

  test("a key given twice is found after unescaping, with its path and both offsets", () => {
    expect(scanJson('{"x":[{"a":1,"\\u0061":2}],"x":3}').duplicates).toStrictEqual([
      { path: "x[0].a", at: 13, first: 7 },
      { path: "x", at: 26, first: 1 },
    ]);
  });
});
