/**
 * What a built-in answer is, and what it reads from the mock (the engine's core implements
 * {@link DefaultsSource}; the task methods' answers are the engine's tasks).
 * @module
 */
import type { McpCall } from "../../stubs/call.js";
import type { ResponsePlan } from "../../stubs/stub.js";
import type { ToolCatalog } from "../../stubs/tool-catalog.js";
import type { ResourceCatalog } from "../../stubs/resource-catalog.js";
import type { PromptCatalog } from "../../stubs/prompt-catalog.js";
import type { SessionStore } from "../session-store.js";

/** The built-in answers of the task methods (the engine's tasks implement them; each may throw a JSON-RPC failure). */
export interface TaskAnswers {
  get(call: McpCall): unknown;
  result(call: McpCall): unknown;
  list(call: McpCall): unknown;
  cancel(call: McpCall): unknown;
  update(call: McpCall): unknown;
}

/** The built-in answers of the Skills extension's methods (the engine's skills implement them; each may throw a JSON-RPC failure). */
export interface SkillAnswers {
  /** The listed skills' entries. */
  listed(): unknown[];
  /** `skills/get`'s result for a URI. */
  get(uri: unknown): unknown;
  /** `resources/directory/read`'s result for a URI and cursor. */
  directory(uri: unknown, cursor: unknown, pageSize: number): unknown;
}

/** What the built-in answers read from the mock (the engine implements it). */
export interface DefaultsSource {
  readonly tasks: TaskAnswers;
  readonly skills: SkillAnswers;
  readonly tools: ToolCatalog;
  readonly resources: ResourceCatalog;
  readonly prompts: PromptCatalog;
  readonly sessions: SessionStore;
  serverInfo(): Record<string, unknown>;
  instructions(): string | undefined;
  capabilities(): Record<string, unknown>;
  pageSize(): number;
  /** The stateless versions the mock accepts (`protocolVersions`), newest first. */
  statelessVersions(): readonly string[];
}

/** A built-in answer: a result (with the phrase `explain()` shows for it), or an error. */
export type BuiltInPlan =
  | { readonly kind: "result"; readonly label: string; readonly result: (call: McpCall) => unknown }
  | Extract<ResponsePlan, { kind: "error" }>;

/**
 * A method's built-in answer: the answer the mock gives when no user stub does, made once
 * per mock (and again on reset) from what the mock declares.
 */
export type BuiltInAnswer = (source: DefaultsSource) => BuiltInPlan;
