/**
 * What the other front ends (definition files, the admin API) drive a running mock by: the
 * facade's operations, named here, below them. `McpMock` (the composition root) implements
 * it; nothing below the root imports the facade itself.
 * @module
 */
import type { ToolDeclaration } from "../stubs/tool-catalog.js";
import type { AnyResourceDeclaration } from "../stubs/resource-catalog.js";
import type { PromptDeclaration } from "../stubs/prompt-catalog.js";
import type { JournalEntry } from "../journal/entry.js";
import type { StubListing } from "../journal/stub-views.js";
import type { CountExpectation } from "../journal/verification.js";
import type { SessionInfo } from "../engine/views.js";
import type { PushOptions } from "../engine/operations.js";
import type { StubBuilder } from "./stub-builder.js";

/** A running mock's declarations: what definitions declare and reloads change. */
export interface MockDeclarations {
  declareTool(tool: ToolDeclaration): void;
  removeTool(name: string): boolean;
  declareResource(resource: AnyResourceDeclaration): void;
  removeResource(uriOrTemplate: string): boolean;
  declarePrompt(prompt: PromptDeclaration): void;
  removePrompt(name: string): boolean;
  toolNames(): string[];
}

/** A running mock, as the definition loader and the admin API use it. */
export interface MockControl extends MockDeclarations {
  stubs(): StubListing[];
  removeStub(id: string): boolean;
  requests(): JournalEntry[];
  unmatched(): JournalEntry[];
  sessions(): SessionInfo[];
  verify(pattern: StubBuilder, count?: number | CountExpectation): JournalEntry[];
  notify(method: string, params?: Record<string, unknown>, options?: PushOptions): Promise<string[]>;
  reset(): void;
}
