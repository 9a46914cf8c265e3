/**
 * What the mock does when a test (or a front end) changes it while it runs: declarations
 * added and removed (with `list_changed` pushed), stubs removed, pushes and server-to-client
 * requests checked and sent, and the engine's part of `reset()`. `McpMock` delegates here.
 * @module
 */
import type { MockCore } from "./core.js";
import type { ToolDeclaration } from "../stubs/tool-catalog.js";
import type { AnyResourceDeclaration } from "../stubs/resource-catalog.js";
import type { PromptDeclaration } from "../stubs/prompt-catalog.js";
import type { AppDeclaration } from "../stubs/app-catalog.js";
import type { SkillDeclaration } from "../stubs/skill-catalog.js";
import { McpMockError, showValue } from "../values/errors.js";
import { ELICITATION_COMPLETE } from "../protocol/url-elicitation.js";
import { assertJsonCarriable } from "../values/json-value.js";
import { extensionProblems } from "../protocol/extensions.js";

/** Options of a push or a server-to-client request: which session, how long to wait. */
export interface PushOptions {
  sessionId?: string;
  timeout?: number;
}

/** The engine's operations on a running mock. */
export class MockOperations {
  readonly #core: MockCore;

  constructor(core: MockCore) {
    this.#core = core;
  }

  declareTool(tool: ToolDeclaration): void {
    this.#core.tools.declare(tool, `declareTool(${JSON.stringify(tool?.name)})`);
    this.#core.push.listChanged("tools");
  }

  removeTool(name: string): boolean {
    this.#core.registry.removeWhere((s) => s.method === "tools/call" && s.key === name);
    const removed = this.#core.tools.remove(name);
    if (removed) this.#core.push.listChanged("tools");
    return removed;
  }

  declareResource(resource: AnyResourceDeclaration): void {
    this.#core.resources.declare(resource, "declareResource(...)");
    this.#core.push.listChanged("resources");
  }

  declareApp(app: AppDeclaration): void {
    const tools = this.#core.tools.size;
    this.#core.apps.declare(app, `declareApp(${JSON.stringify((app as { uri?: unknown } | null)?.uri)})`);
    this.#core.push.listChanged("resources");
    if (this.#core.tools.size !== tools) this.#core.push.listChanged("tools");
  }

  declareSkill(skill: SkillDeclaration): void {
    const where = `declareSkill(${JSON.stringify((skill as { name?: unknown } | null)?.name)})`;
    this.#core.skills.declare(skill, where);
    this.#core.push.listChanged("resources");
  }

  removeResource(uriOrTemplate: string): boolean {
    // An app's resource goes with its app.
    const removed = this.#core.apps.remove(uriOrTemplate) || this.#core.resources.remove(uriOrTemplate);
    if (removed) this.#core.push.listChanged("resources");
    return removed;
  }

  declarePrompt(prompt: PromptDeclaration): void {
    this.#core.prompts.declare(prompt, `declarePrompt(${JSON.stringify(prompt?.name)})`);
    this.#core.push.listChanged("prompts");
  }

  removePrompt(name: string): boolean {
    this.#core.registry.removeWhere((s) => s.method === "prompts/get" && s.key === name);
    const removed = this.#core.prompts.remove(name);
    if (removed) this.#core.push.listChanged("prompts");
    return removed;
  }

  declareExtension(id: string, settings: Readonly<Record<string, unknown>>): void {
    const problems = extensionProblems({ [id]: settings }, `declareExtension(${JSON.stringify(id)}, ...)`);
    if (problems.length > 0) throw new McpMockError(problems.join(" "));
    assertJsonCarriable(settings, `declareExtension(${JSON.stringify(id)}, ...)`, "settings");
    this.#core.extensions.set(id, settings);
  }

  /** Removes a user stub (a built-in answer cannot be removed; a stub overrides it instead). */
  removeStub(id: string): boolean {
    if (id.startsWith("default:")) return false;
    return this.#core.registry.remove(id);
  }

  /** Pushes a notification on the GET streams (and the matching `subscriptions/listen` streams). */
  notify(method: string, params: Record<string, unknown> | undefined, options: PushOptions): Promise<string[]> {
    if (typeof method !== "string" || method === "") throw new McpMockError(`notify takes a method name, like "notifications/message".`);
    if (params !== undefined) assertJsonCarriable(params, `notify(${JSON.stringify(method)}, ...)`, "params");
    return this.#core.push.notify(method, params, options.sessionId, options.timeout ?? 1000);
  }

  /** `notifications/elicitation/complete` for a URL elicitation the mock sent; an id it never sent is refused. */
  completeElicitation(elicitationId: string, options: PushOptions): Promise<string[]> {
    if (typeof elicitationId !== "string" || !this.#core.requests.sentElicitation(elicitationId)) {
      const sent = this.#core.requests.elicitationIds();
      throw new McpMockError(`completeElicitation(${showValue(elicitationId)}): no URL elicitation with this id was sent${sent.length ? ` (sent: ${sent.slice(-5).map((id) => JSON.stringify(id)).join(", ")})` : " (none yet)"}. Complete one the mock sent with elicitUrl(...), or send it on purpose with mock.notify("${ELICITATION_COMPLETE}", { elicitationId }).`);
    }
    return this.notify(ELICITATION_COMPLETE, { elicitationId }, options);
  }

  /** Sends a server-to-client request and resolves with the client's result. */
  request(method: string, params: Record<string, unknown> | undefined, options: PushOptions): Promise<unknown> {
    if (typeof method !== "string" || method === "") throw new McpMockError(`request takes a method name, like "roots/list".`);
    if (params !== undefined) assertJsonCarriable(params, `request(${JSON.stringify(method)}, ...)`, "params");
    return this.#core.push.ask(method, params, options.sessionId, options.timeout);
  }

  /** The engine's part of `reset()`: no user stubs, an empty journal, every scenario `"Started"`, the seed again, misses no longer allowed. */
  reset(): void {
    this.#core.resetStubs();
    this.#core.journal.clear();
    this.#core.apps.events.clear();
    this.#core.resetScenarios();
    this.#core.reseed();
    this.#core.journal.missesExpected = false;
  }
}
