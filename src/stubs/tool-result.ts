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
