/**
 * Content helpers: build MCP content blocks for tool results and prompt messages.
 * @module
 */

/** Optional annotations on a content block. */
export interface ContentAnnotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
}

/** A `text` content block. */
export interface TextContent {
  type: "text";
  text: string;
  annotations?: ContentAnnotations;
  _meta?: Record<string, unknown>;
}

/** An `image` content block (base64 data). */
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
  _meta?: Record<string, unknown>;
}

/** An `audio` content block (base64 data; protocol 2025-03-26 and later). */
export interface AudioContent {
  type: "audio";
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
  _meta?: Record<string, unknown>;
}

/** A `resource_link` content block (protocol 2025-06-18 and later). */
export interface ResourceLinkContent {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: ContentAnnotations;
  _meta?: Record<string, unknown>;
}

/** An embedded `resource` content block, with text or base64 blob contents. */
export interface EmbeddedResourceContent {
  type: "resource";
  resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };
  annotations?: ContentAnnotations;
  _meta?: Record<string, unknown>;
}

/** Any MCP content block. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLinkContent | EmbeddedResourceContent;

/** A complete MCP `CallToolResult`. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

const CONTENT_TYPES = new Set(["text", "image", "audio", "resource_link", "resource"]);

/** Whether a value looks like one MCP content block. */
export function isContentBlock(value: unknown): value is ContentBlock {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    CONTENT_TYPES.has((value as { type?: unknown }).type as string)
  );
}

function base64(data: string | Uint8Array): string {
  return typeof data === "string" ? data : Buffer.from(data).toString("base64");
}

/**
 * A text content block.
 *
 * @example
 * ```ts
 * import { McpMock, text } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "greet", inputSchema: { type: "object" } }] });
 * mock.toolsCall("greet").respondsWith(text("Hello"));
 * ```
 */
export function text(value: string, annotations?: ContentAnnotations): TextContent {
  return annotations ? { type: "text", text: value, annotations } : { type: "text", text: value };
}

/**
 * An image content block. `data` is base64 text, or bytes that are encoded for you.
 *
 * @example
 * ```ts
 * import { McpMock, image } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "snap", inputSchema: { type: "object" } }] });
 * mock.toolsCall("snap").respondsWith(image(new Uint8Array([137, 80, 78, 71]), "image/png"));
 * ```
 */
export function image(data: string | Uint8Array, mimeType: string): ImageContent {
  return { type: "image", data: base64(data), mimeType };
}

/**
 * An audio content block. `data` is base64 text, or bytes that are encoded for you.
 *
 * @example
 * ```ts
 * import { McpMock, audio } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "say", inputSchema: { type: "object" } }] });
 * mock.toolsCall("say").respondsWith(audio("UklGRg==", "audio/wav"));
 * ```
 */
export function audio(data: string | Uint8Array, mimeType: string): AudioContent {
  return { type: "audio", data: base64(data), mimeType };
}

/**
 * A resource link content block (`name` is required by the protocol).
 *
 * @example
 * ```ts
 * import { McpMock, resourceLink } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "find", inputSchema: { type: "object" } }] });
 * mock.toolsCall("find").respondsWith(resourceLink({ uri: "file:///notes.md", name: "notes" }));
 * ```
 */
export function resourceLink(link: Omit<ResourceLinkContent, "type">): ResourceLinkContent {
  return { type: "resource_link", ...link };
}

/**
 * An embedded resource content block, with `text` or `blob` (base64 text or bytes).
 *
 * @example
 * ```ts
 * import { McpMock, embeddedResource } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "open", inputSchema: { type: "object" } }] });
 * mock.toolsCall("open").respondsWith(embeddedResource({ uri: "test://a", mimeType: "text/plain", text: "A" }));
 * ```
 */
export function embeddedResource(
  resource: { uri: string; mimeType?: string } & ({ text: string } | { blob: string | Uint8Array }),
): EmbeddedResourceContent {
  if ("blob" in resource) return { type: "resource", resource: { ...resource, blob: base64(resource.blob) } };
  return { type: "resource", resource };
}
