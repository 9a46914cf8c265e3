/**
 * mcpmock: WireMock for the Model Context Protocol.
 *
 * ```ts
 * import { McpMock, ANY, text } from "mcpmock";
 * ```
 * @module
 */

// The mock and its options
export { McpMock } from "./mock.js";
export type { McpMockOptions, ServerInfo } from "./options.js";
export type { ToolDeclaration, ObjectJsonSchema } from "./declarations.js";
export type {
  ResourceDeclaration,
  ResourceTemplateDeclaration,
  AnyResourceDeclaration,
  ResourceContents,
  ReadResourceResult,
} from "./resources.js";
export type { PromptDeclaration, PromptArgument, PromptMessage, GetPromptResult } from "./prompts.js";
export type { SessionIdGenerator } from "./session.js";

// Stubbing
export { ANY, type AnyValue } from "./any.js";
export { StubBuilder, type StreamOptions } from "./builder.js";
export { StreamScriptBuilder, type StreamCall, type LogLevel } from "./stream-script.js";
export {
  ArgsBuilder,
  ToolCallBuilder,
  PromptGetBuilder,
  ResourceReadBuilder,
  CompletionBuilder,
  RequestBuilder,
  InitializeBuilder,
  DeleteSessionBuilder,
  OpenStreamBuilder,
  type ToolAnswerOptions,
  type PromptAnswerOptions,
  type PromptPayload,
  type ReadAnswerOptions,
  type ReadPayload,
  type ReadItem,
  type ResourceReadCall,
  type CompletionPayload,
  type InitializeAnswerOptions,
} from "./builders.js";
export { StubHandle } from "./handle.js";
export { McpCall, type RequestId, type TransportKind } from "./call.js";
export type { Answer } from "./stub.js";
export type { ToolArgs, ToolPayload, ToolName, ToolCall, DeepPartial, WithAny } from "./typed.js";

// Definition files
export {
  assertMockDefinition,
  type MockDefinition,
  type ResponseDefinition,
  type AnswerDefinition,
  type MatchingDefinition,
  type ModifierDefinition,
  type StepDefinition,
  type PromptDefinition,
} from "./definition.js";

// Verification and the journal
export {
  toolsCall,
  method,
  initialize,
  ping,
  toolsList,
  deleteSession,
  resourcesRead,
  promptsGet,
  completionComplete,
} from "./patterns.js";
export { exactly, atLeast, atMost, never, VerificationError, type CountExpectation } from "./verification.js";
export type { JournalEntry, JournalKind } from "./journal.js";
export type { ScenarioHandle, SessionInfo } from "./mock.js";
export type { Delay, DelayDistribution, FaultKind } from "./stub.js";

// Content
export {
  text,
  image,
  audio,
  resourceLink,
  embeddedResource,
  type ContentBlock,
  type TextContent,
  type ImageContent,
  type AudioContent,
  type ResourceLinkContent,
  type EmbeddedResourceContent,
  type ContentAnnotations,
  type CallToolResult,
} from "./content.js";

// Errors and protocol facts
export { McpMockError } from "./errors.js";
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "./protocol.js";
