/**
 * Differential test: `classifyMessage` must accept exactly what the SDK's strict
 * `JSONRPCMessageSchema` accepts, and give the kind of the one sub-schema that accepts it.
 */
import {
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { classifyMessage, encodeResult, resultResponse, type ClassifiedMessage } from "../src/protocol/jsonrpc.js";

type Kind = ClassifiedMessage["kind"];

interface Case {
  readonly name: string;
  readonly value: unknown;
  /** The kind the SDK gives this value (checked against the SDK too, so the corpus cannot rot). */
  readonly sdk: Kind;
}

/** A value the two disagree on: the SDK's answer, and why classifyMessage differs. */
interface Disagreement extends Case {
  /** What classifyMessage answers today. */
  readonly ours: Kind;
  readonly why: string;
}

const RELATED_TASK = "io.modelcontextprotocol/related-task";
const UNSAFE_INT = Number.MAX_SAFE_INTEGER + 1; // 2^53: an integer, but not a safe one

function nullProto(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.assign(Object.create(null) as Record<string, unknown>, fields);
}

const corpus: readonly Case[] = [
  // ── valid requests ──────────────────────────────────────────────────────────────────
  { name: "request, string id, no params", value: { jsonrpc: "2.0", id: "a-1", method: "ping" }, sdk: "request" },
  { name: "request, integer id, empty params", value: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, sdk: "request" },
  { name: "request, id 0", value: { jsonrpc: "2.0", id: 0, method: "ping" }, sdk: "request" },
  { name: "request, negative id", value: { jsonrpc: "2.0", id: -7, method: "ping" }, sdk: "request" },
  { name: "request, id -0", value: { jsonrpc: "2.0", id: -0, method: "ping" }, sdk: "request" },
  { name: "request, empty string id", value: { jsonrpc: "2.0", id: "", method: "ping" }, sdk: "request" },
  { name: "request, id MAX_SAFE_INTEGER", value: { jsonrpc: "2.0", id: Number.MAX_SAFE_INTEGER, method: "ping" }, sdk: "request" },
  { name: "request, empty method", value: { jsonrpc: "2.0", id: 2, method: "" }, sdk: "request" },
  {
    name: "request, params with extra keys",
    value: { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "add", arguments: { a: 1, b: [1, 2] } } },
    sdk: "request",
  },
  {
    name: "request, string progressToken",
    value: { jsonrpc: "2.0", id: 4, method: "tools/call", params: { _meta: { progressToken: "p" } } },
    sdk: "request",
  },
  {
    name: "request, integer progressToken and extra _meta keys",
    value: { jsonrpc: "2.0", id: 5, method: "tools/call", params: { _meta: { progressToken: 9, "x/y": [1] } } },
    sdk: "request",
  },
  { name: "request, empty _meta", value: { jsonrpc: "2.0", id: 6, method: "x", params: { _meta: {} } }, sdk: "request" },
  {
    name: "request, well-formed related-task _meta",
    value: { jsonrpc: "2.0", id: 7, method: "x", params: { _meta: { [RELATED_TASK]: { taskId: "t1" } } } },
    sdk: "request",
  },
  { name: "request, null-prototype object", value: nullProto({ jsonrpc: "2.0", id: 8, method: "ping" }), sdk: "request" },
  {
    name: "request, null-prototype params",
    value: { jsonrpc: "2.0", id: 9, method: "ping", params: nullProto({ a: 1 }) },
    sdk: "request",
  },

  // ── valid notifications ─────────────────────────────────────────────────────────────
  { name: "notification, no params", value: { jsonrpc: "2.0", method: "notifications/initialized" }, sdk: "notification" },
  { name: "notification, empty params", value: { jsonrpc: "2.0", method: "notifications/x", params: {} }, sdk: "notification" },
  {
    name: "notification, _meta progressToken",
    value: { jsonrpc: "2.0", method: "notifications/x", params: { _meta: { progressToken: "t" } } },
    sdk: "notification",
  },
  {
    // A float progressToken outside _meta is just a loose params field.
    name: "notification, float progressToken outside _meta",
    value: { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1.5, progress: 0.5 } },
    sdk: "notification",
  },
  {
    name: "notification, params key present but undefined",
    value: { jsonrpc: "2.0", method: "notifications/x", params: undefined },
    sdk: "notification",
  },

  // ── valid result responses ──────────────────────────────────────────────────────────
  { name: "response, empty result", value: { jsonrpc: "2.0", id: 1, result: {} }, sdk: "response" },
  {
    name: "response, string id, content",
    value: { jsonrpc: "2.0", id: "abc", result: { content: [{ type: "text", text: "hi" }] } },
    sdk: "response",
  },
  { name: "response, id 0", value: { jsonrpc: "2.0", id: 0, result: { ok: true } }, sdk: "response" },
  { name: "response, result with empty _meta", value: { jsonrpc: "2.0", id: 2, result: { _meta: {} } }, sdk: "response" },
  {
    name: "response, result with string progressToken in _meta",
    value: { jsonrpc: "2.0", id: 3, result: { _meta: { progressToken: "x" }, data: [[1], [2]] } },
    sdk: "response",
  },
  { name: "response, null-prototype result", value: { jsonrpc: "2.0", id: 4, result: nullProto({ a: 1 }) }, sdk: "response" },

  // ── valid error responses ───────────────────────────────────────────────────────────
  {
    name: "error response, integer id",
    value: { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } },
    sdk: "error-response",
  },
  {
    name: "error response, no id",
    value: { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } },
    sdk: "error-response",
  },
  {
    name: "error response, string id, data",
    value: { jsonrpc: "2.0", id: "q", error: { code: -32602, message: "bad", data: { field: "a" } } },
    sdk: "error-response",
  },
  { name: "error response, id 0, code 0", value: { jsonrpc: "2.0", id: 0, error: { code: 0, message: "" } }, sdk: "error-response" },
  {
    name: "error response, data null",
    value: { jsonrpc: "2.0", id: 2, error: { code: 1, message: "m", data: null } },
    sdk: "error-response",
  },
  {
    // The SDK's error object is not strict: unknown keys inside it are stripped, not rejected.
    name: "error response, extra key inside error",
    value: { jsonrpc: "2.0", id: 3, error: { code: 1, message: "m", extra: true } },
    sdk: "error-response",
  },
  {
    name: "error response, id key present but undefined",
    value: { jsonrpc: "2.0", id: undefined, error: { code: 1, message: "m" } },
    sdk: "error-response",
  },

  // ── invalid: ids ────────────────────────────────────────────────────────────────────
  { name: "request, id null", value: { jsonrpc: "2.0", id: null, method: "ping" }, sdk: "invalid" },
  { name: "request, id 1.5", value: { jsonrpc: "2.0", id: 1.5, method: "ping" }, sdk: "invalid" },
  { name: "request, id true", value: { jsonrpc: "2.0", id: true, method: "ping" }, sdk: "invalid" },
  { name: "request, id object", value: { jsonrpc: "2.0", id: {}, method: "ping" }, sdk: "invalid" },
  { name: "request, id array", value: { jsonrpc: "2.0", id: [1], method: "ping" }, sdk: "invalid" },
  { name: "request, id NaN", value: { jsonrpc: "2.0", id: Number.NaN, method: "ping" }, sdk: "invalid" },
  { name: "request, id Infinity", value: { jsonrpc: "2.0", id: Number.POSITIVE_INFINITY, method: "ping" }, sdk: "invalid" },
  { name: "request, id key present but undefined", value: { jsonrpc: "2.0", id: undefined, method: "ping" }, sdk: "invalid" },
  { name: "response, id null", value: { jsonrpc: "2.0", id: null, result: {} }, sdk: "invalid" },
  { name: "response, no id", value: { jsonrpc: "2.0", result: {} }, sdk: "invalid" },
  { name: "response, id 2.5", value: { jsonrpc: "2.0", id: 2.5, result: {} }, sdk: "invalid" },
  { name: "error response, id null", value: { jsonrpc: "2.0", id: null, error: { code: 1, message: "m" } }, sdk: "invalid" },
  { name: "error response, id 0.5", value: { jsonrpc: "2.0", id: 0.5, error: { code: 1, message: "m" } }, sdk: "invalid" },

  // ── invalid: jsonrpc ────────────────────────────────────────────────────────────────
  { name: "request, missing jsonrpc", value: { id: 1, method: "ping" }, sdk: "invalid" },
  { name: "request, jsonrpc 1.0", value: { jsonrpc: "1.0", id: 1, method: "ping" }, sdk: "invalid" },
  { name: "request, jsonrpc number 2", value: { jsonrpc: 2, id: 1, method: "ping" }, sdk: "invalid" },
  { name: "notification, jsonrpc null", value: { jsonrpc: null, method: "x" }, sdk: "invalid" },
  { name: "response, missing jsonrpc", value: { id: 1, result: {} }, sdk: "invalid" },

  // ── invalid: unknown top-level keys ─────────────────────────────────────────────────
  { name: "request, unknown key", value: { jsonrpc: "2.0", id: 1, method: "ping", extra: 1 }, sdk: "invalid" },
  { name: "notification, unknown key", value: { jsonrpc: "2.0", method: "x", meta: {} }, sdk: "invalid" },
  { name: "response, unknown key", value: { jsonrpc: "2.0", id: 1, result: {}, extra: null }, sdk: "invalid" },
  { name: "error response, unknown key", value: { jsonrpc: "2.0", id: 1, error: { code: 1, message: "m" }, x: 0 }, sdk: "invalid" },
  {
    name: "response, unknown key present but undefined",
    value: { jsonrpc: "2.0", id: 1, result: {}, extra: undefined },
    sdk: "invalid",
  },
  {
    name: '"__proto__" own key from JSON.parse',
    value: JSON.parse('{"jsonrpc":"2.0","id":1,"method":"x","__proto__":{"a":1}}') as unknown,
    sdk: "invalid",
  },
  {
    name: "inherited enumerable key",
    value: Object.assign(Object.create({ extra: 1 }) as object, { jsonrpc: "2.0", id: 1, method: "x" }),
    sdk: "invalid",
  },

  // ── invalid: params ─────────────────────────────────────────────────────────────────
  { name: "request, params array", value: { jsonrpc: "2.0", id: 1, method: "x", params: [1, 2] }, sdk: "invalid" },
  { name: "request, params null", value: { jsonrpc: "2.0", id: 1, method: "x", params: null }, sdk: "invalid" },
  { name: "request, params string", value: { jsonrpc: "2.0", id: 1, method: "x", params: "a" }, sdk: "invalid" },
  { name: "notification, params number", value: { jsonrpc: "2.0", method: "x", params: 3 }, sdk: "invalid" },
  { name: "request, params function", value: { jsonrpc: "2.0", id: 1, method: "x", params: () => 1 }, sdk: "invalid" },
  { name: "request, params._meta string", value: { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: "m" } }, sdk: "invalid" },
  { name: "request, params._meta null", value: { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: null } }, sdk: "invalid" },
  { name: "notification, params._meta array", value: { jsonrpc: "2.0", method: "x", params: { _meta: [] } }, sdk: "invalid" },
  {
    name: "request, float progressToken",
    value: { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: { progressToken: 1.5 } } },
    sdk: "invalid",
  },
  {
    name: "notification, null progressToken",
    value: { jsonrpc: "2.0", method: "x", params: { _meta: { progressToken: null } } },
    sdk: "invalid",
  },
  {
    name: "request, boolean progressToken",
    value: { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: { progressToken: false } } },
    sdk: "invalid",
  },

  // ── invalid: result ─────────────────────────────────────────────────────────────────
  { name: "response, result array", value: { jsonrpc: "2.0", id: 1, result: [] }, sdk: "invalid" },
  { name: "response, result null", value: { jsonrpc: "2.0", id: 1, result: null }, sdk: "invalid" },
  { name: "response, result string", value: { jsonrpc: "2.0", id: 1, result: "ok" }, sdk: "invalid" },
  { name: "response, result number", value: { jsonrpc: "2.0", id: 1, result: 0 }, sdk: "invalid" },

  // ── invalid: error ──────────────────────────────────────────────────────────────────
  { name: "error without code", value: { jsonrpc: "2.0", id: 1, error: { message: "m" } }, sdk: "invalid" },
  { name: "error code float", value: { jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "m" } }, sdk: "invalid" },
  { name: "error code string", value: { jsonrpc: "2.0", id: 1, error: { code: "-32600", message: "m" } }, sdk: "invalid" },
  { name: "error without message", value: { jsonrpc: "2.0", id: 1, error: { code: 1 } }, sdk: "invalid" },
  { name: "error message number", value: { jsonrpc: "2.0", error: { code: 1, message: 7 } }, sdk: "invalid" },
  { name: "error null", value: { jsonrpc: "2.0", id: 1, error: null }, sdk: "invalid" },
  { name: "error string", value: { jsonrpc: "2.0", id: 1, error: "boom" }, sdk: "invalid" },
  { name: "error array", value: { jsonrpc: "2.0", id: 1, error: [1, "m"] }, sdk: "invalid" },

  // ── invalid: method ─────────────────────────────────────────────────────────────────
  { name: "request, method number", value: { jsonrpc: "2.0", id: 1, method: 5 }, sdk: "invalid" },
  { name: "notification, method null", value: { jsonrpc: "2.0", method: null }, sdk: "invalid" },
  { name: "notification, method object", value: { jsonrpc: "2.0", method: { name: "x" } }, sdk: "invalid" },
  { name: "method key present but undefined, with result", value: { jsonrpc: "2.0", id: 1, result: {}, method: undefined }, sdk: "invalid" },

  // ── invalid: mixed shapes ───────────────────────────────────────────────────────────
  { name: "both method and result", value: { jsonrpc: "2.0", id: 1, method: "x", result: {} }, sdk: "invalid" },
  { name: "both method and error", value: { jsonrpc: "2.0", id: 1, method: "x", error: { code: 1, message: "m" } }, sdk: "invalid" },
  { name: "both result and error", value: { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "m" } }, sdk: "invalid" },
  { name: "notification shape with result", value: { jsonrpc: "2.0", method: "x", result: {} }, sdk: "invalid" },
  { name: "empty object", value: {}, sdk: "invalid" },
  { name: "only jsonrpc", value: { jsonrpc: "2.0" }, sdk: "invalid" },
  { name: "jsonrpc and id only", value: { jsonrpc: "2.0", id: 1 }, sdk: "invalid" },
  { name: "Date instance", value: new Date(0), sdk: "invalid" },

  // ── invalid: not objects ────────────────────────────────────────────────────────────
  { name: "empty array", value: [], sdk: "invalid" },
  { name: "batch array of valid messages", value: [{ jsonrpc: "2.0", id: 1, method: "ping" }], sdk: "invalid" },
  { name: "number", value: 42, sdk: "invalid" },
  { name: "string", value: '{"jsonrpc":"2.0","id":1,"method":"ping"}', sdk: "invalid" },
  { name: "boolean", value: true, sdk: "invalid" },
  { name: "null", value: null, sdk: "invalid" },
  { name: "undefined", value: undefined, sdk: "invalid" },
];

/**
 * Values where classifyMessage and the SDK once disagreed (fixed bugs in src/protocol/jsonrpc.ts), kept as
 * regression cases. `ours` is what classifyMessage answered before the fix.
 */
const disagreements: readonly Disagreement[] = [
  // isRequestId uses Number.isInteger; the SDK's z.number().int() (zod 4) only takes *safe* integers.
  // 9007199254740993 is a valid JSON number a peer can send; JSON.parse gives 2^53.
  {
    name: "request, id 2^53 (unsafe integer)",
    value: { jsonrpc: "2.0", id: UNSAFE_INT, method: "ping" },
    sdk: "invalid",
    ours: "request",
    why: "isRequestId accepts integers beyond Number.MAX_SAFE_INTEGER",
  },
  {
    name: "response, id parsed from 9007199254740993",
    value: JSON.parse('{"jsonrpc":"2.0","id":9007199254740993,"result":{}}') as unknown,
    sdk: "invalid",
    ours: "response",
    why: "isRequestId accepts integers beyond Number.MAX_SAFE_INTEGER",
  },
  {
    name: "error response, id -1e21",
    value: { jsonrpc: "2.0", id: -1e21, error: { code: 1, message: "m" } },
    sdk: "invalid",
    ours: "error-response",
    why: "isRequestId accepts integers beyond Number.MAX_SAFE_INTEGER",
  },
  {
    name: "request, progressToken 2^53",
    value: { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: { progressToken: UNSAFE_INT } } },
    sdk: "invalid",
    ours: "request",
    why: "progressToken is checked with isRequestId, which accepts unsafe integers",
  },
  {
    name: "error response, code 2^53",
    value: { jsonrpc: "2.0", id: 1, error: { code: UNSAFE_INT, message: "m" } },
    sdk: "invalid",
    ours: "error-response",
    why: "error.code is checked with Number.isInteger, the SDK wants a safe integer",
  },
  // The SDK's ResultSchema has `_meta: RequestMetaSchema.optional()`; classifyMessage never looks inside result.
  {
    name: "response, result._meta a string",
    value: { jsonrpc: "2.0", id: 1, result: { _meta: "m" } },
    sdk: "invalid",
    ours: "response",
    why: "result._meta is not checked",
  },
  {
    name: "response, result._meta null",
    value: { jsonrpc: "2.0", id: 1, result: { _meta: null } },
    sdk: "invalid",
    ours: "response",
    why: "result._meta is not checked",
  },
  {
    name: "response, result._meta.progressToken a float",
    value: { jsonrpc: "2.0", id: 1, result: { _meta: { progressToken: 1.5 } } },
    sdk: "invalid",
    ours: "response",
    why: "result._meta is not checked",
  },
  // RequestMetaSchema also types `io.modelcontextprotocol/related-task` as { taskId: string }.
  {
    name: "request, related-task _meta without taskId",
    value: { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: { [RELATED_TASK]: {} } } },
    sdk: "invalid",
    ours: "request",
    why: `params._meta["${RELATED_TASK}"] is not checked`,
  },
  {
    name: "notification, related-task taskId a number",
    value: { jsonrpc: "2.0", method: "x", params: { _meta: { [RELATED_TASK]: { taskId: 1 } } } },
    sdk: "invalid",
    ours: "notification",
    why: `params._meta["${RELATED_TASK}"] is not checked`,
  },
];

/** The kind of the one SDK sub-schema that accepts `value` ("invalid" if none). */
function sdkKind(value: unknown): Kind {
  const accepted: Kind[] = [];
  if (JSONRPCRequestSchema.safeParse(value).success) accepted.push("request");
  if (JSONRPCNotificationSchema.safeParse(value).success) accepted.push("notification");
  if (JSONRPCResultResponseSchema.safeParse(value).success) accepted.push("response");
  if (JSONRPCErrorResponseSchema.safeParse(value).success) accepted.push("error-response");
  expect(accepted.length, `more than one SDK sub-schema accepts it: ${accepted.join(", ")}`).toBeLessThanOrEqual(1);
  return accepted[0] ?? "invalid";
}

describe("the corpus", () => {
  test("is big and covers every kind", () => {
    expect(corpus.length + disagreements.length).toBeGreaterThanOrEqual(60);
    const kinds = new Set(corpus.map((c) => c.sdk));
    expect([...kinds].sort()).toEqual(["error-response", "invalid", "notification", "request", "response"]);
    expect(new Set([...corpus, ...disagreements].map((c) => c.name)).size).toBe(corpus.length + disagreements.length);
  });

  test.each([...corpus, ...disagreements])("the SDK classifies $name as $sdk", ({ value, sdk }) => {
    expect(sdkKind(value)).toBe(sdk);
    expect(JSONRPCMessageSchema.safeParse(value).success).toBe(sdk !== "invalid");
  });
});

describe("classifyMessage agrees with JSONRPCMessageSchema", () => {
  test.each(corpus)("$name", ({ value }) => {
    const ours = classifyMessage(value);
    expect(ours.kind !== "invalid").toBe(JSONRPCMessageSchema.safeParse(value).success);
    expect(ours.kind).toBe(sdkKind(value));
  });

  // Cases that once disagreed (see `why`): they stay as regression tests.
  test.each(disagreements)("$name (was: $why)", ({ value }) => {
    const ours = classifyMessage(value);
    expect(ours.kind !== "invalid").toBe(JSONRPCMessageSchema.safeParse(value).success);
    expect(ours.kind).toBe(sdkKind(value));
  });
});

describe("classifyMessage results", () => {
  test.each([...corpus, ...disagreements].filter((c) => classifyMessage(c.value).kind === "invalid"))(
    "$name has a human reason",
    ({ value }) => {
      const result = classifyMessage(value);
      if (result.kind !== "invalid") throw new Error(`expected invalid, got ${result.kind}`);
      expect(typeof result.reason).toBe("string");
      expect(result.reason.trim().length).toBeGreaterThan(5);
      expect(result.reason).not.toMatch(/\[object /);
    },
  );

  test("reasons name the offending field", () => {
    const reason = (v: unknown): string => {
      const r = classifyMessage(v);
      return r.kind === "invalid" ? r.reason : `not invalid: ${r.kind}`;
    };
    expect(reason({ jsonrpc: "2.0", id: null, method: "x" })).toBe('"id" must be a string or an integer, received null');
    expect(reason({ jsonrpc: "2.0", id: 1.5, method: "x" })).toBe('"id" must be a string or an integer, received 1.5 (number)');
    expect(reason({ jsonrpc: "2.0", result: {} })).toBe('"id" must be a string or an integer, received nothing');
    expect(reason({ id: 1, method: "x" })).toBe('"jsonrpc" must be "2.0"');
    expect(reason({ jsonrpc: "2.0", id: 1, method: "x", extra: 1 })).toBe('unknown top-level key "extra"');
    expect(reason({ jsonrpc: "2.0", id: 1, method: "x", params: [1] })).toBe('"params" must be an object, received array');
    expect(reason({ jsonrpc: "2.0", method: "x", params: { _meta: 1 } })).toBe('"params._meta" must be an object, received number');
    expect(reason({ jsonrpc: "2.0", method: "x", params: { _meta: { progressToken: 1.5 } } })).toBe(
      '"params._meta.progressToken" must be a string or an integer, received number',
    );
    expect(reason({ jsonrpc: "2.0", id: 1, method: 5 })).toBe('"method" must be a string, received number');
    expect(reason({ jsonrpc: "2.0", id: 1, result: [] })).toBe('"result" must be an object');
    expect(reason({ jsonrpc: "2.0", error: { code: 1.5, message: "m" } })).toBe('"error" must be { code: integer, message: string, data? }');
    expect(reason([])).toBe("a message must be a JSON object, received array");
    expect(reason(null)).toBe("a message must be a JSON object, received null");
    expect(reason({ jsonrpc: "2.0", id: 1 })).toMatch(/needs "method".*"result" or "error"/);
  });

  test("params._meta that is not an object has a code a transport keys on (not its reason's text); no other problem has one", () => {
    const code = (v: unknown): string | undefined => {
      const r = classifyMessage(v);
      return r.kind === "invalid" ? (r.code ?? "none") : undefined;
    };
    expect(code({ jsonrpc: "2.0", id: 1, method: "x", params: { _meta: "m" } })).toBe("params-meta-not-object");
    expect(code({ jsonrpc: "2.0", method: "x", params: { _meta: [1] } })).toBe("params-meta-not-object");
    expect(code({ jsonrpc: "2.0", id: 1, method: "x", params: { _meta: { progressToken: 1.5 } } })).toBe("none");
    expect(code({ jsonrpc: "2.0", id: 1, method: "x", params: { _meta: { "io.modelcontextprotocol/related-task": 1 } } })).toBe("none");
    expect(code({ jsonrpc: "2.0", id: 1, method: "x", params: 3 })).toBe("none");
    expect(code({ jsonrpc: "2.0", id: 1, result: { _meta: 1 } })).toBe("none");
  });

  test("valid messages carry their parts", () => {
    expect(classifyMessage({ jsonrpc: "2.0", id: 0, method: "tools/call", params: { name: "a" } })).toEqual({
      kind: "request",
      id: 0,
      method: "tools/call",
      params: { name: "a" },
    });
    expect(classifyMessage({ jsonrpc: "2.0", method: "notifications/initialized" })).toEqual({
      kind: "notification",
      method: "notifications/initialized",
      params: undefined,
    });
    expect(classifyMessage({ jsonrpc: "2.0", id: "r", result: { ok: 1 } })).toEqual({ kind: "response", id: "r", result: { ok: 1 } });
    expect(classifyMessage({ jsonrpc: "2.0", error: { code: -1, message: "m", data: 2 } })).toEqual({
      kind: "error-response",
      id: undefined,
      error: { code: -1, message: "m", data: 2 },
    });
  });
});

describe("encodeResult", () => {
  test.each([0, 1, -7, 2 ** 53 - 1, 1.5, 1e21, -0, "", "abc", 'quote " and \\ backslash', "\u2028 \ud800"])("writes what JSON.stringify writes for id %j", (id) => {
    const result = { content: [{ type: "text", text: "ok" }] };
    expect(encodeResult(id, JSON.stringify(result))).toBe(JSON.stringify(resultResponse(id, result)));
  });
});
