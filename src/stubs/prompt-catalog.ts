/**
 * Prompts: declarations, the required-argument check, and prompt messages from a string.
 * @module
 */
import { assertIcons, type Icon } from "../protocol/icons.js";
import { isContentBlock, type ContentBlock } from "../protocol/content.js";
import { McpMockError, showValue } from "../values/errors.js";
import { assertJsonCarriable } from "../values/json-value.js";

/**
 * One argument a prompt takes.
 *
 * @example
 * ```ts
 * import { McpMock, type PromptArgument } from "mcpmock";
 * const args: PromptArgument[] = [{ name: "code", description: "The code to review", required: true }, { name: "language" }];
 * await using mock = await McpMock.start({ prompts: [{ name: "review", arguments: args }] });
 * ```
 * @category Starting
 */
export interface PromptArgument {
  /** The argument's name. */
  readonly name: string;
  /** What the argument is for. */
  readonly description?: string;
  /** A `prompts/get` without it is rejected. */
  readonly required?: boolean;
}

/**
 * A message of a prompt: a role and one content block.
 *
 * @example
 * ```ts
 * import { McpMock, text, type PromptMessage } from "mcpmock";
 * await using mock = await McpMock.start({ prompts: [{ name: "review" }] });
 * const messages: PromptMessage[] = [
 *   { role: "user", content: text("Review this code") },
 *   { role: "assistant", content: text("Sure: paste it.") },
 * ];
 * mock.promptsGet("review").respondsWith(messages);
 * ```
 * @category Starting
 */
export interface PromptMessage {
  /** Who says it: `"user"` or `"assistant"`. */
  role: "user" | "assistant";
  /** The message's content block (text, image, audio, resource link or embedded resource). */
  content: ContentBlock;
}

/**
 * A `prompts/get` result.
 *
 * @example
 * ```ts
 * import { McpMock, text, type GetPromptResult } from "mcpmock";
 * await using mock = await McpMock.start({ prompts: [{ name: "greet" }] });
 * const result: GetPromptResult = { description: "A greeting", messages: [{ role: "user", content: text("Hello") }] };
 * mock.promptsGet("greet").respondsWith(result);
 * ```
 * @category Starting
 */
export interface GetPromptResult {
  /** A description of the prompt, as filled in. */
  description?: string;
  /** The prompt's messages, in order. */
  messages: PromptMessage[];
  /** Extra metadata, passed through as is (MCP `_meta`). */
  _meta?: Record<string, unknown>;
}

/**
 * A prompt the mock serves, listed by `prompts/list`. With `messages`, a get with any
 * (valid) arguments is answered without a stub.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({
 *   prompts: [{ name: "greet", arguments: [{ name: "name", required: true }] }],
 * });
 * mock.promptsGet("greet").withArgs({ name: "Ada" }).respondsWith("Hello, Ada");
 * ```
 * @category Starting
 */
export interface PromptDeclaration {
  /** The prompt's name. */
  readonly name: string;
  /** Human-readable title (protocol 2025-06-18 and later). */
  readonly title?: string;
  /** What the prompt is for. */
  readonly description?: string;
  /** The arguments it takes. */
  readonly arguments?: readonly PromptArgument[];
  /** Icons (protocol 2025-11-25), checked when declared. */
  readonly icons?: readonly Icon[];
  /** Metadata passed through as is. */
  readonly _meta?: { readonly [key: string]: unknown };
  /** The default answer: a string (one user message) or prompt messages. */
  readonly messages?: string | readonly PromptMessage[];
}

/** The declared prompts, in declaration order. */
export class PromptCatalog {
  #prompts = new Map<string, PromptDeclaration>();

  /** Declares a prompt (replacing one with the same name); throws at once when broken. */
  declare(prompt: PromptDeclaration, where: string): void {
    if (prompt === null || typeof prompt !== "object" || typeof prompt.name !== "string" || prompt.name === "") {
      throw new McpMockError(`${where} must be an object with a name, like { name: "greet", arguments: [{ name: "name", required: true }] }, received ${showValue(prompt)}.`);
    }
    assertJsonCarriable(prompt, where, "prompt");
    assertIcons(prompt.icons, where);
    if (prompt.arguments !== undefined && (!Array.isArray(prompt.arguments) || prompt.arguments.some((a) => typeof a?.name !== "string"))) {
      throw new McpMockError(`${where}.arguments must be an array like [{ name: "city", required: true }].`);
    }
    if (prompt.messages !== undefined) toMessages(prompt.messages, `${where}.messages`);
    this.#prompts.set(prompt.name, prompt);
  }

  remove(name: string): boolean {
    return this.#prompts.delete(name);
  }

  has(name: string): boolean {
    return this.#prompts.has(name);
  }

  get(name: string): PromptDeclaration | undefined {
    return this.#prompts.get(name);
  }

  names(): string[] {
    return [...this.#prompts.keys()];
  }

  get size(): number {
    return this.#prompts.size;
  }

  /** Prompts as `prompts/list` sends them (without default messages). */
  listed(): Record<string, unknown>[] {
    return [...this.#prompts.values()].map(({ messages: _messages, ...listed }) => listed);
  }
}

/** The required arguments a call leaves out. */
export function missingArguments(prompt: PromptDeclaration, args: Record<string, unknown>): string[] {
  return (prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
}

/** Prompt messages from an answer: a string is one user text message; content blocks become user messages. */
export function toMessages(value: unknown, where: string): PromptMessage[] {
  if (typeof value === "string") return [{ role: "user", content: { type: "text", text: value } }];
  if (isContentBlock(value)) return [{ role: "user", content: value }];
  if (Array.isArray(value)) {
    return value.map((m, i) => {
      if (typeof m === "string") return { role: "user", content: { type: "text", text: m } };
      if (isContentBlock(m)) return { role: "user", content: m };
      const message = m as Partial<PromptMessage> | null;
      if (message && (message.role === "user" || message.role === "assistant") && isContentBlock(message.content)) return message as PromptMessage;
      throw new McpMockError(`${where}[${i}] must be a string or { role: "user" | "assistant", content: { type: "text", text } }, received ${showValue(m)}.`);
    });
  }
  throw new McpMockError(`${where} must be a string, a content block or an array of prompt messages, received ${showValue(value)}.`);
}

/** Whether a value is a whole `GetPromptResult` (an object with a `messages` array). */
export function isPromptResult(value: unknown): value is GetPromptResult {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Array.isArray((value as { messages?: unknown }).messages);
}
