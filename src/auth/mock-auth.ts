/**
 * Authorization mocking, whole: the bearer check the HTTP gate runs before the MCP endpoint,
 * the metadata and authorization server routes mounted beside it, and what tests drive
 * (`mock.auth`: issue, expire and revoke tokens, change the required scopes, read the events).
 * @module
 */
import { principalOfToken } from "./principal.js";
import { MockOAuthClientProvider, type ClientProviderOptions } from "./client-provider.js";
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { SCOPE_TOKEN, type AuthOptions } from "./auth-options.js";
import { McpMockError } from "../values/errors.js";
import { AuthLog, type AuthEndpoint, type AuthEvent, type AuthEventPattern } from "./auth-log.js";
import { asPaths, AuthorizationServer, DEFAULT_ACCESS_TOKEN_TTL, serverMetadataPath } from "./authorization-server.js";
import { ClientRegistry } from "./clients.js";
import { ResourceServer, resourceMetadataPath, type LegacyPaths } from "./resource-server.js";
import { TokenStore, type IssuedToken } from "./tokens.js";
import { presentedToken, TokenPattern, type TokenRequirements } from "./token-pattern.js";
import { Dpop, dpopOptionsOf } from "./dpop.js";

/** A route's handler (the gate's `Handler`). */
type Handler = (c: Context) => Response | Promise<Response>;

/**
 * What {@link MockAuth.issueToken} takes.
 *
 * @example
 * ```ts
 * import { McpMock, type IssueTokenOptions } from "mcpmock";
 * await using mock = await McpMock.start({ auth: { scopes: ["read", "write"] } });
 * const options: IssueTokenOptions = { scopes: ["read"], subject: "ada", clientId: "cli", expiresIn: 60 };
 * const token = mock.auth.issueToken(options); // send it as `Authorization: Bearer ${token}`
 * ```
 * @category Authorization
 */
export interface IssueTokenOptions {
  /** The scopes it grants; none by default. */
  readonly scopes?: readonly string[];
  /** Seconds until it expires; `auth.accessTokenTtl` (3600) by default; `0` issues one already expired. */
  readonly expiresIn?: number;
  /** Its subject; `auth.subject` (`"user"`) by default. */
  readonly subject?: string;
  /** The resource (audience) it is for; this mock's endpoint by default. Another URL makes a token the mock refuses. */
  readonly resource?: string;
  /** The client it is issued to; none by default. */
  readonly clientId?: string;
  /** Bind it to the DPoP key with this JWK SHA-256 thumbprint (its `cnf.jkt`; with `auth.dpop`): the endpoint then takes it only with the DPoP scheme and a proof of that key. */
  readonly dpopJkt?: string;
}

const DEFAULT_MAX_TOKENS = 10_000;

/** What a scope name may hold, for the messages that refuse one. */
const SCOPE_NAMES = "printable ASCII without spaces, quotes or backslashes, RFC 6749 section 3.3";

/** A list of scope tokens, each one a challenge's `scope` and a token response can carry. */
function isScopeList(scopes: unknown): scopes is readonly string[] {
  return Array.isArray(scopes) && scopes.every((s) => typeof s === "string" && SCOPE_TOKEN.test(s));
}

/** The largest body `/token` and `/register` read. */
const MAX_FORM_BYTES = 64 * 1024;
const bodyTooLarge = bodyLimit({
  maxSize: MAX_FORM_BYTES,
  onError: () => new Response(JSON.stringify({ error: "invalid_request", error_description: `[mcpmock] The body is larger than ${MAX_FORM_BYTES} bytes.` }), { status: 413, headers: { "content-type": "application/json" } }),
});

/** `handler` behind the body limit (Hono's middleware, run the way the gate runs CORS). */
function limited(handler: Handler): Handler {
  return async (c) => {
    const refused = await bodyTooLarge(c, async () => {
      c.res = await handler(c);
    });
    return refused ?? c.res;
  };
}

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
}

/**
 * A mock's authorization side, as `mock.auth`.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({ auth: { scopes: ["read", "write"], required: ["read"] } });
 * const token = mock.auth.issueToken({ scopes: ["read"] });
 * mock.auth.expire(token); // the next request with it gets 401 error="invalid_token"
 * ```
  * @category Authorization
 */
export class MockAuth {
  readonly #options: AuthOptions;
  readonly #path: string;
  readonly #tokens: TokenStore;
  readonly #clients: ClientRegistry;
  readonly #log = new AuthLog();
  readonly #resource: ResourceServer;
  readonly #server: AuthorizationServer;

  /** @internal */
  constructor(options: AuthOptions, path: string, legacy?: LegacyPaths) {
    this.#options = options;
    this.#path = path;
    this.#tokens = new TokenStore(options.maxTokens ?? DEFAULT_MAX_TOKENS);
    this.#clients = new ClientRegistry(options);
    const dpop = dpopOptionsOf(options.dpop);
    const layer = dpop ? new Dpop(dpop) : undefined;
    this.#resource = new ResourceServer(options, path, this.#tokens, this.#log, legacy, layer);
    this.#server = new AuthorizationServer(options, this.#tokens, this.#clients, this.#log, this.#resource, layer);
  }

  /** @internal Mounts the metadata and authorization server routes, each behind `guard` (the Host/Origin gate). */
  mount(app: Hono, guard: (handler: Handler) => Handler): void {
    const logged = (endpoint: AuthEndpoint, handler: Handler): Handler =>
      guard(async (c) => {
        const res = await handler(c);
        // The authorization server's endpoints log their own outcomes; a body refused before them is logged here.
        const own = endpoint === "authorize" || endpoint === "token" || endpoint === "register";
        if (!own || res.status === 413) this.#log.add({ endpoint, method: c.req.method, path: c.req.path, status: res.status, outcome: res.status === 413 ? "body-too-large" : "ok" });
        return res;
      });
    // One document per protected endpoint (`/mcp`, and `/sse` when served); at the root, the MCP endpoint's.
    // A path of one's own (`metadataAt: "/custom/..."`) serves the MCP endpoint's document only, like "root".
    const endpoints = this.#options.metadataAt === undefined || this.#options.metadataAt === "path" ? this.#resource.endpoints : [this.#path];
    for (const endpoint of endpoints) app.get(resourceMetadataPath(this.#options, endpoint), logged("resource-metadata", (c) => json(this.#resource.metadata(c, endpoint))));
    const paths = asPaths(this.#options);
    app.get(serverMetadataPath(this.#options), logged("server-metadata", (c) => json(this.#server.metadata(c))));
    if (this.#options.serverMetadata === "openid") app.get(paths.jwks, logged("jwks", () => json({ keys: [] })));
    app.get(paths.authorize, logged("authorize", (c) => this.#server.authorize(c)));
    app.post(paths.token, logged("token", limited((c) => this.#server.token(c))));
    if (this.#options.registration !== false) app.post(paths.register, logged("register", limited((c) => this.#server.register(c))));
  }

  /**
   * @internal `handler` behind the bearer check: a request without a valid token gets the 401 or
   * 403 instead; one with a valid token has its principal on its context (`requestPrincipal(c)`).
   */
  protect(handler: Handler): Handler {
    return async (c) => (c.req.method === "OPTIONS" ? handler(c) : ((await this.#resource.check(c)) ?? handler(c)));
  }

  /**
   * An `OAuthClientProvider` that completes this mock's OAuth flow by itself: pass it as a
   * transport's `authProvider` and the client's own OAuth code (discovery, registration, PKCE,
   * the token request, refresh) connects on the first try, with no `finishAuth`.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
   * await using mock = await McpMock.start({ auth: { required: ["read"] } });
   * const transport = new StreamableHTTPClientTransport(new URL(mock.url), { authProvider: mock.auth.clientProvider() });
   * ```
   */
  clientProvider(options?: ClientProviderOptions): MockOAuthClientProvider {
    return new MockOAuthClientProvider(this.#path, options);
  }

  /**
   * Issues an access token without the flow, for tests that are not about the flow.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * await using mock = await McpMock.start({ auth: { required: ["read"] } });
   * const token = mock.auth.issueToken({ scopes: ["read"], expiresIn: 60 });
   * // headers: { authorization: `Bearer ${token}` }
   * ```
   */
  issueToken(options: IssueTokenOptions = {}): string {
    const { scopes = [], expiresIn, subject, resource, clientId, dpopJkt } = options;
    if (!isScopeList(scopes)) throw new McpMockError(`issueToken: scopes must be a list of scope names (${SCOPE_NAMES}), like ["read"]; received ${JSON.stringify(scopes)}.`);
    if (expiresIn !== undefined && !(Number.isFinite(expiresIn) && expiresIn >= 0)) throw new McpMockError(`issueToken: expiresIn must be seconds (0 or more), received ${JSON.stringify(expiresIn)}.`);
    if (dpopJkt !== undefined && !(typeof dpopJkt === "string" && /^[A-Za-z0-9_-]{43}$/.test(dpopJkt))) throw new McpMockError(`issueToken: dpopJkt must be a JWK SHA-256 thumbprint (43 base64url characters, what jose's calculateJwkThumbprint(jwk) gives), received ${JSON.stringify(dpopJkt)}.`);
    if (dpopJkt !== undefined && !this.#options.dpop) throw new McpMockError("issueToken: dpopJkt binds a token to a DPoP key, which only an endpoint with auth.dpop checks: start the mock with auth: { dpop: true }.");
    return this.#tokens.issue({ kind: "access", scopes, subject: subject ?? this.#options.subject ?? "user", clientId, resource, ttlSeconds: expiresIn ?? this.#options.accessTokenTtl ?? DEFAULT_ACCESS_TOKEN_TTL, ...(dpopJkt !== undefined ? { jkt: dpopJkt } : {}) }).token;
  }

  #targets(token: string | undefined, kinds: readonly IssuedToken["kind"][], what: string): IssuedToken[] {
    if (token === undefined) return this.#tokens.all().filter((t) => kinds.includes(t.kind));
    const found = this.#tokens.find(token);
    if (!found) throw new McpMockError(`${what}: no token ${token.length > 16 ? "with that value" : JSON.stringify(token)} was issued by this mock (pass a token string or an id like "token-1" from mock.auth.issued()).`);
    return [found];
  }

  /**
   * Expires a token now (a token string or its id); without one, every access token. The
   * client's next request gets 401 `invalid_token`, and an OAuth client refreshes.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * await using mock = await McpMock.start({ auth: true });
   * mock.auth.expire(); // every access token issued so far
   * ```
   */
  expire(token?: string): void {
    for (const t of this.#targets(token, ["access"], "expire")) t.expiresAt = Date.now() - 1;
  }

  /**
   * Revokes a token (a token string or its id); without one, every access and refresh token,
   * so the client must authorize again.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * await using mock = await McpMock.start({ auth: true });
   * const token = mock.auth.issueToken();
   * mock.auth.revoke(token); // 401 error="invalid_token" from now on
   * ```
   */
  revoke(token?: string): void {
    for (const t of this.#targets(token, ["access", "refresh"], "revoke")) t.revoked = true;
  }

  /**
   * Changes the scopes every request must hold, mid-test (step-up): tokens without them get
   * 403 `insufficient_scope` naming the scopes to ask for.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * await using mock = await McpMock.start({ auth: { scopes: ["read", "write"], required: ["read"] } });
   * mock.auth.requireScopes(["read", "write"]);
   * ```
   */
  requireScopes(scopes: readonly string[]): void {
    if (!isScopeList(scopes)) throw new McpMockError(`requireScopes: scopes must be a list of scope names (${SCOPE_NAMES}), like ["read", "write"]; received ${JSON.stringify(scopes)}.`);
    const supported = this.#options.scopes ?? this.#options.required ?? [];
    const unknown = supported.length === 0 ? [] : scopes.filter((s) => !supported.includes(s));
    if (unknown.length > 0) throw new McpMockError(`requireScopes: ${unknown.join(", ")} is not in auth.scopes (${supported.join(", ")}); a client could never get it. Add it to auth.scopes.`);
    this.#resource.required = [...scopes];
  }

  /**
   * A pattern for `withHeader("authorization", ...)` that matches a request whose bearer token
   * (a live one) has these scopes, this subject or this client: stubs that answer by who is
   * asking. The journal keeps the header redacted, so verify with {@link requests} instead.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * await using mock = await McpMock.start({ auth: { scopes: ["read", "write"] }, tools: [{ name: "delete", inputSchema: { type: "object" } }] });
   * mock.toolsCall("delete").respondsWith("read-only token", { isError: true });
   * mock.toolsCall("delete").withHeader("authorization", mock.auth.tokenWith({ scopes: ["write"] })).respondsWith("deleted");
   * ```
   */
  tokenWith(wants: TokenRequirements): RegExp {
    if (typeof wants !== "object" || wants === null) throw new McpMockError(`tokenWith takes { scopes?, subject?, clientId? }, received ${JSON.stringify(wants)}.`);
    return new TokenPattern(this.#tokens, wants);
  }

  /**
   * The tokens issued so far (access and refresh, through the flow or {@link issueToken}),
   * oldest first, with their state.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * await using mock = await McpMock.start({ auth: true });
   * mock.auth.issueToken({ scopes: ["read"] });
   * mock.auth.issued(); // [{ id: "token-1", kind: "access", scopes: ["read"], ... }]
   * ```
   */
  issued(): IssuedToken[] {
    return this.#tokens.all().map((t) => ({ ...t }));
  }

  /**
   * What the authorization side answered: every gate check of an MCP request (passed, 401,
   * 403, with the token's id, never the token) and every authorization server request.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * await using mock = await McpMock.start({ auth: true });
   * mock.auth.requests({ endpoint: "mcp", status: 401 }); // the refused requests
   * ```
   */
  requests(pattern?: AuthEventPattern): AuthEvent[] {
    return this.#log.find(pattern);
  }

  /**
   * Throws unless an authorization request matching `pattern` was seen (at least once, or
   * exactly `count` times); the message lists the latest requests.
   *
   * @example
   * ```ts
   * import { McpMock } from "mcpmock";
   * await using mock = await McpMock.start({ auth: true });
   * // ... a client refreshes its token ...
   * // mock.auth.verify({ endpoint: "token", grantType: "refresh_token", status: 200 });
   * ```
   */
  verify(pattern: AuthEventPattern, count?: number): void {
    this.#log.verify(pattern, count);
  }

  /**
   * @internal Who an MCP request's `Authorization` header speaks for (see principal.ts), for the
   * engine, which sees a call's headers, not its HTTP request. `undefined` without a live bearer
   * token. The transports read the principal the bearer check kept instead (`requestPrincipal(c)`).
   */
  principalOf(authorization: string | undefined): string | undefined {
    const presented = presentedToken(authorization);
    const token = presented === undefined ? "unknown" : this.#tokens.check(presented, "access");
    return typeof token === "string" ? undefined : principalOfToken(token);
  }

  /**
   * @internal `mock.reset()`: forgets the events and goes back to the configured `required`
   * scopes. Tokens and registered clients stay, so a connected client keeps working.
   */
  reset(): void {
    this.#log.clear();
    this.#resource.required = this.#options.required ?? [];
  }
}

/** `mock.auth`: the HTTP transport's, or an error that names the option to turn it on. */
export function authOf(http: { readonly auth: MockAuth | undefined } | undefined): MockAuth {
  if (http?.auth) return http.auth;
  throw new McpMockError(
    http
      ? "mock.auth: this mock was started without auth, so its endpoint takes no tokens. Start it with McpMock.start({ auth: { required: [...] } }) (or auth: true; mcpmock serve --auth)."
      : 'mock.auth: authorization is an HTTP matter and this mock listens on no port (transport: "none").',
  );
}
