/**
 * `tools_call` (official): the client lists the tools and calls `add_numbers` with two
 * numbers. Check `tool-add-numbers`.
 * @module
 */
import { text } from "../../index.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, servedRun } from "../scenario-mock.js";

const ADD_NUMBERS = {
  name: "add_numbers",
  description: "Add two numbers together",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number", description: "First number" }, b: { type: "number", description: "Second number" } },
    required: ["a", "b"],
  },
} as const;

export const toolsCall: Scenario = {
  name: "tools_call",
  suite: "official",
  description: "Tests calling tools with various parameter types",
  specVersions: ["2025-11-25", "2026-07-28", "2025-06-18"],
  transports: ["http", "stdio", "memory"],
  async start(start) {
    const mock = await scenarioMock({ tools: [ADD_NUMBERS] }, start);
    mock.toolsCall("add_numbers").withArgsMatching(() => true).respondsWith((call) => {
      const { a, b } = call.args as { a: number; b: number };
      return text(`The sum of ${a} and ${b} is ${a + b}`);
    });
    return servedRun(mock, start, () => {
      const call = mock.requests().find((e) => e.kind === "request" && e.method === "tools/call");
      const args = call?.params?.["arguments"] as { a?: unknown; b?: unknown } | undefined;
      const ok = call !== undefined && typeof args?.a === "number" && typeof args?.b === "number";
      return [
        ok
          ? { id: "tool-add-numbers", status: "SUCCESS", description: "Validates that the add_numbers tool works correctly", details: { a: args?.a, b: args?.b, result: (args?.a as number) + (args?.b as number) } }
          : {
              id: "tool-add-numbers",
              status: "FAILURE",
              description: "Validates that the add_numbers tool works correctly",
              errorMessage: call === undefined ? "Tool was not called by client" : `add_numbers was called with ${JSON.stringify(args)}, not two numbers a and b`,
              details: { message: "Tool was not called by client" },
            },
      ];
    });
  },
};
