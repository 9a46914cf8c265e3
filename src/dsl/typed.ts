/**
 * Types derived from `as const` declarations (json-schema-to-ts), so a stub with a wrong
 * argument name or type does not compile.
 * @module
 */
import type { FromSchema, JSONSchema } from "json-schema-to-ts";
import type { ValuePattern } from "../values/value-patterns.js";
import type { McpCall } from "../stubs/call.js";
import type { CallToolResult, ContentBlock } from "../protocol/content.js";
import type { ToolDeclaration } from "../stubs/tool-catalog.js";

/**
 * The tool names a mock was declared with (`string` when they are not known at compile time).
 *
 * @example
 * ```ts
 * import type { ToolName } from "mcpmock";
 * const tools = [{ name: "get_weather" }, { name: "get_forecast" }] as const;
 * const name: ToolName<typeof tools> = "get_forecast"; // "get_weather" | "get_forecast"
 * ```
 * @category Stubbing
 */
export type ToolName<T extends readonly ToolDeclaration[]> = number extends T["length"]
  ? string
  : T extends readonly []
    ? string
    : T[number]["name"];

/** The declaration of tool `N` among `T`. */
type Find<T extends readonly ToolDeclaration[], N> = Extract<T[number], { readonly name: N }>;

/** A schema with `additionalProperties: false` at the root unless it says otherwise: stubs name only declared fields. */
type Closed<S> = S extends { readonly additionalProperties: unknown }
  ? S
  : { readonly [K in keyof S | "additionalProperties"]: K extends "additionalProperties" ? false : S[K & keyof S] };

/** The argument type an `inputSchema` describes, closed to its declared fields. */
type ArgsOf<S> = S extends JSONSchema
  ? Closed<S> extends infer C extends JSONSchema
    ? FromSchema<C> extends infer A extends Record<string, unknown>
      ? A
      : Record<string, unknown>
    : Record<string, unknown>
  : Record<string, unknown>;

/**
 * The argument type of tool `N`, from its `inputSchema` (closed to the declared fields unless the
 * schema sets `additionalProperties`); `Record<string, unknown>` when `N` is not a known literal
 * name or the tool has no `inputSchema`.
 *
 * @example
 * ```ts
 * import type { ToolArgs } from "mcpmock";
 * const tools = [
 *   { name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] } },
 * ] as const;
 * const args: ToolArgs<typeof tools, "get_weather"> = { city: "Paris", days: 3 }; // { city: string; days?: number }
 * ```
 * @useDeclaredType
 * @category Stubbing
 */
export type ToolArgs<T extends readonly ToolDeclaration[], N> = string extends N
  ? Record<string, unknown>
  : Find<T, N> extends { readonly inputSchema: infer S }
    ? ArgsOf<S>
    : Record<string, unknown>;

/**
 * What `respondsWith` takes for tool `N`: with an `outputSchema`, its type (or a whole result, content, text).
 * `unknown` when `N` is not a known literal name or the tool has no `outputSchema`.
 *
 * @example
 * ```ts
 * import type { ToolPayload } from "mcpmock";
 * const tools = [
 *   { name: "get_weather", outputSchema: { type: "object", properties: { temperature: { type: "number" } }, required: ["temperature"] } },
 * ] as const;
 * const payload: ToolPayload<typeof tools, "get_weather"> = { temperature: 21 }; // or a CallToolResult, content blocks, text
 * ```
 * @useDeclaredType
 * @category Stubbing
 */
export type ToolPayload<T extends readonly ToolDeclaration[], N> = string extends N
  ? unknown
  : Find<T, N> extends { readonly outputSchema: infer O }
    ? O extends JSONSchema
      ? FromSchema<O> | CallToolResult | ContentBlock | ContentBlock[] | string
      : unknown
    : unknown;

/**
 * A tool call as a response function sees it, with typed arguments.
 *
 * @example
 * ```ts
 * import { McpMock, type ToolCall } from "mcpmock";
 * await using mock = await McpMock.start({
 *   tools: [{ name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
 * });
 * const forecast = (call: ToolCall<{ city: string }>) => `Sunny in ${call.args.city}`;
 * mock.toolsCall("get_weather").respondsWith(forecast);
 * ```
 * @category Stubbing
 */
export type ToolCall<Args = Record<string, unknown>> = Omit<McpCall, "args" | "name"> & {
  /** The tool arguments (`params.arguments`, `{}` when absent), typed from the tool's `inputSchema`. */
  readonly args: Args;
  /** The name of the tool called (`params.name`). */
  readonly name: string;
};

/**
 * A value where a pattern may stand for any field at any depth: `ANY`, a RegExp or
 * `contains(text)` for a string, `ABSENT` for a field that must not be there:
 * `withArgs({ city: ANY, query: /^w/, page: ABSENT })`.
 *
 * @example
 * ```ts
 * import { ANY, McpMock, contains, type ToolArgs, type WithAny } from "mcpmock";
 * const tools = [{ name: "search", inputSchema: { type: "object", properties: { query: { type: "string" }, page: { type: "integer" } } } }] as const;
 * await using mock = await McpMock.start({ tools });
 * const weatherOnAnyPage: WithAny<ToolArgs<typeof tools, "search">> = { query: contains("weather"), page: ANY };
 * mock.toolsCall("search").withArgs(weatherOnAnyPage).respondsWith({ hits: 3 });
 * ```
 * @category Stubbing
 */
export type WithAny<T> = T extends readonly (infer U)[]
  ? readonly WithAny<U>[] | ValuePattern
  : T extends object
    ? { readonly [K in keyof T]: WithAny<T[K]> | ValuePattern }
    : T | ValuePattern;

/**
 * A deep partial, for `withArgsMatching`.
 *
 * @example
 * ```ts
 * import { McpMock, type DeepPartial, type ToolArgs } from "mcpmock";
 * const tools = [
 *   { name: "order", inputSchema: { type: "object", properties: { customer: { type: "object", properties: { name: { type: "string" }, tier: { type: "string" } } } } } },
 * ] as const;
 * await using mock = await McpMock.start({ tools });
 * const goldCustomer: DeepPartial<ToolArgs<typeof tools, "order">> = { customer: { tier: "gold" } };
 * mock.toolsCall("order").withArgsMatching(goldCustomer).respondsWith("free shipping");
 * ```
 * @category Stubbing
 */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? readonly DeepPartial<U>[]
  : T extends object
    ? { readonly [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * What `McpMock.fromDefinition` takes besides a file name and a `MockDefinition`: an `as const`
 * definition (its `tools` type the mock), or a definition imported as JSON, whose strings TypeScript
 * widens (checked when it loads, as a file is).
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * const tools = [{ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" } } } }] as const;
 * await using mock = await McpMock.fromDefinition({ tools, responses: [{ tool: "add", result: 1 }] } as const);
 * mock.toolsCall("add").withArgs({ a: 1 }); // typed from the definition's tools
 * ```
 * @category Definitions
 */
export type DefinitionInput<T extends readonly ToolDeclaration[] = readonly ToolDeclaration[]> =
  | {
      /** The tools the definition declares: an `as const` tuple types the mock. */
      readonly tools?: T;
      readonly [field: string]: unknown;
    }
  | { readonly [field: string]: unknown };
