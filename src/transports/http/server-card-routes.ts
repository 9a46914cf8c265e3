/**
 * The server card's HTTP routes (SEP-2127): the card at `<path>/server-card`, the domain's
 * MCP Catalog at `/.well-known/mcp/catalog.json`, and the paths earlier drafts used,
 * redirecting (308) to the card. Public metadata: CORS for any origin, an ETag and `304` on
 * `If-None-Match`, each fetch journaled. What the card says is `protocol/server-card.ts`'s.
 * @module
 */
import { createHash } from "node:crypto";
import type { Context, Hono } from "hono";
import type { MockCore, RequestContext } from "../../engine/core.js";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "../../protocol/revisions.js";
import { CATALOG_PATH, catalog, LEGACY_CARD_PATHS, SERVER_CARD_MEDIA_TYPE, SERVER_CARD_SUFFIX, serverCard } from "../../protocol/server-card.js";
import { LEGACY_SSE_PATH } from "./legacy-sse.js";
import type { Handler } from "./gate.js";
import { allHeaders, header } from "./node-io.js";

/** What the journal names a fetch of the card and of the catalog (`mock.requests()`, `verify(method(...))`). */
export const SERVER_CARD_EVENT = "GET server-card";
export const CATALOG_EVENT = "GET catalog";
/** The longest `If-None-Match` read; a longer one is refused (400) rather than parsed. */
const MAX_IF_NONE_MATCH = 8192;
const ALLOW = "GET, HEAD, OPTIONS";
const CORS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": ALLOW,
  "access-control-allow-headers": "Content-Type, Accept, If-None-Match",
  "access-control-expose-headers": "ETag",
};
const CACHE_CONTROL = "public, max-age=3600";

/** Whether an `If-None-Match` value names this entity tag (`*`, or one of a list, weak or strong). */
function matchesTag(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** A JSON document with its entity tag, CORS and caching, or `304` when the client has it. */
function document(c: Context, body: string, contentType: string): Response {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  const headers = { ...CORS, etag, "cache-control": CACHE_CONTROL };
  const ifNoneMatch = header(c, "if-none-match");
  if (ifNoneMatch !== undefined && matchesTag(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  return new Response(c.req.method === "HEAD" ? null : body, { status: 200, headers: { ...headers, "content-type": contentType } });
}

/** Refusals before the document: other methods (405), a preflight (204), an `If-None-Match` too long to read (400). */
function refused(c: Context): Response | undefined {
  const method = c.req.method;
  if (method === "OPTIONS") return new Response(null, { status: 204, headers: { ...CORS } });
  if (method !== "GET" && method !== "HEAD") {
    return Response.json({ error: `Method Not Allowed: ${method} ${c.req.path}; the server card and the catalog answer ${ALLOW}.` }, { status: 405, headers: { ...CORS, allow: ALLOW } });
  }
  const ifNoneMatch = header(c, "if-none-match");
  if (ifNoneMatch !== undefined && ifNoneMatch.length > MAX_IF_NONE_MATCH) {
    return Response.json({ error: `Bad Request: If-None-Match is ${ifNoneMatch.length} characters long; at most ${MAX_IF_NONE_MATCH} are read. Send the ETag the card came with.` }, { status: 400, headers: { ...CORS } });
  }
  return undefined;
}

/**
 * Serves the card and the catalog on `app` (unless `serverCard: false`), each route behind
 * `guard` (the Host check). `path` is the MCP endpoint's path.
 */
export function mountServerCard(app: Hono, core: MockCore, path: string, guard: (handler: Handler) => Handler): void {
  const options = core.options;
  if (options.serverCard === false) return;
  const overrides = typeof options.serverCard === "object" ? options.serverCard : undefined;
  const cardPath = `${path.replace(/\/+$/, "")}${SERVER_CARD_SUFFIX}`;
  const versions = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => (options.protocolVersions as readonly string[] | undefined)?.includes(v) ?? true);
  const cardFor = (origin: string): Record<string, unknown> =>
    serverCard({ serverInfo: core.serverInfo(), instructions: core.instructions(), endpoint: `${origin}${path}`, versions, sseEndpoint: options.legacySse === false ? undefined : `${origin}${LEGACY_SSE_PATH}` }, overrides);
  const journaled = (event: string, answer: (c: Context, origin: string) => Response): Handler => (c) => {
    const response = refused(c) ?? answer(c, new URL(c.req.url).origin);
    const headers = allHeaders(c);
    const ctx: RequestContext = { session: undefined, sessionId: undefined, headers, protocolVersion: headers["mcp-protocol-version"] ?? LATEST_PROTOCOL_VERSION, body: "", transport: "http" };
    core.journalEvent(event, ctx, undefined, { status: response.status }, { path: c.req.path, httpMethod: c.req.method });
    return response;
  };
  app.all(cardPath, guard(journaled(SERVER_CARD_EVENT, (c, origin) => document(c, JSON.stringify(cardFor(origin)), SERVER_CARD_MEDIA_TYPE))));
  app.all(CATALOG_PATH, guard(journaled(CATALOG_EVENT, (c, origin) => document(c, JSON.stringify(catalog(cardFor(origin), `${origin}${cardPath}`)), "application/json"))));
  for (const legacy of LEGACY_CARD_PATHS) {
    app.all(legacy, guard(journaled(SERVER_CARD_EVENT, (_c, origin) => new Response(null, { status: 308, headers: { ...CORS, location: `${origin}${cardPath}` } }))));
  }
}
