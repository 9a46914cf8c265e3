/**
 * The SDK's result schemas, for the `strict` option: a stub whose answer a real client would
 * reject is refused where it is written. The SDK's schema module is heavy (about 180 ms to
 * load), so it is loaded on first use only. Which schema a method has, its descriptor says.
 * @module
 */
import { createRequire } from "node:module";
import { McpMockError, showValue } from "../values/errors.js";
import { METHOD_BY_NAME, RESULT_SCHEMA_BY_METHOD } from "./methods/index.js";

interface Schema {
  safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

const require = createRequire(import.meta.url);
let schemas: Record<string, Schema> | undefined;

function schemaNamed(name: string | undefined): Schema | undefined {
  if (name === undefined) return undefined;
  schemas ??= require("@modelcontextprotocol/sdk/types.js") as Record<string, Schema>;
  return schemas[name];
}

/** The SDK schema a method's result must satisfy, if MCP defines the method and the mock answers it (a client request). */
export function resultSchemaFor(method: string): Schema | undefined {
  return schemaNamed(RESULT_SCHEMA_BY_METHOD.get(method));
}

/** The SDK schema a client's answer to a server-to-client request must satisfy (`elicitation/create`, `sampling/createMessage`, `roots/list`). */
export function answerSchemaFor(method: string): Schema | undefined {
  const descriptor = METHOD_BY_NAME.get(method);
  return schemaNamed(descriptor?.direction === "server-request" ? descriptor.resultSchema : undefined);
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
