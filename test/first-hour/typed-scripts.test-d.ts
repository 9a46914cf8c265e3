/**
 * Issue 32, item 7 (type-checked by `tsc --noEmit`, which `npm test` runs first): inside
 * `streams()` `call.args` is typed for `as const` tools, as on the `respondsWith` path;
 * `call.answer` is typed by the method of the request step before it (an `ElicitResult` for
 * `elicitation/create`); `fromDefinition()` takes a definition imported as JSON and is typed
 * from a `tools` tuple or an `as const` definition.
 */
import { describe, expectTypeOf, test } from "vitest";
import type { CreateMessageResult, ElicitResult, ListRootsResult } from "@modelcontextprotocol/sdk/types.js";
import { McpMock, type StreamCall } from "mcpmock";
import weather from "./fixtures/weather.mock.json" with { type: "json" };

const tools = [
  { name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
  { name: "free" },
] as const;
declare const mock: McpMock<typeof tools>;

describe("stream scripts of typed tools", () => {
  test("call.args inside streams() is the tool's argument type", () => {
    mock.toolsCall("get_weather").streams((s) =>
      s
        .log("info", (call) => {
          expectTypeOf(call.args).toEqualTypeOf<{ city: string }>();
          return call.args.city;
        })
        .result((call) => {
          // @ts-expect-error not an argument of get_weather
          void call.args.country;
          return `sunny in ${call.args.city}`;
        }),
    );
  });

  test("a tool without an inputSchema keeps the plain stream call", () => {
    mock.toolsCall("free").streams((s) => s.result((call) => expectTypeOf(call).toEqualTypeOf<StreamCall>()));
  });
});

describe("call.answer is typed by the request's method", () => {
  test("elicitation/create, sampling/createMessage, roots/list", () => {
    mock.toolsCall("free").streams((s) =>
      s
        .request("elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: {} } })
        .log("info", (call) => {
          expectTypeOf(call.answer).not.toBeAny(); // toMatchTypeOf alone passes for any
          expectTypeOf(call.answer).toMatchTypeOf<ElicitResult>();
          return call.answer.action;
        })
        .request("sampling/createMessage", { messages: [], maxTokens: 10 })
        .log("info", (call) => {
          expectTypeOf(call.answer).not.toBeAny(); // toMatchTypeOf alone passes for any
          expectTypeOf(call.answer).toMatchTypeOf<CreateMessageResult>();
          return call.answer.model;
        })
        .request("roots/list")
        .result((call) => {
          expectTypeOf(call.answer).not.toBeAny(); // toMatchTypeOf alone passes for any
          expectTypeOf(call.answer).toMatchTypeOf<ListRootsResult>();
          // a client that refused says so in `error`
          return call.answer.error ? "refused" : call.answer.roots.map((r) => r.uri);
        }),
    );
  });

  test("a method the mock does not know leaves the answer unknown", () => {
    mock.toolsCall("free").streams((s) => s.request("x/custom").result((call) => expectTypeOf(call.answer).toEqualTypeOf<unknown>()));
  });
});

describe("fromDefinition", () => {
  test("takes a definition imported as JSON (checked when it loads)", async () => {
    const loaded = await McpMock.fromDefinition(weather);
    expectTypeOf(loaded).toEqualTypeOf<McpMock>();
  });

  test("is typed from a tools tuple", async () => {
    const typed = await McpMock.fromDefinition<typeof tools>(weather);
    typed.toolsCall("get_weather").withArgs({ city: "Paris" });
    // @ts-expect-error not a declared tool
    typed.toolsCall("nope");
    // @ts-expect-error a wrong argument
    typed.toolsCall("get_weather").withArgs({ town: "Paris" });
  });

  test("is typed from an as-const definition", async () => {
    const definition = { tools, responses: [{ tool: "get_weather", result: "sunny" }] } as const;
    const typed = await McpMock.fromDefinition(definition);
    typed.toolsCall("get_weather").withArgs({ city: "Paris" });
    // @ts-expect-error not a declared tool
    typed.toolsCall("nope");
  });
});
