/**
 * What the other front ends (definition files, the admin API) drive a running mock by: the
 * facade's operations, named here, below them. `McpMock` (the composition root) implements
 * it; nothing below the root imports the facade itself.
 * @module
 */
import type { ToolDeclaration } from "../stubs/tool-catalog.js";
import type { AppDeclaration } from "../stubs/app-catalog.js";
import type { SkillDeclaration } from "../stubs/skill-catalog.js";
import type { AnyResourceDeclaration } from "../stubs/resource-catalog.js";
import type { PromptDeclaration } from "../stubs/prompt-catalog.js";
import type { JournalEntry } from "../journal/entry.js";
import type { StubListing } from "../journal/stub-views.js";
import type { CountExpectation } from "../journal/verification.js";
import type { SessionInfo } from "../engine/views.js";
import type { PushOptions } from "../engine/operations.js";
import type { StubBuilder } from "./stub-builder.js";

/**
 * A running mock's declarations: what definitions declare and reloads change.
 */
export interface MockDeclarations {
  /**
   * Declares a tool while the mock runs (or replaces the one with the same name).
   *
   * @example
   * ```ts
   * mock.declareTool({ name: "late", inputSchema: { type: "object" } });
   * mock.toolsCall("late").respondsWith("here now");
   * ```
   */
  declareTool(tool: ToolDeclaration): void;

  /**
   * Removes a declared tool and its stubs; a later call to it gets `Unknown tool`.
   *
   * @example
   * ```ts
   * mock.removeTool("late");
   * ```
   */
  removeTool(name: string): boolean;

  /**
   * Declares a resource or a resource template while the mock runs; clients with an open GET
   * stream get `notifications/resources/list_changed`.
   *
   * @example
   * ```ts
   * mock.declareResource({ uri: "test://new", name: "new", text: "fresh" });
   * mock.declareResource({ uriTemplate: "test://items/{id}", name: "item" });
   * ```
   */
  declareResource(resource: AnyResourceDeclaration): void;

  /**
   * Declares an MCP App while the mock runs (or replaces the one with the same URI): its
   * `ui://` resource is served, and the ui extension advertised to clients that connect later.
   *
   * @example
   * ```ts
   * mock.declareApp({ uri: "ui://other/view.html", html: "<!doctype html><p>Other</p>" });
   * mock.declareApp({ uri: "ui://probe/view.html", probe: true });
   * ```
   */
  declareApp(app: AppDeclaration): void;

  /**
   * Declares a skill while the mock runs (the Skills extension), or replaces the one at the
   * same URI: its `SKILL.md` and files served under `skill://`, its entry answered by
   * `skills/list` and `skills/get`, and the extension advertised from then on. Every
   * problem is reported at once, with the fix.
   *
   * @example
   * ```ts
   * mock.declareSkill({ name: "git-workflow", description: "Follow the team's Git conventions", content: "# Git workflow\n\nBranch from main." });
   * ```
   */
  declareSkill(skill: SkillDeclaration): void;

  /**
   * Removes a declared resource (by URI) or template (by its template text).
   *
   * @example
   * ```ts
   * mock.removeResource("test://new");
   * ```
   */
  removeResource(uriOrTemplate: string): boolean;

  /**
   * Declares a prompt while the mock runs; clients with an open GET stream get
   * `notifications/prompts/list_changed`.
   *
   * @example
   * ```ts
   * mock.declarePrompt({ name: "summarize", arguments: [{ name: "text", required: true }] });
   * ```
   */
  declarePrompt(prompt: PromptDeclaration): void;

  /**
   * Removes a declared prompt and its stubs.
   *
   * @example
   * ```ts
   * mock.removePrompt("summarize");
   * ```
   */
  removePrompt(name: string): boolean;

  /**
   * Advertises an extension (SEP-2133) while the mock runs, with its settings:
   * `capabilities.extensions[id]` in later `initialize` and `server/discover` answers (or
   * replaces the settings of one already advertised).
   *
   * @example
   * ```ts
   * mock.declareExtension("com.example/feature", { level: 2 });
   * ```
   */
  declareExtension(id: string, settings?: Readonly<Record<string, unknown>>): void;

  /**
   * The names of the declared tools.
   *
   * @example
   * ```ts
   * console.log(mock.toolNames()); // ["add", "get_weather"]
   * ```
   */
  toolNames(): string[];
}

/**
 * A running mock, as the definition loader and the admin API use it. The documentation of
 * each member is written here once; `McpMock` implements it.
 */
export interface MockControl extends MockDeclarations {
  /** Every stub as data for listings (`McpMock.stubs`). */
  stubs(): StubListing[];

  /**
   * Removes one stub by id (built-in answers cannot be removed; override them instead).
   *
   * @example
   * ```ts
   * const stub = mock.toolsCall("add").respondsWith({ sum: 3 });
   * mock.removeStub(stub.id);
   * ```
   */
  removeStub(id: string): boolean;

  /**
   * Every message received and kept (requests, notifications, client responses), oldest first.
   * An answered entry is kept packed outside the heap; the first read makes it an object again
   * (equal to the entry as answered, not the object a listener or `waitFor()` had).
   *
   * @example
   * ```ts
   * for (const entry of mock.requests()) console.log(entry.seq, entry.method, entry.stubId);
   * ```
   */
  requests(): JournalEntry[];

  /**
   * The requests no stub answered (they got the mock's miss answer).
   *
   * @example
   * ```ts
   * console.log(mock.unmatched().map((e) => e.missReport).join("\n\n"));
   * ```
   */
  unmatched(): JournalEntry[];

  /**
   * The open sessions: what each client declared at initialize, the version negotiated, and
   * the log level it set.
   *
   * @example
   * ```ts
   * const [session] = mock.sessions();
   * console.log(session?.clientInfo, session?.clientCapabilities, session?.logLevel);
   * ```
   */
  sessions(): SessionInfo[];

  /**
   * Checks how often requests matching a pattern arrived: at least once by default, exactly
   * `n` for a number, or a count helper (`exactly`, `atLeast`, `atMost`, `never`). Throws a
   * {@link VerificationError} that shows the closest requests field by field; returns the
   * matching journal entries.
   *
   * @example
   * ```ts
   * import { toolsCall, atLeast } from "mcpmock";
   * mock.verify(toolsCall("add").withArgs({ a: 1, b: 2 }));
   * mock.verify(toolsCall("add"), 2);
   * mock.verify(toolsCall("add"), atLeast(1));
   * ```
   */
  verify(pattern: StubBuilder, count?: number | CountExpectation): JournalEntry[];

  /**
   * Removes every stub (the built-in answers stay), clears the journal and puts every
   * scenario back to `"Started"`. A mock started from a definition gets the definition's
   * stubs back. Sessions stay open. With `auth`, the auth events are cleared and the required
   * scopes are the configured ones again; issued tokens stay valid.
   *
   * @example
   * ```ts
   * afterEach(() => mock.reset());
   * ```
   */
  reset(): void;

  /** Pushes a notification on the GET streams (`McpMock.notify`). */
  notify(method: string, params?: Record<string, unknown>, options?: PushOptions): Promise<string[]>;
}
