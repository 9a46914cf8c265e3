/**
 * The protected resource's side (RFC 6750, RFC 9728, the MCP authorization pages): the bearer
 * check in front of the MCP endpoint, its 401 and 403 challenges, and the protected resource
 * metadata document.
 * @module
 */
import { setRequestPrincipal } from "./principal.js";
import type { Context } from "hono";
import type { AuthOptions } from "./auth-options.js";
import type { AuthLog } from "./auth-log.js";
import type { IssuedToken, TokenStore } from "./tokens.js";
import { isDpopRefusal, type Dpop } from "./dpop.js";

/** Where the protected resource metadata lives for an endpoint at `path`. */
export function resourceMetadataPath(options: AuthOptions, path: string): string {
  if (options.metadataAt === "root") return "/.well-known/oauth-protected-resource";
  if (options.metadataAt !== undefined && options.metadataAt !== "path") return options.metadataAt;
  return `/.well-known/oauth-protected-resource${path}`;
}

/** The origin a request was sent to (the Host it named): what the metadata and audiences are spelled with. */
export function originOf(c: Context): string {
  return new URL(c.req.url).origin;
}

/** A refusal: its status, the `error` code for the challenge (none for a request without a token) and why. */
interface Refusal {
  readonly status: 401 | 403;
  readonly outcome: string;
  readonly error: "invalid_token" | "invalid_request" | "insufficient_scope" | undefined;
  readonly description: string;
  readonly scopes?: readonly string[];
  readonly token?: IssuedToken;
  /** A refusal of the DPoP layer: its error code, the nonce to send, and the key its proof passed with. */
  readonly dpop?: { readonly error: string; readonly nonce?: string; readonly jkt?: string };
}

/** The legacy HTTP+SSE transport's paths. */
export interface LegacyPaths {
  readonly sse: string;
  readonly messages: string;
}

const BEARER = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The bearer check, the challenges and the metadata document of one protected endpoint. */
export class ResourceServer {
  readonly #options: AuthOptions;
  readonly #path: string;
  readonly #tokens: TokenStore;
  readonly #log: AuthLog;
  /** The legacy HTTP+SSE endpoints, when served: a resource of their own, `<origin>/sse`. */
  readonly #legacy: LegacyPaths | undefined;
  /** Scopes every request's token must hold (`required`, or what `requireScopes()` set). */
  required: readonly string[];

  /** DPoP (`auth.dpop`): the `DPoP` scheme and proofs, on top of bearer tokens. */
  readonly #dpop: Dpop | undefined;

  constructor(options: AuthOptions, path: string, tokens: TokenStore, log: AuthLog, legacy?: LegacyPaths, dpop?: Dpop) {
    this.#options = options;
    this.#dpop = dpop;
    this.#path = path;
    this.#tokens = tokens;
    this.#log = log;
    this.#legacy = legacy;
    this.required = options.required ?? [];
  }

  /** The endpoint paths that are protected resources: the MCP endpoint, and `/sse` when served. */
  get endpoints(): readonly string[] {
    return this.#legacy ? [this.#path, this.#legacy.sse] : [this.#path];
  }

  /** The resource path a request to `path` belongs to (`/messages` belongs to `/sse`). */
  #endpointOf(path: string): string {
    return this.#legacy && (path === this.#legacy.sse || path === this.#legacy.messages) ? this.#legacy.sse : this.#path;
  }

  /** The resource identifiers (RFC 8707) this mock accepts tokens for, as spelled by this request's origin. */
  resources(c: Context): string[] {
    const own = this.endpoints.map((p) => `${originOf(c)}${p}`);
    // A server that misnames itself (auth.metadataResource) issues and takes tokens for the name it published.
    return this.#options.metadataResource === undefined ? own : [...own, this.#options.metadataResource];
  }

  /** The protected resource metadata (RFC 9728) of the endpoint at `endpoint`. */
  metadata(c: Context, endpoint: string): Record<string, unknown> {
    const supported = this.#options.scopes ?? this.#options.required ?? [];
    return {
      resource: this.#options.metadataResource ?? `${originOf(c)}${endpoint}`,
      authorization_servers: [`${originOf(c)}${this.#options.issuerPath ?? ""}`],
      bearer_methods_supported: ["header"],
      ...(supported.length > 0 ? { scopes_supported: supported } : {}),
      resource_name: "mcpmock",
    };
  }

  /** Checks the request's bearer token: `undefined` when it may pass, else the 401 or 403 to send. */
  async check(c: Context): Promise<Response | undefined> {
    let jkt: string | undefined;
    const refusal = await this.#refusal(c, (bound) => (jkt = bound));
    const base = { endpoint: "mcp" as const, method: c.req.method, path: c.req.path };
    if (refusal === undefined || "id" in refusal) {
      const token = refusal;
      setRequestPrincipal(c, token);
      this.#log.add({ ...base, status: 200, outcome: "ok", ...(token ? { tokenId: token.id, scopes: token.scopes, subject: token.subject, ...(token.clientId ? { clientId: token.clientId } : {}) } : {}), ...(jkt ? { dpopJkt: jkt } : {}) });
      return undefined;
    }
    const t = refusal.token;
    const passed = jkt ?? refusal.dpop?.jkt;
    this.#log.add({ ...base, status: refusal.status, outcome: refusal.outcome, description: refusal.description, ...(t ? { tokenId: t.id, scopes: t.scopes, subject: t.subject } : {}), ...(passed ? { dpopJkt: passed } : {}) });
    return this.challenge(c, refusal);
  }

  /** Why the request may not pass (or its token, or nothing without one when it may); `bound` hears the DPoP key a proof passed with. */
  async #refusal(c: Context, bound: (jkt: string) => void): Promise<Refusal | IssuedToken | undefined> {
    if (new URL(c.req.url).searchParams.has("access_token")) {
      return { status: 401, outcome: "token-in-query", error: "invalid_request", description: "Access tokens are never read from the query string; send the header Authorization: Bearer <token>." };
    }
    const header = c.req.header("authorization");
    if (header === undefined) return { status: 401, outcome: "missing-token", error: undefined, description: "This MCP endpoint needs an access token: send Authorization: Bearer <token> (get one through the authorization server the metadata names, or mock.auth.issueToken() in a test)." };
    // RFC 6750 section 3.1: another scheme (Basic, say) is no attempt at a bearer token: no error code.
    if (!/^Bearer(\s|$)/i.test(header) && !(this.#dpop && /^DPoP(\s|$)/i.test(header))) return { status: 401, outcome: "other-scheme", error: undefined, description: `This MCP endpoint takes ${this.#dpop ? "bearer and DPoP" : "bearer"} tokens only (the request sent the ${JSON.stringify(header.split(" ")[0])} scheme): send Authorization: ${this.#dpop ? "DPoP" : "Bearer"} <token>.` };
    const m = BEARER.exec(header);
    if (!m) return { status: 401, outcome: "malformed-header", error: "invalid_request", description: `The Authorization header must be ${this.#dpop ? "Bearer <token> or DPoP <token>" : "Bearer <token>"} (one token, one scheme).` };
    const value = m[2] as string;
    const found = this.#tokens.check(value, "access");
    const token = typeof found === "string" ? this.#tokens.find(value) : found;
    if (found === "unknown") return { status: 401, outcome: "unknown-token", error: "invalid_token", description: "The access token is not one this authorization server issued." };
    if (found === "expired") return { status: 401, outcome: "expired-token", error: "invalid_token", description: "The access token expired; refresh it at the token endpoint.", ...(token ? { token } : {}) };
    if (found === "revoked") return { status: 401, outcome: "revoked-token", error: "invalid_token", description: "The access token was revoked; authorize again.", ...(token ? { token } : {}) };
    if (this.#dpop) {
      const dpop = await this.#dpop.resourceRequest(c, (m[1] as string).toLowerCase() === "dpop" ? "dpop" : "bearer", value, found);
      if (isDpopRefusal(dpop)) return { status: 401, outcome: dpop.outcome, error: "invalid_token", description: dpop.description, token: found, dpop: { error: dpop.error, ...(dpop.nonce ? { nonce: dpop.nonce } : {}), ...(dpop.jkt ? { jkt: dpop.jkt } : {}) } };
      if (dpop.jkt !== undefined) bound(dpop.jkt);
    }
    if (found.resource !== undefined && !this.resources(c).includes(found.resource)) {
      return { status: 401, outcome: "wrong-audience", error: "invalid_token", description: `The access token was issued for another resource (${found.resource}), not ${this.resources(c).join(" or ")}.`, token: found };
    }
    const missing = this.required.filter((s) => !found.scopes.includes(s));
    if (missing.length > 0) {
      const scopes = [...new Set([...found.scopes, ...this.required])];
      return { status: 403, outcome: "insufficient-scope", error: "insufficient_scope", description: `The access token lacks the scope ${missing.join(" ")}.`, scopes, token: found };
    }
    return found;
  }

  /** A 401 or 403 with its `WWW-Authenticate` challenge (RFC 6750 section 3, RFC 9728 section 5.1). */
  challenge(c: Context, refusal: Pick<Refusal, "status" | "error" | "description" | "scopes" | "dpop">): Response {
    const params: string[] = [];
    const error = refusal.dpop?.error ?? refusal.error;
    if (error) params.push(`error="${error}"`, `error_description="${refusal.description.replace(/["\\]/g, "'")}"`);
    const scopes = refusal.scopes ?? this.required;
    if (scopes.length > 0) params.push(`scope="${scopes.join(" ")}"`);
    if (this.#options.challengeMetadata !== false) params.push(`resource_metadata="${originOf(c)}${resourceMetadataPath(this.#options, this.#endpointOf(c.req.path))}"`);
    const body = { ...(error ? { error } : {}), error_description: `[mcpmock] ${refusal.description}` };
    const headers: Record<string, string> = { "content-type": "application/json", "www-authenticate": this.#dpop ? dpopChallenge(this.#dpop, params, refusal.dpop !== undefined) : params.length > 0 ? `Bearer ${params.join(", ")}` : "Bearer" };
    if (refusal.dpop?.nonce) headers["dpop-nonce"] = refusal.dpop.nonce;
    return new Response(JSON.stringify(body), { status: refusal.status, headers });
  }
}

/**
 * The challenge with DPoP (RFC 9449 section 7.1): a refusal of the DPoP layer, or any refusal when
 * only DPoP is taken, is a `DPoP` challenge with the parameters and `algs`; otherwise the `Bearer`
 * challenge comes first (what bearer clients read) and a `DPoP` one follows.
 */
function dpopChallenge(dpop: Dpop, params: readonly string[], aboutDpop: boolean): string {
  const algs = `algs="${dpop.algorithms.join(" ")}"`;
  if (aboutDpop || dpop.required) return `DPoP ${[...params, algs].join(", ")}`;
  return `${params.length > 0 ? `Bearer ${params.join(", ")}` : "Bearer"}, DPoP ${algs}`;
}
