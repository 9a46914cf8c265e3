/**
 * Resources: declarations (fixed URIs and RFC 6570 templates), listing, and the contents a
 * read answers with.
 * @module
 */
import { assertIcons, type Icon } from "../protocol/icons.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { McpMockError, showValue } from "../values/errors.js";
import { assertJsonCarriable } from "../values/json-value.js";
import { withFields } from "../values/with-fields.js";

/**
 * Contents of one resource: text, or a base64 blob.
 *
 * @example
 * ```ts
 * import { McpMock, type ResourceContents } from "mcpmock";
 * await using mock = await McpMock.start();
 * const contents: ResourceContents[] = [
 *   { uri: "test://logo.png", mimeType: "image/png", blob: "iVBORw0KGgo=" },
 *   { uri: "test://logo.txt", mimeType: "text/plain", text: "The company logo" },
 * ];
 * mock.resourcesRead("test://logo").respondsWith(contents);
 * ```
 * @category Starting
 */
export type ResourceContents =
  | {
      /** The URI of the resource these contents belong to. */
      uri: string;
      /** The contents' MIME type, e.g. `"text/plain"`. */
      mimeType?: string;
      /** The contents as text. */
      text: string;
      /** Extra metadata, passed through as is (MCP `_meta`). */
      _meta?: Record<string, unknown>;
    }
  | {
      /** The URI of the resource these contents belong to. */
      uri: string;
      /** The contents' MIME type, e.g. `"image/png"`. */
      mimeType?: string;
      /** The contents as binary data, base64-encoded. */
      blob: string;
      /** Extra metadata, passed through as is (MCP `_meta`). */
      _meta?: Record<string, unknown>;
    };

/**
 * A `resources/read` result.
 *
 * @example
 * ```ts
 * import { McpMock, type ReadResourceResult } from "mcpmock";
 * await using mock = await McpMock.start();
 * const result: ReadResourceResult = { contents: [{ uri: "test://hello", mimeType: "text/plain", text: "Hello" }], _meta: { cached: true } };
 * mock.resourcesRead("test://hello").respondsWith(result);
 * ```
 * @category Starting
 */
export interface ReadResourceResult {
  /** The contents read (one read may return several items, e.g. the files under a directory URI). */
  contents: ResourceContents[];
  /** Extra metadata, passed through as is (MCP `_meta`). */
  _meta?: Record<string, unknown>;
}

interface ResourceFields {
  /** Name shown to users (required by MCP). */
  readonly name: string;
  /** Human-readable title (protocol 2025-06-18 and later). */
  readonly title?: string;
  /** What the resource holds. */
  readonly description?: string;
  /** MIME type of the contents. */
  readonly mimeType?: string;
  /** Annotations for the client (audience, priority, lastModified). */
  readonly annotations?: { readonly [key: string]: unknown };
  /** Icons (protocol 2025-11-25), checked when declared. */
  readonly icons?: readonly Icon[];
  /** Metadata passed through as is. */
  readonly _meta?: { readonly [key: string]: unknown };
  /** Contents a read answers with when no stub does (text). */
  readonly text?: string;
  /** Contents a read answers with when no stub does (base64, or bytes that are encoded). */
  readonly blob?: string | Uint8Array;
}

/**
 * A resource with a fixed URI, listed by `resources/list`. With `text` or `blob`, a read of
 * it is answered without a stub.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({
 *   resources: [{ uri: "test://hello", name: "hello", mimeType: "text/plain", text: "Hello, world" }],
 * });
 * ```
 * @category Starting
 */
export interface ResourceDeclaration extends ResourceFields {
  /** The resource's URI. */
  readonly uri: string;
  /** Size in bytes, if known. */
  readonly size?: number;
}

/**
 * A resource template (RFC 6570), listed by `resources/templates/list`. With `text` or
 * `blob`, a read of any URI it matches is answered without a stub.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({
 *   resources: [{ uriTemplate: "test://items/{id}", name: "item", mimeType: "application/json" }],
 * });
 * ```
 * @category Starting
 */
export interface ResourceTemplateDeclaration extends ResourceFields {
  /** The URI template, e.g. `file:///{path}`. */
  readonly uriTemplate: string;
}

/**
 * Either kind of resource declaration.
 *
 * @example
 * ```ts
 * import { McpMock, type AnyResourceDeclaration } from "mcpmock";
 * const resources: AnyResourceDeclaration[] = [
 *   { uri: "test://readme", name: "readme", mimeType: "text/plain", text: "Read me" },
 *   { uriTemplate: "test://items/{id}", name: "item", mimeType: "application/json" },
 * ];
 * await using mock = await McpMock.start({ resources });
 * ```
 * @category Starting
 */
export type AnyResourceDeclaration = ResourceDeclaration | ResourceTemplateDeclaration;

/** Whether a string is an RFC 6570 template (has an expression in braces). */
export function isUriTemplate(value: string): boolean {
  return UriTemplate.isTemplate(value);
}

/** A compiled URI template: the variables of a URI it matches, else `null`. Never throws. */
export interface CompiledTemplate {
  match(uri: string): Record<string, string | string[]> | null;
}

/** Compiles a URI template; throws with the fix when it is broken. */
export function compileTemplate(template: string, where: string): CompiledTemplate {
  let compiled: UriTemplate;
  try {
    compiled = new UriTemplate(template);
  } catch (error) {
    throw new McpMockError(`${where}: ${JSON.stringify(template)} is not a valid RFC 6570 URI template (${(error as Error).message}). Write it like "file:///{path}".`);
  }
  return {
    match: (uri) => {
      try {
        return compiled.match(uri);
      } catch {
        return null; // the SDK's matcher throws on a URI longer than it reads (1,000,000 characters): such a URI matches nothing
      }
    },
  };
}

function base64(data: string | Uint8Array): string {
  return typeof data === "string" ? data : Buffer.from(data).toString("base64");
}

/**
 * A read answer with its bytes as base64 text: bytes alone, an item's `blob`, or the `blob` of
 * an item in a list (what the DSL lets an answer carry, though bytes are not JSON).
 */
export function readBytesAsBase64(payload: unknown): unknown {
  const one = (item: unknown): unknown => {
    if (item instanceof Uint8Array) return { blob: base64(item) };
    const blob = (item as { blob?: unknown } | null)?.blob;
    return blob instanceof Uint8Array ? { ...(item as object), blob: base64(blob) } : item;
  };
  return Array.isArray(payload) ? payload.map(one) : one(payload);
}

interface DeclaredTemplate {
  readonly declaration: ResourceTemplateDeclaration;
  readonly template: CompiledTemplate;
}

/** The declared resources and templates. */
export class ResourceCatalog {
  #resources = new Map<string, ResourceDeclaration>();
  #templates = new Map<string, DeclaredTemplate>();

  /** Declares a resource or a template (replacing one with the same URI); throws at once when broken. */
  declare(resource: AnyResourceDeclaration, where: string): void {
    if (resource === null || typeof resource !== "object") {
      throw new McpMockError(`${where} must be an object like { uri: "test://a", name: "a" }, received ${showValue(resource)}.`);
    }
    if (typeof resource.name !== "string" || resource.name === "") {
      throw new McpMockError(`${where}.name must be a non-empty string: MCP lists every resource by name. Add name: "..."`);
    }
    if ("text" in resource && "blob" in resource && resource.text !== undefined && resource.blob !== undefined) {
      throw new McpMockError(`${where}: give text or blob, not both.`);
    }
    const { blob, ...rest } = resource as AnyResourceDeclaration & { blob?: string | Uint8Array };
    assertJsonCarriable(rest, where, "resource");
    assertIcons(rest.icons, where);
    const normal = (blob === undefined ? rest : { ...rest, blob: base64(blob) }) as AnyResourceDeclaration;
    if ("uriTemplate" in normal && typeof normal.uriTemplate === "string") {
      this.#templates.set(normal.uriTemplate, { declaration: normal, template: compileTemplate(normal.uriTemplate, `${where}.uriTemplate`) });
      return;
    }
    const uri = (normal as ResourceDeclaration).uri;
    if (typeof uri !== "string" || uri === "") {
      throw new McpMockError(`${where} needs a uri (a fixed resource) or a uriTemplate (a template), received ${showValue(resource)}.`);
    }
    if (isUriTemplate(uri)) {
      throw new McpMockError(`${where}.uri ${JSON.stringify(uri)} looks like a template; declare it as { uriTemplate: ${JSON.stringify(uri)}, ... }.`);
    }
    this.#resources.set(uri, normal as ResourceDeclaration);
  }

  /** Removes a resource or template by URI or template text. */
  remove(uriOrTemplate: string): boolean {
    return this.#resources.delete(uriOrTemplate) || this.#templates.delete(uriOrTemplate);
  }

  get size(): number {
    return this.#resources.size + this.#templates.size;
  }

  /** Every declared URI and template, for near-miss lists. */
  known(): string[] {
    return [...this.#resources.keys(), ...this.#templates.keys()];
  }

  /** Fixed resources as `resources/list` sends them (no contents). */
  listed(): Record<string, unknown>[] {
    return [...this.#resources.values()].map(listedForm);
  }

  /** Templates as `resources/templates/list` sends them (no contents). */
  listedTemplates(): Record<string, unknown>[] {
    return [...this.#templates.values()].map((t) => listedForm(t.declaration));
  }

  /** The declared default contents for a URI (fixed first, then the first matching template), if any. */
  read(uri: string): { declaration: AnyResourceDeclaration; variables: Record<string, string | string[]> } | undefined {
    const fixed = this.#resources.get(uri);
    if (fixed) return { declaration: fixed, variables: {} };
    for (const t of this.#templates.values()) {
      const variables = t.template.match(uri);
      if (variables) return { declaration: t.declaration, variables };
    }
    return undefined;
  }
}

function listedForm(declaration: AnyResourceDeclaration): Record<string, unknown> {
  const { text: _text, blob: _blob, ...listed } = declaration as AnyResourceDeclaration & { text?: unknown; blob?: unknown };
  return listed;
}

/** Whether a value is already a whole `ReadResourceResult` (an object with a `contents` array). */
export function isReadResult(value: unknown): value is ReadResourceResult {
  return value !== null && typeof value === "object" && Array.isArray((value as { contents?: unknown }).contents);
}

/**
 * Wraps a read answer: a string is text contents; `{ text }` or `{ blob }` (with an optional
 * `mimeType`) one contents item for the URI read; an array of those several; a whole
 * `ReadResourceResult` passes as is.
 */
export function wrapReadPayload(payload: unknown, uri: string, mimeType: string | undefined): ReadResourceResult {
  if (isReadResult(payload)) return payload;
  const one = (item: unknown): ResourceContents => {
    const withType = <T extends object>(c: T): T => (mimeType === undefined || "mimeType" in c ? c : withFields(c, { mimeType }));
    if (typeof item === "string") return withType({ uri, text: item });
    const obj = item as { uri?: string; text?: unknown; blob?: unknown } | null;
    if (obj && typeof obj === "object" && (typeof obj.text === "string" || obj.blob !== undefined)) {
      const blob = obj.blob === undefined ? undefined : base64(obj.blob as string | Uint8Array);
      return withType(withFields(obj, blob === undefined ? { uri: obj.uri ?? uri } : { uri: obj.uri ?? uri, blob }) as ResourceContents);
    }
    return withType({ uri, text: typeof item === "object" ? JSON.stringify(item) : String(item) });
  };
  return { contents: Array.isArray(payload) ? payload.map(one) : [one(payload)] };
}
