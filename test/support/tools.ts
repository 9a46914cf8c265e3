/**
 * Tool declarations several test files share. Each is `as const`, so a file's `tools` list
 * built from them keeps the typed stubs (withArgs, respondsWith) its own declarations had.
 */

/** `add(a: number, b: number)`, both required. */
export const addTool = {
  name: "add",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
} as const;
