/**
 * The SDK's result schemas, for the `strict` option: a stub whose answer a real client would
 * reject is refused where it is written. The SDK's schema module is heavy (about 180 ms to
 * load), so it is loaded on first use only. Which schema a method has, its descriptor says.
 * @module
 */
import { createRequire } from "node:module";
import { McpMockError, showValue } from "../values/errors.js";
import { RESULT_SCHEMA_BY_METHOD } from "./methods/index.js";

interface Schema {
  safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

const require = createRequire(import.meta.url);
let schemas: Record<string, Schema> | undefined;

/** The SDK schema a method's result must satisfy, if MCP defines the method. */
export function resultSchemaFor(method: string): Schema | undefined {
  const name = RESULT_SCHEMA_BY_METHOD.get(method);
  if (name === undefined) return undefined;
  schemas ??= require("@modelcontextprotocol/sdk/types.js") as Record<string, Schema>;
  return schemas[name];
}

/** Throws unless `result` is a valid result of `method` as the SDK client parses it. */
export function assertValidResult(method: string, result: unknown, where: string): void {
  const schema = resultSchemaFor(method);
  if (!schema) return;
  const parsed = schema.safeParse(result);
  if (parsed.success) return;
  const issues = (parsed.error?.issues ?? []).slice(0, 5).map((i) => `${["result", ...i.path.map(String)].join(".")}: ${i.message}`);
  throw new McpMockError(
    `${where}: the answer ${showValue(result, 160)} is not a valid ${method} result, so SDK clients would reject it:\n` +
      issues.map((i) => `  - ${i}`).join("\n") +
      `\nFix the answer, or start the mock without strict: true to send it on purpose.`,
  );
}
