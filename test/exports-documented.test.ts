/**
 * Issue 43, item 2: every public export (of `mcpmock`, `mcpmock/vitest` and `mcpmock/recording`)
 * carries a doc comment with an `@example` and a task `@category`, the API reference's headings.
 * The exports that had no example when this test came are listed below: the list may only shrink
 * (a listed export that gains an example must leave it), and a new export without one fails.
 */
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, test } from "vitest";

const root = new URL("../", import.meta.url);
const ENTRIES = ["src/index.ts", "src/vitest/index.ts", "src/recording/index.ts"];
// The API reference's task headings (typedoc.json categoryOrder), and mcpmock/vitest's own.
const TASKS = ["Starting", "Stubbing", "Streams", "Verification", "Definitions", "Authorization", "Errors and protocol facts", "Test runners"];

/** Data shapes without an example yet (2026-12-05): documented, categorized, no `@example`. */
const WITHOUT_EXAMPLE = new Set(
  `ServerInfo IssueTokenOptions ClientProviderOptions IssuedToken TokenRequirements AuthEvent AuthEventPattern AuthEndpoint
  ObjectJsonSchema AnyResourceDeclaration ResourceContents ReadResourceResult PromptArgument PromptMessage GetPromptResult
  SessionIdGenerator AnyValue AbsentValue ContainsValue ValuePattern StreamOptions StatusOptions StreamCall LogLevel
  ToolAnswerOptions PromptAnswerOptions PromptPayload ReadAnswerOptions ReadPayload ReadItem ResourceReadCall CompletionPayload
  InitializeAnswerOptions TransportKind RequestId Answer ToolArgs ToolPayload ToolName ToolCall DeepPartial WithAny
  ResponseDefinition AnswerDefinition MatchingDefinition DataMatcher ModifierDefinition StepDefinition PromptDefinition
  TaskDefinition JournalEntry JournalKind ScenarioHandle SessionInfo Delay DelayDistribution FaultKind TaskStep
  TaskIdGenerator ContentBlock TextContent ImageContent AudioContent ResourceLinkContent EmbeddedResourceContent
  ContentAnnotations CallToolResult LATEST_PROTOCOL_VERSION STATELESS_PROTOCOL_VERSION SUPPORTED_PROTOCOL_VERSIONS
  McpTestFixtures`.split(/\s+/),
);

test("every public export has a doc comment with an example and a task category", () => {
  const files = ENTRIES.map((e) => fileURLToPath(new URL(e, root)));
  const program = ts.createProgram(files, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true });
  const checker = program.getTypeChecker();
  const problems: string[] = [];
  const stillWithout: string[] = [];
  let count = 0;
  for (const [i, file] of files.entries()) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file) as ts.SourceFile) as ts.Symbol;
    for (const exported of checker.getExportsOfModule(module)) {
      count++;
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const tags = (symbol.getDeclarations() ?? []).flatMap((d) => ts.getJSDocTags(d));
      const categories = tags.filter((t) => t.tagName.text === "category").map((t) => ts.getTextOfJSDocComment(t.comment)?.trim());
      const name = `${ENTRIES[i]}: ${exported.name}`;
      if (categories.length === 0 || !categories.every((c) => TASKS.includes(c as string))) problems.push(`${name}: no task @category (${categories.join(", ") || "none"})`);
      const example = tags.some((t) => t.tagName.text === "example");
      if (!example && !WITHOUT_EXAMPLE.has(exported.name)) problems.push(`${name}: no @example`);
      if (!example) stillWithout.push(exported.name);
    }
  }
  expect(count).toBeGreaterThan(140);
  expect(problems).toEqual([]);
  // A listed export that has its example now leaves the list.
  expect([...WITHOUT_EXAMPLE].filter((n) => !stillWithout.includes(n))).toEqual([]);
}, 120_000);
