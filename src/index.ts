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
export type { SessionIdGenerator } from "./session.js";

// Stubbing
export { ANY, type AnyValue } from "./any.js";
export {
  StubBuilder,
  ToolCallBuilder,
  RequestBuilder,
  InitializeBuilder,
  DeleteSessionBuilder,
  type ToolAnswerOptions,
  type InitializeAnswerOptions,
} from "./builder.js";
export { StubHandle } from "./handle.js";
export { McpCall, type RequestId, type TransportKind } from "./call.js";
export type { Answer } from "./stub.js";
export type { ToolArgs, ToolPayload, ToolName, ToolCall, DeepPartial } from "./typed.js";

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
