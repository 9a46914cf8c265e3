/**
 * Content helpers: build MCP content blocks for tool results and prompt messages.
 * @module
 */

/**
 * Optional annotations on a content block.
 *
 * @example
 * ```ts
 * import { McpMock, text, type ContentAnnotations } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "report", inputSchema: { type: "object" } }] });
 * const forTheUser: ContentAnnotations = { audience: ["user"], priority: 0.9, lastModified: "2025-01-12T15:00:58Z" };
 * mock.toolsCall("report").respondsWith(text("Quarterly numbers are in", forTheUser));
 * ```
 * @category Stubbing
 */
export interface ContentAnnotations {
  /** Who the content is meant for: `"user"`, `"assistant"`, or both. */
  audience?: ("user" | "assistant")[];
  /** How important the content is, from 0 (entirely optional) to 1 (effectively required). */
  priority?: number;
  /** When the content last changed: an ISO 8601 timestamp with a timezone, e.g. `"2025-01-12T15:00:58Z"`. */
  lastModified?: string;
}

/**
 * A `text` content block.
 *
 * @example
 * ```ts
 * import { McpMock, type TextContent } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "get_weather", inputSchema: { type: "object" } }] });
 * const sunny: TextContent = { type: "text", text: "Sunny", _meta: { source: "station-7" } }; // text("Sunny") makes a plain one
 * mock.toolsCall("get_weather").respondsWith(sunny);
 * ```
 * @category Stubbing
 */
export interface TextContent {
  /** Always `"text"`. */
  type: "text";
  /** The text itself. */
  text: string;
  /** Hints for the client: who the block is for, how important it is, when it changed. */
  annotations?: ContentAnnotations;
  /** Extra metadata, passed through as is (MCP `_meta`). */
  _meta?: Record<string, unknown>;
}

/**
 * An `image` content block (base64 data).
 *
 * @example
 * ```ts
 * import { McpMock, image, type ImageContent } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "chart", inputSchema: { type: "object" } }] });
 * const chart: ImageContent = image(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), "image/png"); // data is base64: "iVBORw=="
 * mock.toolsCall("chart").respondsWith(chart);
 * ```
 * @category Stubbing
 */
export interface ImageContent {
  /** Always `"image"`. */
  type: "image";
  /** The image bytes, base64-encoded. */
  data: string;
  /** The image's MIME type, e.g. `"image/png"`. */
  mimeType: string;
  /** Hints for the client: who the block is for, how important it is, when it changed. */
  annotations?: ContentAnnotations;
  /** Extra metadata, passed through as is (MCP `_meta`). */
  _meta?: Record<string, unknown>;
}

/**
 * An `audio` content block (base64 data; protocol 2025-03-26 and later).
 *
 * @example
 * ```ts
 * import { McpMock, type AudioContent } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "speak", inputSchema: { type: "object" } }] });
 * const clip: AudioContent = { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" }; // audio(bytes, "audio/wav") makes the same
 * mock.toolsCall("speak").respondsWith(clip);
 * ```
 * @category Stubbing
 */
export interface AudioContent {
  /** Always `"audio"` (a block type added in protocol 2025-03-26). */
  type: "audio";
  /** The audio bytes, base64-encoded. */
  data: string;
  /** The audio's MIME type, e.g. `"audio/wav"`. */
  mimeType: string;
  /** Hints for the client: who the block is for, how important it is, when it changed. */
  annotations?: ContentAnnotations;
  /** Extra metadata, passed through as is (MCP `_meta`). */
  _meta?: Record<string, unknown>;
}

/**
 * A `resource_link` content block (protocol 2025-06-18 and later).
 *
 * @example
 * ```ts
 * import { McpMock, type ResourceLinkContent } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "find_file", inputSchema: { type: "object" } }] });
 * const link: ResourceLinkContent = { type: "resource_link", uri: "file:///work/README.md", name: "README.md", mimeType: "text/markdown" };
 * mock.toolsCall("find_file").respondsWith(link);
 * ```
 * @category Stubbing
 */
export interface ResourceLinkContent {
  /** Always `"resource_link"` (a block type added in protocol 2025-06-18). */
  type: "resource_link";
  /** The URI of the linked resource. */
  uri: string;
  /** The resource's name; required (SDK clients reject a link without one). */
  name: string;
  /** A human-readable display name for the resource. */
  title?: string;
  /** What the resource is. */
  description?: string;
  /** The resource's MIME type, if known. */
  mimeType?: string;
  /** The resource's size in bytes, if known. */
  size?: number;
  /** Hints for the client: who the block is for, how important it is, when it changed. */
  annotations?: ContentAnnotations;
  /** Extra metadata, passed through as is (MCP `_meta`). */
  _meta?: Record<string, unknown>;
}

/**
 * An embedded `resource` content block, with text or base64 blob contents.
 *
 * @example
 * ```ts
 * import { McpMock, type EmbeddedResourceContent } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "read_config", inputSchema: { type: "object" } }] });
 * const config: EmbeddedResourceContent = { type: "resource", resource: { uri: "file:///app/config.json", mimeType: "application/json", text: "{}" } };
 * mock.toolsCall("read_config").respondsWith(config);
 * ```
 * @category Stubbing
 */
export interface EmbeddedResourceContent {
  /** Always `"resource"`. */
  type: "resource";
  /** The resource's contents, as `text` or as a base64 `blob`. */
  resource:
    | {
        /** The resource's URI. */
        uri: string;
        /** The contents' MIME type, if known. */
        mimeType?: string;
        /** The contents as text. */
        text: string;
      }
    | {
        /** The resource's URI. */
        uri: string;
        /** The contents' MIME type, if known. */
        mimeType?: string;
        /** The contents as bytes, base64-encoded. */
        blob: string;
      };
  /** Hints for the client: who the block is for, how important it is, when it changed. */
  annotations?: ContentAnnotations;
  /** Extra metadata, passed through as is (MCP `_meta`). */
  _meta?: Record<string, unknown>;
}

/**
 * Any MCP content block.
 *
 * @example
 * ```ts
 * import { McpMock, image, resourceLink, text, type ContentBlock } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "chart", inputSchema: { type: "object" } }] });
 * const blocks: ContentBlock[] = [text("Sales by month"), image("iVBORw0KGgo=", "image/png"), resourceLink({ uri: "test://sales.csv", name: "sales.csv" })];
 * mock.toolsCall("chart").respondsWith(blocks);
 * ```
 * @category Stubbing
 */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLinkContent | EmbeddedResourceContent;

/**
 * A complete MCP `CallToolResult`.
 *
 * @example
 * ```ts
 * import { McpMock, text, type CallToolResult } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "get_weather", inputSchema: { type: "object" } }] });
 * const result: CallToolResult = { content: [text("21 °C")], structuredContent: { temperature: 21 }, _meta: { station: "7" } };
 * mock.toolsCall("get_weather").respondsWith(result); // passed as is
 * ```
 * @category Stubbing
 */
export interface CallToolResult {
  /** The content blocks the model sees; required by the spec (it may be empty). */
  content: ContentBlock[];
  /** The result as a JSON object (not an array), matching the tool's `outputSchema` if it has one (2025-06-18). */
  structuredContent?: Record<string, unknown>;
  /** `true` when the tool failed; clients hand the result back instead of throwing. */
  isError?: boolean;
  /** Extra metadata, passed through as is (MCP `_meta`). */
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
 * @category Stubbing
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
 * @category Stubbing
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
 * @category Stubbing
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
 * @category Stubbing
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
 * @category Stubbing
 */
export function embeddedResource(
  resource: { uri: string; mimeType?: string } & ({ text: string } | { blob: string | Uint8Array }),
): EmbeddedResourceContent {
  if ("blob" in resource) return { type: "resource", resource: { ...resource, blob: base64(resource.blob) } };
  return { type: "resource", resource };
}
