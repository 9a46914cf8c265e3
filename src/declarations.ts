/**
 * Declarations: the tools a mock serves (and, later, resources and prompts), checked when
 * they are declared, with the fix in the message.
 * @module
 */
import { McpMockError, jsonTypeOf, showValue } from "./errors.js";
import { assertJsonCarriable } from "./json-value.js";
import { compileArgumentCheck, type ArgumentCheck } from "./schema-check.js";

/** A JSON Schema for tool input or output: MCP requires `type: "object"` at the root. */
export interface ObjectJsonSchema {
  readonly type: "object";
  readonly properties?: { readonly [key: string]: unknown };
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}

/**
 * A tool the mock serves, as `tools/list` lists it. Declare with `as const` (or inline in
 * `McpMock.start`) and stubs for it are typed from its schemas.
 *
 * @example
 * ```ts
 * import { McpMock, type ToolDeclaration } from "mcpmock";
 * const weather = {
 *   name: "get_weather",
 *   description: "Current weather for a city",
 *   inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
 * } as const satisfies ToolDeclaration;
 * await using mock = await McpMock.start({ tools: [weather] });
 * ```
 */
export interface ToolDeclaration {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** Defaults to `{ type: "object" }` (any arguments). */
  readonly inputSchema?: ObjectJsonSchema;
  /** With one, object payloads also go out as `structuredContent`. */
  readonly outputSchema?: ObjectJsonSchema;
  readonly annotations?: {
    readonly title?: string;
    readonly readOnlyHint?: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
    readonly openWorldHint?: boolean;
  };
  readonly icons?: readonly { readonly src: string; readonly mimeType?: string; readonly sizes?: readonly string[] }[];
  readonly execution?: { readonly taskSupport?: "forbidden" | "optional" | "required" };
  readonly _meta?: { readonly [key: string]: unknown };
}

interface DeclaredTool {
  readonly declaration: ToolDeclaration;
  readonly check: ArgumentCheck | undefined;
}

const NO_ARGS_SCHEMA = { type: "object" } as const;

/** The declared tools, in declaration order. */
export class ToolCatalog {
  #tools = new Map<string, DeclaredTool>();

  /** Declares a tool (or replaces one with the same name); throws at once on a broken declaration. */
  declare(tool: ToolDeclaration, where: string): void {
    checkToolDeclaration(tool, where);
    const schema = tool.inputSchema as Record<string, unknown> | undefined;
    const needsCheck = schema !== undefined && Object.keys(schema).some((k) => k !== "type" && k !== "$schema");
    const check = needsCheck ? compileArgumentCheck(schema, `${where}.inputSchema`) : undefined;
    if (tool.outputSchema) compileArgumentCheck(tool.outputSchema as Record<string, unknown>, `${where}.outputSchema`);
    this.#tools.set(tool.name, { declaration: tool, check });
  }

  remove(name: string): boolean {
    return this.#tools.delete(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  get(name: string): ToolDeclaration | undefined {
    return this.#tools.get(name)?.declaration;
  }

  check(name: string): ArgumentCheck | undefined {
    return this.#tools.get(name)?.check;
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  get size(): number {
    return this.#tools.size;
  }

  /** The tools as `tools/list` sends them. */
  listed(withOutputSchema: boolean): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    for (const { declaration } of this.#tools.values()) {
      const tool: Record<string, unknown> = { ...declaration, inputSchema: declaration.inputSchema ?? NO_ARGS_SCHEMA };
      if (!withOutputSchema) delete tool["outputSchema"];
      out.push(tool);
    }
    return out;
  }
}

function checkToolDeclaration(tool: ToolDeclaration, where: string): void {
  if (tool === null || typeof tool !== "object" || Array.isArray(tool)) {
    throw new McpMockError(`${where} must be an object like { name: "add", inputSchema: { type: "object" } }, received ${showValue(tool)}.`);
  }
  if (typeof tool.name !== "string" || tool.name.length === 0) {
    throw new McpMockError(`${where}.name must be a non-empty string, received ${showValue(tool.name)}. Every tool needs a name: { name: "add", ... }.`);
  }
  assertJsonCarriable(tool, where, "tool");
  for (const field of ["inputSchema", "outputSchema"] as const) {
    const schema = tool[field] as unknown;
    if (schema === undefined) continue;
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
      throw new McpMockError(`${where}.${field} must be a JSON Schema object like { type: "object", properties: { ... } }, received ${jsonTypeOf(schema)}.`);
    }
    const type = (schema as { type?: unknown }).type;
    if (type !== "object") {
      throw new McpMockError(
        `tool "${tool.name}": ${field} must have type "object" at its root (MCP requires it; clients reject other tools), received ${showValue(type ?? "no type")}. ` +
          `Wrap the value in an object: { type: "object", properties: { value: <your schema> } }.`,
      );
    }
  }
}
