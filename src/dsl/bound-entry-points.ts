/**
 * What McpMock's DSL entry points do: start a builder bound to the mock, after checking that
 * a stub names a declared tool or prompt (a typo fails at the DSL call, with the fix).
 * @module
 */
import { draft } from "./stub-builder.js";
import { CompletionBuilder, InitializeBuilder, OpenStreamBuilder, PromptGetBuilder, RequestBuilder, ToolCallBuilder } from "./method-builders.js";
import type { MockCore } from "../engine/core.js";
import { entryCall, HTTP_GET_STREAM } from "../protocol/entry-points.js";
import { McpMockError } from "../values/errors.js";
import { closestNames } from "../journal/explain.js";
import { entryDraft } from "./patterns.js";
import { isAny, type AnyValue } from "../values/any.js";

/** A stub may only name a declared tool or prompt: a typo fails here, with the fix. */
function assertDeclared(written: string, kind: "tool" | "prompt", name: string, declared: string[], startOption: string, declareMethod: string): void {
  if (declared.includes(name)) return;
  const similar = closestNames(name, declared);
  throw new McpMockError(
    `${written}: no ${kind} "${name}" is declared, so no client could ${kind === "tool" ? "call" : "get"} it. ` +
      (declared.length ? `Declared ${kind}s: ${declared.join(", ")}.` : `No ${kind}s are declared.`) +
      (similar.length ? ` Did you mean "${similar[0]}"?` : "") +
      ` Declare it first: McpMock.start({ ${startOption} }) or mock.${declareMethod}({ ... }).`,
  );
}

/** `mock.toolsCall(name?)`: any tool, or one declared tool. */
export function toolsCallOn(core: MockCore, name?: string | AnyValue): ToolCallBuilder<any, any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  if (name === undefined || isAny(name)) return new ToolCallBuilder(entryDraft("tools/call"), core);
  const written = entryCall("tools/call", name);
  if (typeof name !== "string") throw new McpMockError(`toolsCall takes a tool name (a string), received ${typeof name}.`);
  // In proxy mode the upstream may serve a tool the mock does not declare.
  if (core.proxied === undefined) assertDeclared(written, "tool", name, core.tools.names(), `tools: [{ name: ${JSON.stringify(name)}, inputSchema: { type: "object" } }]`, "declareTool");
  return new ToolCallBuilder(draft("tools/call", written, name), core);
}

/** `mock.promptsGet(name?)`: any prompt, or one declared prompt. */
export function promptsGetOn(core: MockCore, name?: string): PromptGetBuilder {
  if (name === undefined) return new PromptGetBuilder(entryDraft("prompts/get"), core);
  const written = entryCall("prompts/get", name);
  if (core.proxied === undefined) assertDeclared(written, "prompt", name, core.prompts.names(), `prompts: [{ name: ${JSON.stringify(name)} }]`, "declarePrompt");
  return new PromptGetBuilder(draft("prompts/get", written, name), core);
}

/** `mock.method(name)`: any JSON-RPC method, written as the caller wrote it. */
export function methodOn(core: MockCore, name: string, written = `method(${JSON.stringify(name)})`): RequestBuilder<Record<string, unknown>> {
  if (typeof name !== "string" || name === "") throw new McpMockError(`method takes a JSON-RPC method name, like "custom/thing".`);
  return new RequestBuilder(draft(name, written), core);
}

/** `mock.initialize()`. */
export function initializeOn(core: MockCore): InitializeBuilder {
  return new InitializeBuilder(entryDraft("initialize"), core);
}

/** `mock.completionComplete()`. */
export function completionCompleteOn(core: MockCore): CompletionBuilder {
  return new CompletionBuilder(entryDraft("completion/complete"), core);
}

/** `mock.openStream()`: the GET stream. */
export function openStreamOn(core: MockCore): OpenStreamBuilder {
  return new OpenStreamBuilder(entryDraft(HTTP_GET_STREAM), core);
}
