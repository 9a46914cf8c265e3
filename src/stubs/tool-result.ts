/**
 * Wrapping a tool payload into a `CallToolResult`, the way a real server would.
 * @module
 */
import { isContentBlock, type CallToolResult } from "../protocol/content.js";
import { withFields } from "../values/with-fields.js";

/** What wrapping depends on besides the payload. */
export interface WrapContext {
  readonly isError: boolean;
  /** The tool declares an `outputSchema` (so an object payload also goes out as `structuredContent`). */
  readonly hasOutputSchema: boolean;
  /** The negotiated revision carries `structuredContent`. */
  readonly structuredContent: boolean;
}

/** Whether a value is already a whole `CallToolResult` (an object with a `content` array). */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    Array.isArray((value as { content?: unknown }).content)
  );
}

/**
 * Wraps a payload: a `CallToolResult` passes as is; a content block or an array of them
 * becomes the content; a string becomes one text block; any other JSON becomes a text block
 * holding its JSON, plus `structuredContent` when the tool declares an `outputSchema`.
 */
export function wrapToolPayload(payload: unknown, ctx: WrapContext): CallToolResult {
  let result: CallToolResult;
  if (isCallToolResult(payload)) {
    result = payload;
  } else if (isContentBlock(payload)) {
    result = { content: [payload] };
  } else if (Array.isArray(payload) && payload.length > 0 && payload.every(isContentBlock)) {
    result = { content: payload };
  } else if (typeof payload === "string") {
    result = { content: [{ type: "text", text: payload }] };
  } else {
    result = { content: [{ type: "text", text: JSON.stringify(payload ?? null) }] };
    const object = payload !== null && typeof payload === "object" && !Array.isArray(payload);
    if (object && ctx.hasOutputSchema && ctx.structuredContent && !ctx.isError) {
      result.structuredContent = payload as Record<string, unknown>;
    }
  }
  return ctx.isError && result.isError !== true ? withFields(result, { isError: true }) : result;
}

/**
 * A tool result's JSON, byte for byte what `JSON.stringify(result)` writes, with its text blocks
 * written here: a function answer's result is serialized on every call, and a call into the
 * serializer for the few objects of `{ content: [{ type: "text", text }] }` costs more than
 * joining them (the text itself is still quoted by `JSON.stringify`).
 */
export function toolResultJson(result: unknown): string | undefined {
  if (!isPlainData(result)) return JSON.stringify(result);
  let out = "";
  for (const key in result) {
    if (!Object.hasOwn(result, key)) return JSON.stringify(result);
    const value = (result as Record<string, unknown>)[key];
    const text = key === "content" && Array.isArray(value) ? contentJson(value) : typeof value === "boolean" ? String(value) : JSON.stringify(value);
    if (text === undefined) continue;
    out += `${out === "" ? "{" : ","}${quotedKey(key)}:${text}`;
  }
  return out === "" ? "{}" : `${out}}`;
}

/** A key as a JSON string: the keys a tool result usually has without a call into the serializer. */
function quotedKey(key: string): string {
  switch (key) {
    case "content":
      return '"content"';
    case "structuredContent":
      return '"structuredContent"';
    case "isError":
      return '"isError"';
    case "resultType":
      return '"resultType"';
    default:
      return JSON.stringify(key);
  }
}

/** A content array's JSON: text blocks joined here, anything else by `JSON.stringify`. */
function contentJson(content: readonly unknown[]): string | undefined {
  if (Object.getPrototypeOf(content) !== Array.prototype) return JSON.stringify(content);
  let out = "[";
  for (let i = 0; i < content.length; i++) {
    const block = textBlockJson(content[i]);
    if (block === undefined) return JSON.stringify(content);
    out += i === 0 ? block : `,${block}`;
  }
  return `${out}]`;
}

/** `{"type":"text","text":…}` for a plain text block of just those two keys, in that order. */
function textBlockJson(block: unknown): string | undefined {
  if (!isPlainData(block)) return undefined;
  const { type, text } = block as { type?: unknown; text?: unknown };
  if (type !== "text" || typeof text !== "string") return undefined;
  let keys = 0;
  for (const key in block) {
    if ((keys === 0 && key !== "type") || !Object.hasOwn(block, key)) return undefined;
    keys++;
  }
  return keys === 2 ? `{"type":"text","text":${JSON.stringify(text)}}` : undefined;
}

/** An object literal's kind of object (or a null-prototype one) with no `toJSON`: `JSON.stringify` writes its own keys as they are. */
function isPlainData(value: unknown): value is object {
  if (value === null || typeof value !== "object") return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}
