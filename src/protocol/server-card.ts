/**
 * Server cards (SEP-2127, the server-card extension's draft of 2026): the card's wire facts
 * (its media type, schema URI and fields), the MCP Catalog that lists it, the paths both are
 * served at, and a card made from what a mock declares. HTTP serving is the transport's.
 * @module
 */
import { isJsonObject } from "../values/json-value.js";

/** The card's media type (`Content-Type`, and what a client asks for in `Accept`). */
export const SERVER_CARD_MEDIA_TYPE = "application/mcp-server-card+json";
/** The `$schema` every card names (the `/v2/` family). */
export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json";
/** The card's reserved place: appended to the Streamable HTTP endpoint's path. */
export const SERVER_CARD_SUFFIX = "/server-card";
/** The domain's MCP Catalog (site-wide, so under `.well-known`). */
export const CATALOG_PATH = "/.well-known/mcp/catalog.json";
/** The catalog format's version. */
export const CATALOG_SPEC_VERSION = "draft";
/** Paths earlier drafts and real servers used; they redirect (308) to the card. */
export const LEGACY_CARD_PATHS: readonly string[] = ["/.well-known/mcp.json", "/.well-known/mcp/server-card.json"];
/** A card's name: reverse DNS, one slash (`com.example/weather`). */
export const CARD_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
/** The namespace of card names the mock makes from a `serverInfo.name` that has none. */
const DEFAULT_NAMESPACE = "io.github.mcpmock";
/** Longest `description` and `title` a card may carry. */
const TEXT_MAX = 100;

/**
 * Fields that replace those of the card the mock makes (`serverCard: { ... }`): any of
 * the card's, even wrong ones, so a test can serve a card that disagrees with the server.
 *
 * @example
 * ```ts
 * import { McpMock, type ServerCardOverrides } from "mcpmock";
 * const serverCard: ServerCardOverrides = { version: "9.9.9", description: "Not what discover says" };
 * await using mock = await McpMock.start({ serverCard });
 * ```
 * @category Starting
 */
export interface ServerCardOverrides {
  /** The card's JSON Schema URI. */
  readonly $schema?: string;
  /** Reverse-DNS name with one slash, e.g. `"com.example/weather"`. */
  readonly name?: string;
  /** The server's version. */
  readonly version?: string;
  /** What the server does (1 to 100 characters). */
  readonly description?: string;
  /** A display name. */
  readonly title?: string;
  /** The server's website. */
  readonly websiteUrl?: string;
  /** Source repository metadata. */
  readonly repository?: { readonly url: string; readonly source: string; readonly subfolder?: string; readonly id?: string };
  /** Icons for the server. */
  readonly icons?: readonly Record<string, unknown>[];
  /** Where to connect: `{ type: "streamable-http" | "sse", url, supportedProtocolVersions? }`. */
  readonly remotes?: readonly Record<string, unknown>[];
  /** Extension metadata. */
  readonly _meta?: Record<string, unknown>;
  /** Any other field, served as given. */
  readonly [field: string]: unknown;
}

/** What a card is made from: the mock's identity and where it is served. */
export interface CardSource {
  readonly serverInfo: Record<string, unknown>;
  readonly instructions: string | undefined;
  /** The Streamable HTTP endpoint's absolute URL. */
  readonly endpoint: string;
  /** The versions served there, newest first. */
  readonly versions: readonly string[];
  /** The 2024-11-05 SSE endpoint's absolute URL, when it is served. */
  readonly sseEndpoint: string | undefined;
}

/** What is wrong with a `serverCard` option; none when it is right. */
export function serverCardProblems(value: unknown, where: string): string[] {
  if (typeof value === "boolean" || isJsonObject(value)) return [];
  return [`${where} must be false (no card) or an object of fields that replace the card's, like { "description": "..." }, received ${JSON.stringify(value) ?? String(value)}.`];
}

function cut(text: string): string {
  return text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text;
}

/** The card's `name` for a `serverInfo.name`: itself when it is reverse DNS already, else in the mock's namespace. */
export function cardName(serverName: string): string {
  if (CARD_NAME.test(serverName) && serverName.length <= 200) return serverName;
  const suffix = serverName.replace(/[^a-zA-Z0-9._-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 150) || "server";
  return `${DEFAULT_NAMESPACE}/${suffix}`;
}

/** The card a mock serves: made from its declarations, then `overrides` on top (a field set to `undefined` is removed). */
export function serverCard(source: CardSource, overrides: ServerCardOverrides | undefined): Record<string, unknown> {
  const info = source.serverInfo;
  const name = typeof info["name"] === "string" ? info["name"] : "mcpmock";
  const title = typeof info["title"] === "string" && info["title"] !== "" ? info["title"] : undefined;
  const described = typeof info["description"] === "string" && info["description"] !== "" ? info["description"] : source.instructions;
  const card: Record<string, unknown> = {
    $schema: SERVER_CARD_SCHEMA,
    name: cardName(name),
    version: typeof info["version"] === "string" ? info["version"] : "0.0.0",
    description: cut(described !== undefined && described !== "" ? described : `${title ?? name}, an MCP server`),
  };
  if (title !== undefined) card["title"] = cut(title);
  if (typeof info["websiteUrl"] === "string") card["websiteUrl"] = info["websiteUrl"];
  if (Array.isArray(info["icons"])) card["icons"] = info["icons"];
  const remotes: Record<string, unknown>[] = [{ type: "streamable-http", url: source.endpoint, supportedProtocolVersions: [...source.versions] }];
  if (source.sseEndpoint !== undefined) remotes.push({ type: "sse", url: source.sseEndpoint, supportedProtocolVersions: ["2024-11-05"] });
  card["remotes"] = remotes;
  for (const [field, value] of Object.entries(overrides ?? {})) {
    if (value === undefined) delete card[field];
    else card[field] = value;
  }
  return card;
}

/** The domain's MCP Catalog: one entry, the card at `cardUrl`. */
export function catalog(card: Record<string, unknown>, cardUrl: string): Record<string, unknown> {
  const name = typeof card["name"] === "string" ? card["name"] : "mcpmock/server";
  const [namespace = "", suffix = name] = name.split("/");
  const publisher = namespace.split(".").reverse().join(".");
  const displayName = typeof card["title"] === "string" ? card["title"] : name;
  return {
    specVersion: CATALOG_SPEC_VERSION,
    entries: [{ identifier: `urn:air:${publisher}:${suffix}`, displayName, type: SERVER_CARD_MEDIA_TYPE, url: cardUrl }],
  };
}
