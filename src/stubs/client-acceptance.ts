/**
 * What `strict: true` checks: that a client would accept an answer. The SDK's result schemas
 * (content shapes, result types: `protocol/result-schemas.ts`), and for a tool that declares an
 * `outputSchema` what the SDK client checks after them: a result that is not an error carries
 * `structuredContent`, and `structuredContent` matches the schema (otherwise the client fails
 * the call with -32600 or -32602). Constant answers are checked where the stub is written,
 * answers made by a call when they are made (`engine/answers.ts`).
 * @module
 */
import { assertValidResult } from "../protocol/result-schemas.js";
import { McpMockError, showValue } from "../values/errors.js";
import { showViolation, type ArgumentCheck } from "./schema-check.js";

/** The declared tool an answer is for: its name and its compiled `outputSchema`, if any. */
export interface AnsweredTool {
  readonly name: string;
  readonly outputCheck: ArgumentCheck | undefined;
}

/** Throws unless a client would accept `result` as the answer to `method` (and to `tool`, for a tool call). */
export function assertClientAccepts(method: string, result: unknown, where: string, tool?: AnsweredTool): void {
  assertValidResult(method, result, where);
  if (method !== "tools/call" || tool?.outputCheck === undefined) return;
  const { structuredContent, isError } = result as { structuredContent?: unknown; isError?: boolean };
  const fix = `\nFix the answer, or start the mock without strict: true to send it on purpose.`;
  if (structuredContent === undefined) {
    if (isError === true) return;
    throw new McpMockError(
      `${where}: tool "${tool.name}" declares an outputSchema, and the answer ${showValue(result, 160)} has no structuredContent, so SDK clients would reject it ` +
        `("has an output schema but did not return structured content"). Answer an object that matches the outputSchema (it goes out as structuredContent), ` +
        `a whole result with structuredContent, or an error ({ isError: true }).${fix}`,
    );
  }
  const violations = tool.outputCheck(structuredContent);
  if (violations.length === 0) return;
  throw new McpMockError(
    `${where}: the structuredContent ${showValue(structuredContent, 160)} does not match the outputSchema of tool "${tool.name}", so SDK clients would reject it:\n` +
      violations
        .slice(0, 5)
        .map((v) => `  - ${showViolation({ ...v, path: v.path.replace(/^args/, "structuredContent") })}`)
        .join("\n") +
      fix,
  );
}
