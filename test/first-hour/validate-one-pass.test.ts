/**
 * Issue 32, item 4: `validate` finds every error in one pass. A file with schema mistakes (a
 * delay that is not a number, a misspelt field) and mistakes of meaning (an undeclared tool,
 * two misspelt placeholders) gets all five in one message; the "Expected like" example is
 * printed once per kind of entry, not after every error, and fits the field in question (a
 * delay's example for a delay, not a tool response's).
 */
import { expect, test } from "vitest";
import { assertMockDefinition } from "mcpmock";

const definition = {
  tools: [{ name: "search", inputSchema: { type: "object", properties: { q: { type: "string" } } } }],
  responses: [
    { tool: "search", result: "ok", delay: "fast" },
    { tool: "search", reslt: "typo" },
    { tool: "serch", result: "x" },
    { tool: "search", args: { q: "a" }, result: "{{args.qq}} {{nope.x}}" },
  ],
};

function messageOf(value: unknown): string {
  try {
    assertMockDefinition(value, "bad.json");
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the definition was accepted");
}

test("schema mistakes and mistakes of meaning are all found in one pass", () => {
  const message = messageOf(definition);
  expect(message).toMatch(/^\[mcpmock\] Invalid mock definition — bad\.json: 5 problems, all listed here\./);
  for (const path of ["responses[0].delay", "responses[1].reslt", "responses[2].tool", "responses[3].result"]) expect(message).toContain(`- ${path}:`);
  expect(message).toContain("{{args.qq}}");
  expect(message).toContain("{{nope.x}}");
});

test('the example is printed once per kind of entry, and fits the field: a delay for "delay"', () => {
  const message = messageOf(definition);
  const examples = message.split("\n").filter((line) => line.includes("Expected like"));
  expect(new Set(examples).size).toBe(examples.length); // none repeated
  expect(message.match(/"tool": "add"/g)?.length ?? 0).toBeLessThanOrEqual(1);
  const delay = examples.find((line) => line.includes("delay"));
  expect(delay).toBeDefined();
  expect(delay).not.toContain('"tool"');
  expect(delay).toMatch(/250|"distribution": "uniform"/);
  // The examples come after the list of problems, not between them.
  const lines = message.split("\n");
  const lastProblem = lines.map((l) => l.startsWith("- ")).lastIndexOf(true);
  expect(lines.slice(0, lastProblem).some((l) => l.includes("Expected like"))).toBe(false);
});

test("one problem is still one line and its example", () => {
  const message = messageOf({ tools: [{ name: "a" }], responses: [{ tool: "a", result: 1, delay: "fast" }] });
  expect(message).toBe(
    'Invalid mock definition — bad.json: responses[0].delay: must be number, received "fast" (string).\n→ Expected like: 250 or { "distribution": "uniform", "min": 50, "max": 500 }'.replace(/^/, "[mcpmock] "),
  );
});

// Before, the dry run (the stubs built as the DSL builds them) ran only when every other check
// passed, and stopped at its first mistake: a file with two bad regular expressions and a
// misspelt field took three runs of validate to fix.
test("mistakes the DSL finds (a bad $regex, twice) are listed with the others, each at its entry", () => {
  const message = messageOf({
    tools: [{ name: "search" }],
    responses: [
      { tool: "search", args: { q: { $regex: "(" } }, result: 1 },
      { tool: "search", args: { q: { $regex: "[z-a]" } }, result: 2 },
      { tool: "search", result: 3, dely: 5 },
      { tool: "search", args: { q: "ok" }, result: 4 },
    ],
  });
  expect(message.split("\n").slice(0, 4)).toStrictEqual([
    "[mcpmock] Invalid mock definition — bad.json: 3 problems, all listed here.",
    '- responses[2].dely: "dely" is not a field here (a typo?). Did you mean "delay"?',
    `- responses[0].args.q: { "$regex": "(" }: $regex is not a valid regular expression (Invalid regular expression: /(/u: Unterminated group); write JavaScript's RegExp source, for example { "$regex": "^err" }.`,
    `- responses[1].args.q: { "$regex": "[z-a]" }: $regex is not a valid regular expression (Invalid regular expression: /[z-a]/u: Range out of order in character class); write JavaScript's RegExp source, for example { "$regex": "^err" }.`,
  ]);
});

test("a mistake only the DSL finds, alone, keeps the DSL's message as it is", () => {
  expect(messageOf({ tools: [{ name: "search" }], responses: [{ tool: "search", args: { q: { $regex: "(" } }, result: 1 }] })).toBe(
    `[mcpmock] Invalid mock definition — bad.json: responses[0].args.q: { "$regex": "(" }: $regex is not a valid regular expression (Invalid regular expression: /(/u: Unterminated group); write JavaScript's RegExp source, for example { "$regex": "^err" }.`,
  );
});

// Before, an entry showed only its most telling schema error: a misspelt "reslt" beside a
// "delay" of the wrong type came out only after the delay was fixed, in a second run.
test("a misspelt field is listed beside another mistake of the same entry", () => {
  const message = messageOf({ tools: [{ name: "a" }], responses: [{ tool: "a", reslt: 1, delay: "x" }] });
  expect(message.split("\n").slice(0, 3)).toStrictEqual([
    "[mcpmock] Invalid mock definition — bad.json: 2 problems, all listed here.",
    '- responses[0].delay: must be number, received "x" (string).',
    '- responses[0].reslt: "reslt" is not a field here (a typo?). Did you mean "result"?',
  ]);
});

// Before, only the first: "isError" was reported and "delay" came out in the next run.
test("two fields of one entry with a mistake each are both listed, and a stream step's once", () => {
  const message = messageOf({
    tools: [{ name: "a" }],
    responses: [
      { tool: "a", result: 1, isError: "no", delay: "x", times: 2 },
      { method: "m", stream: [{ notify: "x", params: {} }, { delay: "z" }], result: 1 },
    ],
  });
  expect(message.split("\n").filter((line) => line.startsWith("- "))).toStrictEqual([
    '- responses[0].isError: must be boolean, received "no" (string).',
    '- responses[0].delay: must be number, received "x" (string).',
    '- responses[1].stream[1].delay: must be number, received "z" (string).',
  ]);
});
