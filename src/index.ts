/**
 * mcpmock: WireMock for the Model Context Protocol.
 *
 * ```ts
 * import { McpMock, ANY, text } from "mcpmock";
 * ```
 * @module mcpmock
 */

// The mock and its options
export { McpMock } from "./mock.js";
export type { McpMockOptions, ProtocolVersion, ServerInfo } from "./options.js";
export type { AuthOptions, GrantType, PreRegisteredClient, TokenEndpointAuthMethod } from "./auth/auth-options.js";
export type { JwtBearerGrantOptions } from "./auth/jwt-bearer-grant.js";
export type { TokenExchangeGrantOptions } from "./auth/token-exchange-grant.js";
export type { DpopOptions } from "./auth/dpop.js";
export type { MockAuth, IssueTokenOptions } from "./auth/mock-auth.js";
export type { MockOAuthClientProvider, ClientProviderOptions } from "./auth/client-provider.js";
export type { IssuedToken } from "./auth/tokens.js";
export type { TokenRequirements } from "./auth/token-pattern.js";
export type { AuthEvent, AuthEventPattern, AuthEndpoint } from "./auth/auth-log.js";
export type { ToolDeclaration, ObjectJsonSchema } from "./stubs/tool-catalog.js";
export type {
  ResourceDeclaration,
  ResourceTemplateDeclaration,
  AnyResourceDeclaration,
  ResourceContents,
  ReadResourceResult,
} from "./stubs/resource-catalog.js";
export type { PromptDeclaration, PromptArgument, PromptMessage, GetPromptResult } from "./stubs/prompt-catalog.js";
export type { SessionIdGenerator } from "./options.js";

// Proxy mode
export type { ProxyTarget } from "./proxy-target.js";
export type { SnapshotOptions } from "./recording/snapshot.js";

// Stubbing
export { ANY, type AnyValue } from "./values/any.js";
export { ABSENT, contains, type AbsentValue, type ContainsValue, type ValuePattern } from "./values/value-patterns.js";
export { StubBuilder, type StreamOptions, type StatusOptions } from "./dsl/stub-builder.js";
export { StreamScriptBuilder, type StreamCall, type StreamValue, type StreamAnswers, type LogLevel, type ClientAnswer, type ClientResult, type AfterRequest, type AfterNamedRequests, type RequestsAnswers } from "./stubs/stream-script.js";
export {
  ArgsBuilder,
  ToolCallBuilder,
  type ToolStreamCall,
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
} from "./dsl/method-builders.js";
export { StubHandle } from "./dsl/stub-handle.js";
export { McpCall, type TransportKind } from "./stubs/call.js";
export type { RequestId } from "./protocol/jsonrpc.js";
export type { Answer } from "./stubs/answer.js";
export type { ToolArgs, ToolPayload, ToolName, ToolCall, DeepPartial, WithAny, DefinitionInput } from "./dsl/typed.js";

// Definition files
export { assertMockDefinition } from "./definition/validate.js";
export type {
  MockDefinition,
  ResponseDefinition,
  AnswerDefinition,
  MatchingDefinition,
  DataMatcher,
  ModifierDefinition,
  StepDefinition,
  PromptDefinition,
  TaskDefinition,
} from "./definition/format.js";

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
  tasksGet,
  tasksResult,
  tasksList,
  tasksCancel,
  serverDiscover,
  subscriptionsListen,
} from "./dsl/patterns.js";
export { exactly, atLeast, atMost, never, VerificationError, type CountExpectation } from "./journal/verification.js";
export type { JournalEntry, JournalKind } from "./journal/entry.js";
export type { StubListing } from "./journal/stub-views.js";
export type { ScenarioHandle, SessionInfo } from "./engine/views.js";
export type { Delay, DelayDistribution, FaultKind, TaskPlan, TaskStep } from "./stubs/stub.js";
export type { TaskOptions } from "./options.js";
export type { TaskIdGenerator } from "./options.js";

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
} from "./protocol/content.js";

// Errors and protocol facts
export { McpMockError } from "./values/errors.js";
export { LATEST_PROTOCOL_VERSION, STATELESS_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "./protocol/revisions.js";

// MCP Apps (the io.modelcontextprotocol/ui extension)
export type { AppDeclaration, AppCsp, AppPermissions, ToolUi, ProbeSettings, ProbeAction } from "./stubs/app-catalog.js";
export type { SkillDeclaration, SkillEntryOverride, SkillFile } from "./stubs/skill-catalog.js";
export type { AppEvent } from "./journal/app-events.js";
export { appEvent, type AppEventPattern } from "./journal/app-event-checks.js";
// Protocol extensions (SEP-2133 negotiation, server cards, icons)
export type { Icon } from "./protocol/icons.js";
export type { ExtensionSettings } from "./protocol/extensions.js";
export type { ServerCardOverrides } from "./protocol/server-card.js";
export type { UrlElicitation } from "./protocol/url-elicitation.js";
