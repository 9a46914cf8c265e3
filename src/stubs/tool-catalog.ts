/**
 * Declarations: the tools a mock serves (and, later, resources and prompts), checked when
 * they are declared, with the fix in the message.
 * @module
 */
import { assertIcons, type Icon } from "../protocol/icons.js";
import { McpMockError, jsonTypeOf, showValue } from "../values/errors.js";
import { assertJsonCarriable } from "../values/json-value.js";
import { compileArgumentCheck, type ArgumentCheck } from "./schema-check.js";
import { throwProblems, toolUiProblems, type ToolUi } from "./app-catalog.js";
import { FLAT_RESOURCE_URI_KEY } from "../protocol/apps.js";

/**
 * A JSON Schema for tool input or output: MCP requires `type: "object"` at the root.
 *
 * @example
 * ```ts
 * import { McpMock, type ObjectJsonSchema } from "mcpmock";
 * const inputSchema: ObjectJsonSchema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
 * await using mock = await McpMock.start({ tools: [{ name: "get_weather", inputSchema }] });
 * ```
 * @category Starting
 */
export interface ObjectJsonSchema {
  /** Always `"object"`: MCP requires an object at the root of tool schemas. */
  readonly type: "object";
  /** The schema of each property, by property name. */
  readonly properties?: { readonly [key: string]: unknown };
  /** The names of the properties that must be present. */
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
 * @category Starting
 */
export interface ToolDeclaration {
  /** The tool's unique name, as `tools/call` sends it in `params.name`. */
  readonly name: string;
  /** A human-readable display name (2025-06-18). */
  readonly title?: string;
  /** What the tool does, for the model and for people. */
  readonly description?: string;
  /** Defaults to `{ type: "object" }` (any arguments). */
  readonly inputSchema?: ObjectJsonSchema;
  /** With one, object payloads also go out as `structuredContent`. */
  readonly outputSchema?: ObjectJsonSchema;
  /** Behaviour hints for clients (2025-03-26); hints only, not guarantees. */
  readonly annotations?: {
    /** A human-readable display name for the tool. */
    readonly title?: string;
    /** The tool does not modify its environment. */
    readonly readOnlyHint?: boolean;
    /** The tool may make destructive updates (meaningful only when it is not read-only). */
    readonly destructiveHint?: boolean;
    /** Calling it again with the same arguments has no further effect. */
    readonly idempotentHint?: boolean;
    /** The tool may interact with an open world of external entities, such as the web. */
    readonly openWorldHint?: boolean;
  };
  /** Icons a client may show for the tool (2025-11-25), checked when declared. */
  readonly icons?: readonly Icon[];
  /** How the tool runs with tasks (2025-11-25). */
  readonly execution?: {
    /** Whether `tools/call` must not (`"forbidden"`), may (`"optional"`) or must (`"required"`) run it as a task. */
    readonly taskSupport?: "forbidden" | "optional" | "required";
  };
  /** Extra metadata, listed as is (MCP `_meta`). */
  readonly _meta?: { readonly [key: string]: unknown };
  /** The MCP App the tool opens, and who may call it (listed as `_meta.ui` and `_meta["ui/resourceUri"]`). */
  readonly ui?: ToolUi;
}

interface DeclaredTool {
  readonly declaration: ToolDeclaration;
  readonly check: ArgumentCheck | undefined;
  readonly outputCheck: ArgumentCheck | undefined;
}

const NO_ARGS_SCHEMA = { type: "object" } as const;
const TASK_SUPPORT: readonly string[] = ["forbidden", "optional", "required"];

/** The declared tools, in declaration order. */
export class ToolCatalog {
  #tools = new Map<string, DeclaredTool>();

  /** Declares a tool (or replaces one with the same name); throws at once on a broken declaration. */
  declare(tool: ToolDeclaration, where: string): void {
    checkToolDeclaration(tool, where);
    assertIcons(tool.icons, where);
    const schema = tool.inputSchema as Record<string, unknown> | undefined;
    const needsCheck = schema !== undefined && Object.keys(schema).some((k) => k !== "type" && k !== "$schema");
    const check = needsCheck ? compileArgumentCheck(schema, `${where}.inputSchema`) : undefined;
    const outputCheck = tool.outputSchema ? compileArgumentCheck(tool.outputSchema as Record<string, unknown>, `${where}.outputSchema`) : undefined;
    this.#tools.set(tool.name, { declaration: tool, check, outputCheck });
  }

  /** Removes a tool; whether there was one to remove. */
  remove(name: string): boolean {
    return this.#tools.delete(name);
  }

  /** Whether a tool with this name is declared. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** A tool's declaration, if it is declared. */
  get(name: string): ToolDeclaration | undefined {
    return this.#tools.get(name)?.declaration;
  }

  /** A tool's compiled `inputSchema` check; `undefined` without a schema or when it says no more than `type: "object"`. */
  check(name: string): ArgumentCheck | undefined {
    return this.#tools.get(name)?.check;
  }

  /** A tool's compiled `outputSchema` check (what a client checks `structuredContent` with); `undefined` without one. */
  outputCheck(name: string): ArgumentCheck | undefined {
    return this.#tools.get(name)?.outputCheck;
  }

  /** The declared tool names, in declaration order. */
  names(): string[] {
    return [...this.#tools.keys()];
  }

  /** How many tools are declared. */
  get size(): number {
    return this.#tools.size;
  }

  /** Whether a declared tool may run as a task (`execution.taskSupport` `"optional"` or `"required"`). */
  get taskCapable(): boolean {
    for (const { declaration } of this.#tools.values()) {
      const support = declaration.execution?.taskSupport;
      if (support === "optional" || support === "required") return true;
    }
    return false;
  }

  /** The `ui://` URIs the tools name (`ui.resourceUri`), with the tool names. */
  appLinks(): { tool: string; uri: string }[] {
    const out: { tool: string; uri: string }[] = [];
    for (const { declaration } of this.#tools.values()) if (declaration.ui?.resourceUri !== undefined) out.push({ tool: declaration.name, uri: declaration.ui.resourceUri });
    return out;
  }

  /** The tools as `tools/list` sends them; app-only tools (`ui.visibility: ["app"]`) only to a client with the ui extension. */
  listed(withOutputSchema: boolean, uiClient = true): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    for (const { declaration } of this.#tools.values()) {
      const { ui, ...rest } = declaration;
      if (ui?.visibility !== undefined && !uiClient && !ui.visibility.includes("model")) continue;
      const tool: Record<string, unknown> = { ...rest, inputSchema: declaration.inputSchema ?? NO_ARGS_SCHEMA };
      if (ui !== undefined) tool["_meta"] = { ...rest._meta, ui, ...(ui.resourceUri === undefined ? {} : { [FLAT_RESOURCE_URI_KEY]: ui.resourceUri }) };
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
  throwProblems(toolUiProblems(tool.ui, `${where}.ui`, undefined));
  const execution = tool.execution as unknown;
  if (execution !== undefined) {
    const support = (execution as { taskSupport?: unknown } | null)?.taskSupport;
    if (execution === null || typeof execution !== "object" || Array.isArray(execution) || (support !== undefined && !TASK_SUPPORT.includes(support as string))) {
      throw new McpMockError(`${where}.execution must be { taskSupport: "forbidden" | "optional" | "required" }, received ${showValue(execution)}.`);
    }
  }
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
