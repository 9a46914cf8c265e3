/**
 * JSON-RPC envelopes: classifying a parsed value with the same rules as the SDK's strict
 * `JSONRPCMessageSchema` (a differential test keeps them equal), and building answers.
 * @module
 */
import { jsonTypeOf } from "../values/errors.js";
import { depthExceeds, isJsonObject, MAX_JSON_DEPTH } from "../values/json-value.js";

/**
 * A JSON-RPC request id.
 *
 * @example
 * ```ts
 * import { McpMock, type RequestId } from "mcpmock";
 * await using mock = await McpMock.start();
 * // ... the client under test sends requests ...
 * const ids: (RequestId | undefined)[] = mock.requests().map((entry) => entry.id); // the client's own ids (numbers or strings); undefined for notifications
 * ```
 * @category Stubbing
 */
export type RequestId = string | number;

/** A JSON-RPC error object. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC message the mock sends. */
export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: RequestId; result: unknown }
  | { jsonrpc: "2.0"; id?: RequestId | null; error: JsonRpcErrorObject };

/** A received message, classified. */
export type ClassifiedMessage =
  | { kind: "request"; id: RequestId; method: string; params: Record<string, unknown> | undefined }
  | { kind: "notification"; method: string; params: Record<string, unknown> | undefined }
  | { kind: "response"; id: RequestId; result: Record<string, unknown> }
  | { kind: "error-response"; id: RequestId | undefined; error: JsonRpcErrorObject }
  | { kind: "invalid"; reason: string; code?: InvalidCode };

/**
 * What is wrong with an invalid message, where a transport answers that problem its own way
 * (the reason is for people; this is for code): `"params-meta-not-object"`, `params._meta` is
 * not an object (a 2026-07-28 request's invalid envelope).
 */
export type InvalidCode = "params-meta-not-object";

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const NOTIFICATION_KEYS = new Set(["jsonrpc", "method", "params"]);
const RESULT_KEYS = new Set(["jsonrpc", "id", "result"]);
const ERROR_KEYS = new Set(["jsonrpc", "id", "error"]);

function isRequestId(v: unknown): v is RequestId {
  return typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v));
}

function extraKey(obj: Record<string, unknown>, allowed: Set<string>): string | undefined {
  for (const key in obj) if (!allowed.has(key)) return key;
  return undefined;
}

const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** The SDK's rules for `_meta` in params and results. */
function metaProblem(meta: unknown, where: string): string | undefined {
  if (meta === undefined) return undefined;
  if (!isJsonObject(meta)) return `"${where}._meta" must be an object, received ${jsonTypeOf(meta)}`;
  const token = meta["progressToken"];
  if (token !== undefined && !isRequestId(token)) {
    return `"${where}._meta.progressToken" must be a string or an integer, received ${jsonTypeOf(token)}`;
  }
  const task = meta[RELATED_TASK];
  if (task !== undefined && !(isJsonObject(task) && typeof task["taskId"] === "string")) {
    return `"${where}._meta['${RELATED_TASK}']" must be { taskId: string }`;
  }
  return undefined;
}

function paramsProblem(params: unknown): Extract<ClassifiedMessage, { kind: "invalid" }> | undefined {
  if (params === undefined) return undefined;
  if (!isJsonObject(params)) return { kind: "invalid", reason: `"params" must be an object, received ${jsonTypeOf(params)}` };
  const meta = params["_meta"];
  const reason = metaProblem(meta, "params");
  if (reason === undefined) return undefined;
  return meta === undefined || isJsonObject(meta) ? { kind: "invalid", reason } : { kind: "invalid", reason, code: "params-meta-not-object" };
}

/**
 * How deep a whole message may nest objects and arrays: the message, its params, then
 * arguments nested up to `MAX_JSON_DEPTH` (the limit of `withArgs`). Checked before anything
 * else reads the message, so nothing later (journal, reports, verification) meets a deeper value.
 */
export const MAX_MESSAGE_DEPTH = MAX_JSON_DEPTH + 2;

/** The reason a message too deep is refused. */
export const TOO_DEEP = `a message must not nest objects and arrays deeper than ${MAX_MESSAGE_DEPTH} levels (${MAX_JSON_DEPTH} within params.arguments); send a flatter value`;

/**
 * Classifies one parsed JSON value as a JSON-RPC message, or says why it is not one.
 * `textLength`, the length of the JSON text the value was parsed from, skips the depth walk
 * for short texts (a text nests at most half its length).
 */
export function classifyMessage(value: unknown, textLength = Infinity): ClassifiedMessage {
  if (textLength / 2 > MAX_MESSAGE_DEPTH && depthExceeds(value, MAX_MESSAGE_DEPTH)) return { kind: "invalid", reason: TOO_DEEP };
  if (!isJsonObject(value)) return { kind: "invalid", reason: `a message must be a JSON object, received ${jsonTypeOf(value)}` };
  if (value["jsonrpc"] !== "2.0") return { kind: "invalid", reason: `"jsonrpc" must be "2.0"` };
  if ("method" in value) {
    const method = value["method"];
    if (typeof method !== "string") return { kind: "invalid", reason: `"method" must be a string, received ${jsonTypeOf(method)}` };
    const problem = paramsProblem(value["params"]);
    if (problem) return problem;
    const params = value["params"] as Record<string, unknown> | undefined;
    if ("id" in value) {
      const id = value["id"];
      if (!isRequestId(id)) return { kind: "invalid", reason: `"id" must be a string or an integer, received ${showId(id)}` };
      const extra = extraKey(value, REQUEST_KEYS);
      if (extra) return { kind: "invalid", reason: `unknown top-level key "${extra}"` };
      return { kind: "request", id, method, params };
    }
    const extra = extraKey(value, NOTIFICATION_KEYS);
    if (extra) return { kind: "invalid", reason: `unknown top-level key "${extra}"` };
    return { kind: "notification", method, params };
  }
  if ("result" in value) {
    const id = value["id"];
    if (!isRequestId(id)) return { kind: "invalid", reason: `"id" must be a string or an integer, received ${showId(id)}` };
    if (!isJsonObject(value["result"])) return { kind: "invalid", reason: `"result" must be an object` };
    const problem = metaProblem(value["result"]["_meta"], "result");
    if (problem) return { kind: "invalid", reason: problem };
    const extra = extraKey(value, RESULT_KEYS);
    if (extra) return { kind: "invalid", reason: `unknown top-level key "${extra}"` };
    return { kind: "response", id, result: value["result"] };
  }
  if ("error" in value) {
    const id = value["id"];
    if (id !== undefined && !isRequestId(id)) {
      return { kind: "invalid", reason: `"id" must be a string or an integer, received ${showId(id)}` };
    }
    const error = value["error"];
    if (!isJsonObject(error) || !Number.isSafeInteger(error["code"]) || typeof error["message"] !== "string") {
      return { kind: "invalid", reason: `"error" must be { code: integer, message: string, data? }` };
    }
    const extra = extraKey(value, ERROR_KEYS);
    if (extra) return { kind: "invalid", reason: `unknown top-level key "${extra}"` };
    return { kind: "error-response", id, error: error as unknown as JsonRpcErrorObject };
  }
  return { kind: "invalid", reason: `a message needs "method" (request or notification), "result" or "error" (response)` };
}

function showId(id: unknown): string {
  return id === null ? "null" : id === undefined ? "nothing" : `${JSON.stringify(id)} (${jsonTypeOf(id)})`;
}

/** A result response. */
export function resultResponse(id: RequestId, result: unknown): JsonRpcResponse {
  return { jsonrpc: "2.0", id, result };
}

/** A result response's JSON from its result's JSON: what `JSON.stringify(resultResponse(id, result))` writes. */
export function encodeResult(id: RequestId, resultJson: string): string {
  // A finite number's JSON is its String() (and skips a call into the serializer).
  return `{"jsonrpc":"2.0","id":${typeof id === "number" && Number.isFinite(id) ? String(id) : JSON.stringify(id)},"result":${resultJson}}`;
}

/** An error response (`id: null` where the id could not be read, as the SDK writes it). */
export function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): JsonRpcResponse {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: "2.0", id, error };
}

/** Thrown by an answer to send a specific JSON-RPC error (e.g. -32602 for an invalid cursor). */
export class JsonRpcFailure extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}
