/**
 * Typed stubs: with `as const` declarations, withArgs and respondsWith are typed from the
 * schemas, so a wrong argument name or type does not compile.
 */
import { describe, expectTypeOf, test } from "vitest";
import type { ListRootsResult } from "@modelcontextprotocol/sdk/types.js";
import { ANY, McpMock, text, type StreamCall, type ToolArgs, type ToolCall } from "../src/index.js";
import { addTool } from "./support/tools.js";

const tools = [
  addTool,
  {
    name: "get_weather",
    inputSchema: {
      type: "object",
      properties: { city: { type: "string" }, units: { enum: ["c", "f"] } },
      required: ["city"],
    },
    outputSchema: { type: "object", properties: { temp: { type: "number" } }, required: ["temp"] },
  },
  { name: "free" },
] as const;

declare const mock: McpMock<typeof tools>;

describe("typed stubs", () => {
  test("argument types come from the inputSchema", () => {
    expectTypeOf<ToolArgs<typeof tools, "add">>().toEqualTypeOf<{ a: number; b: number }>();
    mock.toolsCall("add").withArgs({ a: 1, b: 2 });
    mock.toolsCall("add").withArgs(ANY);
    mock.toolsCall("get_weather").withArgs({ city: "Paris", units: "c" });
    // @ts-expect-error a wrong argument name
    mock.toolsCall("add").withArgs({ a: 1, c: 2 });
    // @ts-expect-error a wrong argument type
    mock.toolsCall("add").withArgs({ a: "1", b: 2 });
    // @ts-expect-error a missing required argument
    mock.toolsCall("add").withArgs({ a: 1 });
    // @ts-expect-error a value outside the enum
    mock.toolsCall("get_weather").withArgs({ city: "Paris", units: "k" });
  });

  test("tool names are checked", () => {
    // @ts-expect-error not a declared tool
    mock.toolsCall("sum");
  });

  test("withArgsMatching takes a deep partial or a typed predicate", () => {
    mock.toolsCall("add").withArgsMatching({ a: 1 });
    mock.toolsCall("add").withArgsMatching((args) => args.a > 0);
    // @ts-expect-error a wrong field name
    mock.toolsCall("add").withArgsMatching({ z: 1 });
  });

  test("respondsWith is typed from the outputSchema", () => {
    mock.toolsCall("get_weather").respondsWith({ temp: 21 });
    mock.toolsCall("get_weather").respondsWith(text("Sunny"));
    mock.toolsCall("get_weather").respondsWith("Sunny");
    // @ts-expect-error the outputSchema requires temp to be a number
    mock.toolsCall("get_weather").respondsWith({ temp: "hot" });
  });

  test("answer functions see typed arguments", () => {
    mock.toolsCall("add").respondsWith((call) => {
      expectTypeOf(call.args).toEqualTypeOf<{ a: number; b: number }>();
      expectTypeOf(call).toMatchTypeOf<ToolCall<{ a: number; b: number }>>();
      return { sum: call.args.a + call.args.b };
    });
  });

  test("a tool without schemas takes any object and any payload", () => {
    mock.toolsCall("free").withArgs({ anything: [1, 2] }).respondsWith({ whatever: true });
  });

  test("without as-const declarations everything is loosely typed", () => {
    const loose = null as unknown as McpMock;
    loose.toolsCall("anything").withArgs({ x: 1 }).respondsWith(42);
  });
});

describe("stream scripts", () => {
  test("a function written inline in a step or the result gets the stream call's type", () => {
    mock.toolsCall("free").streams((s) =>
      s
        .log("info", (call) => {
          expectTypeOf(call).toEqualTypeOf<StreamCall>();
          return call.args;
        })
        .notify("notifications/custom", (call) => ({ seen: call.answers.length }))
        .request("roots/list", async (call) => ({ after: call.sessionId }))
        .send((call) => ({ jsonrpc: "2.0", method: "notifications/x", params: { id: call.id } }))
        .result((call) => {
          // after request("roots/list"): what the client answers it with (item 7 of issue 32)
          expectTypeOf(call.answer.roots).toEqualTypeOf<ListRootsResult["roots"]>();
          return { done: true };
        }),
    );
  });
});
