/**
 * Issue 43's small ones: a misspelt tool in a definition keeps its did-you-mean, and a misspelt
 * "tool" key gets one, in the message that names the entry.
 */
import { expect, test } from "vitest";
import { assertMockDefinition } from "../../src/index.js";

function problem(definition: unknown): string {
  try {
    assertMockDefinition(definition, "shop.mock.json");
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the definition was accepted");
}

test("a tool name one letter off is named with the tool it was meant to be", () => {
  const message = problem({ tools: [{ name: "search" }, { name: "checkout" }], responses: [{ tool: "serch", result: "x" }] });
  expect(message).toContain('responses[0].tool: tool "serch" is not in tools. Did you mean "search"? Available tools: search, checkout.');
});

test("a prompt name one letter off too", () => {
  const message = problem({ prompts: [{ name: "greet", result: "hi" }], responses: [{ prompt: "gret", result: "hi" }] });
  expect(message).toContain('prompt "gret" is not in prompts. Did you mean "greet"?');
});

test('a misspelt "tool" key is named with its fix, beside what the entry needs', () => {
  const message = problem({ tools: [{ name: "search" }], responses: [{ tol: "search", result: "x" }] });
  expect(message).toContain('responses[0]: "tool" (a tools/call answer), "prompt" (a prompts/get answer) or "method" (any method) is required here. "tol" is not a field: did you mean "tool"?');
});

test("a name nothing like any tool gets no guess", () => {
  const message = problem({ tools: [{ name: "search" }], responses: [{ tool: "refund", result: "x" }] });
  expect(message).toContain('tool "refund" is not in tools. Available tools: search.');
});
