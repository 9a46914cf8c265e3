/**
 * A POST body read as JSON-RPC messages, or the rejection that says what is wrong with it:
 * the checks both HTTP endpoints share (Streamable HTTP's `/mcp` and the legacy `/messages`).
 * @module
 */
import type { Context } from "hono";
import { classifyMessage, type ClassifiedMessage } from "../../protocol/jsonrpc.js";
import { ErrorCodes, HeaderNames, STATELESS_PROTOCOL_VERSIONS } from "../../protocol/revisions.js";
import type { Classified } from "../transport.js";
import { header, readBody } from "./node-io.js";
import { Rejections } from "./rejections.js";

/** The SDK's batch limit. */
export const MAX_BATCH = 100;

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A body read and classified. */
export interface ReadMessages {
  readonly body: string;
  readonly messages: Classified[];
  readonly isBatch: boolean;
}

/** A rejection rather than a result (cheaper than `instanceof Response` on the hot path). */
export function isResponse(value: object): value is Response {
  return "status" in value && "headers" in value;
}

/** Content-Type (415), size (413), UTF-8 and JSON (400), batch limits and each message's shape (400). */
export async function readMessages(c: Context, maxBody: number): Promise<ReadMessages | Response> {
  const contentType = header(c, "content-type");
  // The usual header as is; anything else is parsed (parameters, case, spaces).
  if (contentType !== "application/json" && mediaTypeOf(contentType) !== "application/json") return Rejections.unsupportedMediaType();
  const bytes = await readBody(c, maxBody);
  if (bytes === "too-large") return Rejections.payloadTooLarge(maxBody);
  if (bytes === "cut") {
    // The rest of the body is never read, so this connection cannot carry another request.
    const response = Rejections.payloadTooLarge(maxBody);
    response.headers.set("connection", "close");
    return response;
  }
  let body: string;
  let parsed: unknown;
  try {
    body = UTF8.decode(bytes);
  } catch {
    return Rejections.invalidJson("The body is not valid UTF-8.");
  }
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    return Rejections.invalidJson(String((error as Error).message));
  }
  const isBatch = Array.isArray(parsed);
  const items: unknown[] = isBatch ? (parsed as unknown[]) : [parsed];
  if (isBatch && items.length === 0) return Rejections.emptyBatch();
  if (items.length > MAX_BATCH) return Rejections.batchTooLarge();
  const messages: Classified[] = [];
  for (let i = 0; i < items.length; i++) {
    const m = classifyMessage(items[i], body.length);
    if (m.kind === "invalid") return invalidEnvelope(c, items[i], m, isBatch) ?? Rejections.invalidMessage(isBatch ? `message [${i}]: ${m.reason}` : m.reason);
    messages.push(m);
  }
  return { body, messages, isBatch };
}

/**
 * A 2026-07-28 request (by its MCP-Protocol-Version header) whose `params._meta` is not an
 * object: an invalid envelope, answered 400 with -32602 echoing its id (that revision's errors
 * always echo it), not a parse error. `undefined` for anything else.
 */
function invalidEnvelope(c: Context, item: unknown, invalid: Extract<ClassifiedMessage, { kind: "invalid" }>, isBatch: boolean): Response | undefined {
  if (isBatch || invalid.code !== "params-meta-not-object") return undefined;
  const version = header(c, HeaderNames.protocolVersion);
  if (version === undefined || !STATELESS_PROTOCOL_VERSIONS.includes(version)) return undefined;
  const id = (item as { id?: unknown }).id;
  if (typeof id !== "string" && !Number.isSafeInteger(id)) return undefined;
  const error = { code: ErrorCodes.InvalidParams, message: `Invalid params: the per-request envelope _meta must be an object (${invalid.reason})`, data: { envelope: { key: "_meta", problem: "not an object" } } };
  return new Response(JSON.stringify({ jsonrpc: "2.0", id, error }), { status: 400, headers: { "content-type": "application/json" } });
}

/** The media type of a Content-Type header, without its parameters, in lower case. */
function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(";")[0]?.trim().toLowerCase();
}

/** A raw HTTP answer (`respondsWithStatus`). */
export function statusResponse(status: number, body: string | object | undefined, headers: Readonly<Record<string, string>> = {}): Response {
  if (body === undefined) return new Response(null, { status, headers });
  if (typeof body === "string") return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}
