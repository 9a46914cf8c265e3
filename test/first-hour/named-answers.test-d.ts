/**
 * Issue 32, recording part 3 (type-checked by `tsc --noEmit`, which `npm test` runs first):
 * inside `streams()` scripts, `call.answers.KEY` is typed by the method of the request that
 * named it — `request(method, params, { key })` and `requests({ KEY: { method } })` — keys
 * named earlier kept; `call.answer` after a `requests` step is its answers by key.
 */
import { describe, expectTypeOf, test } from "vitest";
import type { CreateMessageResult, ElicitResult, ListRootsResult } from "@modelcontextprotocol/sdk/types.js";
import { McpMock, type ClientAnswer } from "mcpmock";

declare const mock: McpMock;
const schema = { type: "object", properties: {} } as const;

describe("call.answers.KEY is typed by the key's request method", () => {
  test("request(..., { key }) names an ElicitResult; requests({ ... }) a ListRootsResult and a CreateMessageResult", () => {
    mock.toolsCall("signup").streams((s) =>
      s
        .request("elicitation/create", { message: "Name?", requestedSchema: schema }, { key: "user_name" })
        .log("info", (call) => {
          expectTypeOf(call.answers.user_name).not.toBeAny();
          expectTypeOf(call.answers.user_name).toEqualTypeOf<ClientAnswer<"elicitation/create">>();
          expectTypeOf(call.answers.user_name).toMatchTypeOf<ElicitResult>();
          return call.answers.user_name.action;
        })
        .requests({ a: { method: "roots/list" }, draft: { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } } })
        .result((call) => {
          expectTypeOf(call.answers.a).not.toBeAny();
          expectTypeOf(call.answers.a).toMatchTypeOf<ListRootsResult>();
          expectTypeOf(call.answers.draft).toMatchTypeOf<CreateMessageResult>();
          // the earlier key stays typed
          expectTypeOf(call.answers.user_name).toMatchTypeOf<ElicitResult>();
          // call.answer is this step's answers by key
          expectTypeOf(call.answer.a).toMatchTypeOf<ListRootsResult>();
          // the ordered part is still there
          expectTypeOf(call.answers.length).toEqualTypeOf<number>();
          // @ts-expect-error roots are `{ uri, name? }`, not strings
          void call.answers.a.roots[0]!.toUpperCase();
          return call.answers.a.roots.map((r) => r.uri).join(",");
        }),
    );
  });

  test("a client's refusal shows in error; an unnamed request keeps answers untyped", () => {
    mock.toolsCall("ask").streams((s) =>
      s
        .request("roots/list")
        .result((call) => {
          expectTypeOf(call.answer).toMatchTypeOf<ListRootsResult>();
          // unnamed requests are read as elicitation-1, ...: untyped
          expectTypeOf(call.answers["roots-1"]).toBeAny();
          return "ok";
        }),
    );
    mock.toolsCall("ask").streams((s) =>
      s.request("elicitation/create", { message: "Name?", requestedSchema: schema }, { key: "who" }).result((call) => {
        expectTypeOf(call.answers.who.error).toEqualTypeOf<{ readonly code: number; readonly message: string; readonly data?: unknown } | undefined>();
        // @ts-expect-error no request named so
        void call.answers.nobody.action;
        return call.answers.who.error ? "refused" : String(call.answers.who.content?.["name"]);
      }),
    );
  });

  test("a method known only as string keeps its key's answer any, as before", () => {
    const method: string = "elicitation/create";
    mock.toolsCall("ask").streams((s) =>
      s
        .request(method, {}, { key: "loose" })
        .requests({ r: { method: "roots/list" } })
        .result((call) => {
          expectTypeOf(call.answers.loose).toBeAny();
          expectTypeOf(call.answers.r).toMatchTypeOf<ListRootsResult>();
          return "ok";
        }),
    );
  });
});
