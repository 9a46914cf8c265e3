/**
 * The embedded authorization server (OAuth 2.1): RFC 8414 metadata (or the OpenID Connect
 * variant), `/authorize` that consents at once (RFC 9207 `iss` in the redirect), `/token` for
 * `authorization_code` with PKCE S256 and `refresh_token` with rotation, RFC 7591 `/register`,
 * and client ID metadata documents (loopback only). The `resource` parameter (RFC 8707) must
 * name a protected endpoint; it is the one parameter that may be sent more than once (one for
 * each resource asked for), every one of them this server's.
 * @module
 */
import type { Context } from "hono";
import { SCOPE_TOKEN, type AuthOptions } from "./auth-options.js";
import type { AuthLog } from "./auth-log.js";
import { ASSERTION_ALGORITHMS, assertedClientId, verifyClientAssertion } from "./client-assertion.js";
import { clientCredentialsGrant } from "./client-credentials.js";
import { basicCredentials, KEPT_CLIENTS, redirectAllowed, type ClientRegistry, type KnownClient, type OAuthProblem } from "./clients.js";
import { originOf, type ResourceServer } from "./resource-server.js";
import { JWT_BEARER_GRANT, verifyAssertion } from "./jwt-bearer-grant.js";
import { exchangeToken, TOKEN_EXCHANGE_GRANT } from "./token-exchange-grant.js";
import { CODE_TTL_MS, s256, type IssuedToken, type TokenStore } from "./tokens.js";
import { isDpopRefusal, type Dpop } from "./dpop.js";

/** The authorization server's endpoint paths. */
export const AS_PATHS = { authorize: "/authorize", token: "/token", register: "/register", jwks: "/jwks" } as const;

/** The authorization server's endpoint paths under `auth.issuerPath` (`/tenant1/authorize`...). */
export function asPaths(options: Pick<AuthOptions, "issuerPath">): Record<keyof typeof AS_PATHS, string> {
  const prefix = options.issuerPath ?? "";
  return { authorize: `${prefix}${AS_PATHS.authorize}`, token: `${prefix}${AS_PATHS.token}`, register: `${prefix}${AS_PATHS.register}`, jwks: `${prefix}${AS_PATHS.jwks}` };
}

/** Where the authorization server's metadata is served: RFC 8414 section 3.1 inserts the issuer's path; OpenID Connect Discovery appends it. */
export function serverMetadataPath(options: Pick<AuthOptions, "issuerPath" | "serverMetadata">): string {
  const path = options.issuerPath ?? "";
  return options.serverMetadata === "openid" ? `${path}/.well-known/openid-configuration` : `/.well-known/oauth-authorization-server${path}`;
}

/** The issuer identifier a request's origin spells: the origin, and `auth.issuerPath`. */
export function issuerOf(c: Context, options: Pick<AuthOptions, "issuerPath">): string {
  return `${originOf(c)}${options.issuerPath ?? ""}`;
}

/** Which option turns a grant on, for a refusal of one that is off. */
function grantHint(grantType: string): string {
  if (grantType === JWT_BEARER_GRANT) return " (auth.jwtBearer turns the JWT bearer grant on)";
  if (grantType === TOKEN_EXCHANGE_GRANT) return " (auth.tokenExchange turns token exchange on)";
  return ["authorization_code", "refresh_token", "client_credentials"].includes(grantType) ? " (auth.grantTypes adds the others)" : "";
}

/** The grants `/token` takes unless `auth.grantTypes` says otherwise. */
const DEFAULT_GRANT_TYPES = ["authorization_code", "refresh_token"] as const;

/** The default access token lifetime in seconds. */
export const DEFAULT_ACCESS_TOKEN_TTL = 3600;

/** A PKCE code challenge or verifier: 43 to 128 unreserved characters (RFC 7636 section 4.1; an S256 challenge is 43 of base64url). */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The body a token request is sent in (RFC 6749 section 3.2, appendix B). */
const FORM = "application/x-www-form-urlencoded";

/** The parameter RFC 8707 section 2 lets a request send more than once: one for each resource asked for. */
const RESOURCE = "resource";

/** The parameters sent more than once that may not be (every one but `resource`), and the message that says so. */
function repeatedParameters(names: readonly string[], section: string): { readonly names: readonly string[]; readonly description: string } | undefined {
  const repeated = names.filter((name) => name !== RESOURCE);
  if (repeated.length === 0) return undefined;
  return { names: repeated, description: `${repeated.join(", ")} ${repeated.length > 1 ? "are" : "is"} sent more than once; send each parameter once (RFC 6749 section ${section}).` };
}

function isProblem(value: unknown): value is OAuthProblem {
  return typeof value === "object" && value !== null && "error" in value && "description" in value;
}

function oauthError(status: number, problem: OAuthProblem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: problem.error, error_description: `[mcpmock] ${problem.description}` }), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });
}

/** The routes and rules of the mock authorization server. */
export class AuthorizationServer {
  readonly #options: AuthOptions;
  readonly #tokens: TokenStore;
  readonly #clients: ClientRegistry;
  readonly #log: AuthLog;
  readonly #resource: ResourceServer;
  readonly #dpop: Dpop | undefined;

  constructor(options: AuthOptions, tokens: TokenStore, clients: ClientRegistry, log: AuthLog, resource: ResourceServer, dpop?: Dpop) {
    this.#options = options;
    this.#dpop = dpop;
    this.#tokens = tokens;
    this.#clients = clients;
    this.#log = log;
    this.#resource = resource;
    // The auth events say when a registration dropped the oldest client past the cap.
    clients.onDropped((dropped, by) => {
      const description = `The mock keeps ${KEPT_CLIENTS}; registering ${by} dropped the oldest, ${dropped}, whose requests now get invalid_client.`;
      log.add({ endpoint: "register", method: "POST", path: AS_PATHS.register, status: 201, outcome: "client-dropped", clientId: dropped, description });
    });
  }

  /** The scopes the server knows (`scopes`, else `required`): an empty list restricts nothing. */
  #known(): readonly string[] {
    return this.#options.scopes ?? this.#options.required ?? [];
  }

  /** The scopes the metadata lists: the known ones, and `offline_access` with `auth.offlineAccess`. */
  #supported(): readonly string[] {
    return this.#options.offlineAccess === true ? [...this.#known(), "offline_access"] : this.#known();
  }

  /** The grants `/token` takes: `auth.grantTypes` (or the code and refresh grants), and the assertion grants turned on. */
  #grants(): readonly string[] {
    return [...(this.#options.grantTypes ?? DEFAULT_GRANT_TYPES), ...(this.#options.jwtBearer ? [JWT_BEARER_GRANT] : []), ...(this.#options.tokenExchange ? [TOKEN_EXCHANGE_GRANT] : [])];
  }

  /** RFC 8414 metadata (with the OpenID Connect fields for the `openid` variant). */
  metadata(c: Context): Record<string, unknown> {
    const issuer = this.#options.metadataIssuer ?? issuerOf(c, this.#options);
    const origin = originOf(c);
    const paths = asPaths(this.#options);
    const supported = this.#supported();
    return {
      issuer,
      authorization_endpoint: `${origin}${paths.authorize}`,
      token_endpoint: `${origin}${paths.token}`,
      ...(this.#options.registration === false ? {} : { registration_endpoint: `${origin}${paths.register}` }),
      response_types_supported: ["code"],
      grant_types_supported: this.#grants(),
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: this.#options.tokenEndpointAuthMethods ?? ["none", "client_secret_basic", "client_secret_post"],
      ...(this.#options.tokenEndpointAuthMethods?.includes("private_key_jwt") ? { token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS } : {}),
      ...(this.#options.issAdvertised === false ? {} : { authorization_response_iss_parameter_supported: true }),
      ...(this.#options.clientIdMetadataDocuments === false ? {} : { client_id_metadata_document_supported: true }),
      ...(supported.length > 0 ? { scopes_supported: supported } : {}),
      ...(this.#dpop ? this.#dpop.metadata() : {}),
      ...(this.#options.serverMetadata === "openid" ? { jwks_uri: `${origin}${paths.jwks}`, subject_types_supported: ["public"], id_token_signing_alg_values_supported: ["RS256"] } : {}),
    };
  }

  /** POST /register (RFC 7591). */
  async register(c: Context): Promise<Response> {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      body = undefined;
    }
    const client = this.#clients.register(body);
    const base = { endpoint: "register" as const, method: "POST", path: c.req.path };
    if (isProblem(client)) {
      this.#log.add({ ...base, status: 400, outcome: client.error, description: client.description });
      return oauthError(400, client);
    }
    this.#log.add({ ...base, status: 201, outcome: "ok", clientId: client.clientId });
    const info = { ...client.metadata, client_id: client.clientId, client_id_issued_at: Math.floor(Date.now() / 1000), token_endpoint_auth_method: client.authMethod, ...(client.clientSecret ? { client_secret: client.clientSecret, client_secret_expires_at: 0 } : {}) };
    return new Response(JSON.stringify(info), { status: 201, headers: { "content-type": "application/json", "cache-control": "no-store" } });
  }

  /** GET /authorize: consents at once (or denies, as `consent` says) and redirects back. */
  async authorize(c: Context): Promise<Response> {
    const q = new URL(c.req.url).searchParams;
    const base = { endpoint: "authorize" as const, method: c.req.method, path: c.req.path };
    const clientId = q.get("client_id") ?? "";
    const redirectUri = q.get("redirect_uri") ?? "";
    // RFC 6749 section 3.1: no parameter more than once but resource (client_id and redirect_uri twice: answered here, never redirected).
    const twice = repeatedParameters([...new Set(q.keys())].filter((name) => q.getAll(name).length > 1), "3.1");
    // Until the client and its redirect URI are known, errors are answered here, never redirected.
    const client =
      twice !== undefined && (twice.names.includes("client_id") || twice.names.includes("redirect_uri"))
        ? { error: "invalid_request", description: twice.description }
        : clientId === ""
          ? { error: "invalid_request", description: "client_id is missing from the authorization request." }
          : await this.#clients.find(clientId);
    if (isProblem(client)) {
      this.#log.add({ ...base, status: 400, outcome: client.error, description: client.description, ...(clientId ? { clientId } : {}) });
      return oauthError(400, client);
    }
    if (!redirectAllowed(client, redirectUri)) {
      const problem = { error: "invalid_request", description: client.redirectUris.length > 0 ? `redirect_uri ${JSON.stringify(redirectUri)} is not one the client registered (${client.redirectUris.join(", ")}).` : `redirect_uri ${JSON.stringify(redirectUri)} is not on a loopback host, and client ${clientId} (of auth.clients) named no redirectUris.` };
      this.#log.add({ ...base, status: 400, outcome: problem.error, description: problem.description, clientId });
      return oauthError(400, problem);
    }
    const back = (params: Record<string, string>, outcome: string, description?: string, scopes?: readonly string[]): Response => {
      const url = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      const state = q.get("state");
      if (state !== null) url.searchParams.set("state", state);
      const iss = this.#redirectIss(c);
      if (iss !== undefined) url.searchParams.set("iss", iss);
      this.#log.add({ ...base, status: 302, outcome, clientId, ...(description ? { description } : {}), ...(scopes ? { scopes } : {}) });
      return new Response(null, { status: 302, headers: { location: url.href, "cache-control": "no-store" } });
    };
    const fail = (error: string, description: string): Response => back({ error, error_description: `[mcpmock] ${description}` }, error, description);
    if (twice !== undefined) return fail("invalid_request", twice.description);
    if (q.get("response_type") !== "code") return fail("unsupported_response_type", `response_type must be "code" (received ${JSON.stringify(q.get("response_type"))}).`);
    const challenge = q.get("code_challenge");
    if (challenge === null || q.get("code_challenge_method") !== "S256") return fail("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256 (plain is not accepted).");
    if (!PKCE_VALUE.test(challenge)) return fail("invalid_request", "code_challenge must be 43 to 128 characters of base64url (the SHA-256 of the code_verifier).");
    const resources = [...new Set(q.getAll(RESOURCE))];
    const ours = this.#resource.resources(c);
    const foreign = resources.filter((r) => !ours.includes(r));
    if ((resources.length === 0 && this.#options.resourceParameter !== "optional") || foreign.length > 0) {
      return fail("invalid_target", resources.length === 0 ? `The resource parameter (RFC 8707) is required; send resource=${ours[0]}.` : `resource ${foreign.join(", ")} ${foreign.length > 1 ? "are not" : "is not"} this server's protected resource; send resource=${ours.join(" or ")} (once for each).`);
    }
    const scopes = this.#grantedScopes(q.get("scope"));
    if (isProblem(scopes)) return fail(scopes.error, scopes.description);
    if (this.#options.consent === "deny") return fail("access_denied", "The user denied the request (auth.consent is \"deny\").");
    const code = this.#tokens.addCode({ clientId, redirectUri, codeChallenge: challenge, scopes, resources, subject: this.#options.subject ?? "user", expiresAt: Date.now() + CODE_TTL_MS });
    return back({ code }, "ok", undefined, scopes);
  }

  /** The `iss` of an authorization response (RFC 9207), as `auth.issInRedirect` says; `undefined`: none. */
  #redirectIss(c: Context): string | undefined {
    const issuer = this.#options.metadataIssuer ?? issuerOf(c, this.#options);
    const mode = this.#options.issInRedirect ?? "issuer";
    return mode === "none" ? undefined : mode === "issuer" ? issuer : mode === "issuer/" ? `${issuer}/` : mode;
  }

  /** The scopes granted for a requested `scope` string: the required ones when none are asked for. */
  #grantedScopes(requested: string | null): readonly string[] | OAuthProblem {
    const asked = (requested ?? "").split(" ").filter(Boolean);
    const malformed = asked.filter((s) => !SCOPE_TOKEN.test(s));
    if (malformed.length > 0) return { error: "invalid_scope", description: `scope holds ${malformed.map((s) => JSON.stringify(s)).join(", ")}, which is not a scope token: scopes are separated by single spaces, each printable ASCII without a space, " or \\ (RFC 6749 section 3.3).` };
    const supported = this.#supported();
    const unknown = this.#known().length === 0 ? [] : asked.filter((s) => !supported.includes(s));
    if (unknown.length > 0) return { error: "invalid_scope", description: `Unknown scope ${unknown.join(" ")}; this server knows ${supported.join(" ")}.` };
    return asked.length > 0 ? [...new Set(asked)] : this.#resource.required;
  }

  /** POST /token: `authorization_code` and `refresh_token`. */
  async token(c: Context): Promise<Response> {
    const form = await c.req.parseBody({ all: true }).catch(() => ({}) as Record<string, unknown>);
    const p = (name: string): string | undefined => (typeof form[name] === "string" ? (form[name] as string) : undefined);
    const named = form[RESOURCE];
    /** The resources the request names (RFC 8707: as many as it asks for), each once. */
    const resources = [...new Set(Array.isArray(named) ? named.filter((r): r is string => typeof r === "string") : typeof named === "string" ? [named] : [])];
    const grantType = p("grant_type");
    const base: { endpoint: "token"; method: string; path: string; grantType?: string; dpopJkt?: string } = { endpoint: "token", method: "POST", path: c.req.path, ...(grantType ? { grantType } : {}) };
    const refuse = (status: number, problem: OAuthProblem, clientId?: string): Response => {
      this.#log.add({ ...base, status, outcome: problem.error, description: problem.description, ...(clientId ? { clientId } : {}) });
      return oauthError(status, problem, status === 401 ? { "www-authenticate": 'Basic realm="mcpmock"' } : {});
    };
    // RFC 6749 section 3.2: the parameters are a form; another body (JSON, multipart) is refused, saying so.
    const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== FORM) return refuse(400, { error: "invalid_request", description: `A token request's body is ${FORM} (RFC 6749 section 3.2); this one was sent as ${type ? JSON.stringify(type) : "no Content-Type"}.` });
    // RFC 9449 section 5: the proof first, so that a nonce demanded does not use up the code.
    const proof = this.#dpop ? await this.#dpop.tokenRequest(c) : undefined;
    if (proof && isDpopRefusal(proof)) {
      this.#log.add({ ...base, status: proof.status, outcome: proof.outcome, description: proof.description });
      return oauthError(proof.status, { error: proof.error, description: proof.description }, proof.nonce ? { "dpop-nonce": proof.nonce } : {});
    }
    const jkt = proof?.jkt;
    /** What binds an access token to the proof's key (RFC 9449 section 6), whatever the grant. */
    const bound = jkt === undefined ? {} : { jkt };
    if (jkt !== undefined) base.dpopJkt = jkt;
    // RFC 6749 section 3.2: a parameter sent twice (resource aside), or no grant_type, is invalid_request.
    const twice = repeatedParameters(Object.keys(form).filter((name) => Array.isArray(form[name])), "3.2");
    if (twice !== undefined) return refuse(400, { error: "invalid_request", description: twice.description });
    if (grantType === undefined) return refuse(400, { error: "invalid_request", description: "grant_type is missing; send grant_type=authorization_code (or refresh_token)." });
    const client = await this.#authenticate(c, p);
    if (isProblem(client)) return refuse(client.error === "invalid_client" ? 401 : 400, client);
    let granted: IssuedToken;
    /** Without rotation, the refresh token that was used, answered again. */
    let kept: IssuedToken | undefined;
    const grants = this.#grants();
    const unsupported = (): Response =>
      refuse(400, { error: "unsupported_grant_type", description: `grant_type ${JSON.stringify(grantType)} is not supported; use ${grants.join(" or ")}${grantHint(grantType)}.` }, client.clientId);
    if (!grants.includes(grantType)) {
      return unsupported();
    } else if (grantType === "client_credentials") {
      const grant = clientCredentialsGrant(client, this.#grantedScopes(p("scope") ?? null), resources, this.#resource.resources(c));
      if (isProblem(grant)) return refuse(400, grant, client.clientId);
      granted = this.#tokens.issue({ kind: "access", ...grant, clientId: client.clientId, ttlSeconds: this.#options.accessTokenTtl ?? DEFAULT_ACCESS_TOKEN_TTL, ...bound });
    } else if (grantType === "authorization_code") {
      const code = this.#tokens.takeCode(p("code") ?? "");
      if (code === "replayed") return refuse(400, { error: "invalid_grant", description: "The authorization code was used already; the tokens issued for it are revoked now (RFC 6749 section 4.1.2). Authorize again for a new code." }, client.clientId);
      if (!code || code.clientId !== client.clientId) return refuse(400, { error: "invalid_grant", description: "The authorization code is unknown, used already, expired, or was issued to another client." }, client.clientId);
      if (p("redirect_uri") !== code.redirectUri) return refuse(400, { error: "invalid_grant", description: `redirect_uri must be the one of the authorization request (${code.redirectUri}).` }, client.clientId);
      // RFC 7636 section 4.1: a verifier of another form is refused, whatever its hash.
      const verifier = p("code_verifier") ?? "";
      if (!PKCE_VALUE.test(verifier)) return refuse(400, { error: "invalid_request", description: `code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~" (RFC 7636 section 4.1); it is ${verifier === "" ? "missing" : `${verifier.length} characters${/^[A-Za-z0-9\-._~]*$/.test(verifier) ? "" : " with others among them"}`}.` }, client.clientId);
      if (s256(verifier) !== code.codeChallenge) return refuse(400, { error: "invalid_grant", description: "code_verifier does not match the code_challenge (PKCE S256: BASE64URL(SHA256(code_verifier)))." }, client.clientId);
      const other = resources.filter((r) => !code.resources.includes(r));
      if (other.length > 0) return refuse(400, { error: "invalid_target", description: `resource ${other.join(", ")} was not asked for in the authorization request; send resource=${code.resources.join(" or ")}, or none.` }, client.clientId);
      granted = this.#tokens.issue({ kind: "access", scopes: code.scopes, subject: code.subject, clientId: client.clientId, resource: resources[0] ?? code.resources[0], ttlSeconds: this.#options.accessTokenTtl ?? DEFAULT_ACCESS_TOKEN_TTL, ...bound }, p("code"));
    } else if (grantType === "refresh_token") {
      const old = this.#tokens.check(p("refresh_token") ?? "", "refresh");
      if (typeof old === "string" || old.clientId !== client.clientId) return refuse(400, { error: "invalid_grant", description: typeof old === "string" ? `The refresh token is ${old === "unknown" ? "unknown (a rotated one is used up)" : old}.` : "The refresh token was issued to another client." }, client.clientId);
      // RFC 9449 section 5: a public client's refresh token is bound to its key; a refresh must prove it.
      if (old.jkt !== undefined && old.jkt !== jkt) return refuse(400, { error: "invalid_dpop_proof", description: jkt === undefined ? "The refresh token is DPoP-bound: send a DPoP proof of its key with the refresh (RFC 9449 section 5)." : "The DPoP proof is signed by another key than the one the refresh token is bound to: sign the refresh's proof with the key of the token request that got it." }, client.clientId);
      if (resources.some((r) => r !== old.resource)) return refuse(400, { error: "invalid_target", description: `resource must be the one the grant was for (${old.resource}).` }, client.clientId);
      const asked = [...new Set((p("scope") ?? "").split(" ").filter(Boolean))];
      const wider = asked.filter((s) => !old.scopes.includes(s));
      if (wider.length > 0) return refuse(400, { error: "invalid_scope", description: `A refresh cannot add scopes (${wider.join(" ")}); authorize again for them.` }, client.clientId);
      const rotate = this.#options.refreshRotation !== false;
      if (rotate) old.revoked = true; // rotation: a refresh token is used once
      else kept = old;
      granted = this.#tokens.issue({ kind: "access", scopes: asked.length > 0 ? asked : old.scopes, subject: old.subject, clientId: client.clientId, resource: old.resource, ttlSeconds: this.#options.accessTokenTtl ?? DEFAULT_ACCESS_TOKEN_TTL, ...bound }, this.#tokens.grantOf(old));
    } else if (grantType === JWT_BEARER_GRANT && this.#options.jwtBearer) {
      // RFC 7523 section 2.1; no refresh token: the client presents a new assertion instead.
      const asserted = await verifyAssertion(this.#options.jwtBearer, p("assertion"), { issuer: issuerOf(c, this.#options), clientId: client.clientId, resources: this.#resource.resources(c), requested: resources });
      if (isProblem(asserted)) return refuse(400, asserted, client.clientId);
      const scopes = this.#grantedScopes(p("scope") ?? null);
      if (isProblem(scopes)) return refuse(400, scopes, client.clientId);
      granted = this.#tokens.issue({ kind: "access", scopes, subject: asserted.subject, clientId: client.clientId, resource: asserted.resource, ttlSeconds: this.#options.accessTokenTtl ?? DEFAULT_ACCESS_TOKEN_TTL, ...bound });
    } else if (grantType === TOKEN_EXCHANGE_GRANT && this.#options.tokenExchange) {
      // RFC 8693: the answer is an ID-JAG for another server, not a token of this one.
      const exchanged = await exchangeToken(this.#options.tokenExchange, p, { issuer: issuerOf(c, this.#options), clientId: client.clientId });
      if (isProblem(exchanged)) return refuse(exchanged.error === "server_error" ? 500 : 400, exchanged, client.clientId);
      const { subject, ...body } = exchanged;
      this.#log.add({ ...base, status: 200, outcome: "ok", subject, clientId: client.clientId });
      return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json", "cache-control": "no-store" } });
    } else {
      return unsupported();
    }
    // No refresh token for client credentials (RFC 6749 section 4.4.3) nor for an assertion (the client presents a new one).
    const bindRefresh = jkt !== undefined && client.authMethod === "none";
    const refresh = this.#options.refreshTokens === false || grantType === "client_credentials" || grantType === JWT_BEARER_GRANT ? undefined : kept ?? this.#tokens.issue({ kind: "refresh", scopes: granted.scopes, subject: granted.subject, clientId: client.clientId, resource: granted.resource, ttlSeconds: undefined, accessId: granted.id, ...(bindRefresh ? { jkt } : {}) }, this.#tokens.grantOf(granted));
    this.#log.add({ ...base, status: 200, outcome: "ok", tokenId: granted.id, scopes: granted.scopes, subject: granted.subject, clientId: client.clientId });
    const body = { access_token: granted.token, token_type: granted.jkt === undefined ? "Bearer" : "DPoP", expires_in: this.#options.accessTokenTtl ?? DEFAULT_ACCESS_TOKEN_TTL, ...(granted.scopes.length > 0 ? { scope: granted.scopes.join(" ") } : {}), ...(refresh ? { refresh_token: refresh.token } : {}) };
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json", "cache-control": "no-store" } });
  }

  /** The client of a token request, authenticated as it registered (public clients send only their id). */
  async #authenticate(c: Context, p: (name: string) => string | undefined): Promise<KnownClient | OAuthProblem> {
    let id = p("client_id");
    let secret = p("client_secret");
    const assertion = { assertion: p("client_assertion"), assertionType: p("client_assertion_type"), clientId: id };
    const header = c.req.header("authorization");
    const basicSent = /^Basic(\s|$)/i.test(header ?? "");
    const methods = [...(basicSent ? ["HTTP Basic"] : []), ...(secret !== undefined ? ["client_secret"] : []), ...(assertion.assertion !== undefined || assertion.assertionType !== undefined ? ["client_assertion"] : [])];
    if (methods.length > 1) return { error: "invalid_request", description: `The token request authenticates the client more than one way (${methods.join(" and ")}); use only the one the client registered (RFC 6749 section 2.3).` };
    if (assertion.assertion !== undefined || assertion.assertionType !== undefined) {
      // RFC 7523 section 2.2: the client is the one its assertion names, proven by its signature.
      const named = await assertedClientId(assertion);
      const client = isProblem(named) ? named : await this.#clients.find(named);
      if (isProblem(client)) return client;
      const issuer = issuerOf(c, this.#options);
      const problem = await verifyClientAssertion(client, assertion, [...new Set([this.#options.metadataIssuer ?? issuer, issuer])].flatMap((i) => [i, `${i}/`]));
      return problem ?? client;
    }
    const basic = basicCredentials(header);
    if (basic === "malformed") return { error: "invalid_client", description: "The HTTP Basic credentials are not valid percent-encoding: encode the client_id and client_secret with application/x-www-form-urlencoded, join them with a colon, then base64 (RFC 6749 section 2.3.1)." };
    if (basic && id !== undefined && id !== basic.id) return { error: "invalid_client", description: `client_id ${id} is not the client the HTTP Basic credentials name (${basic.id}): send one client's id, or leave client_id out (RFC 6749 section 3.2.1).` };
    if (basic) ({ id, secret } = basic);
    if (!id) return { error: "invalid_client", description: "The token request names no client: send client_id (or HTTP Basic client authentication)." };
    const client = await this.#clients.find(id);
    if (isProblem(client)) return client;
    if (client.authMethod === "private_key_jwt") return { error: "invalid_client", description: `Client ${id} registered private_key_jwt: send a client_assertion signed with its key (RFC 7523), not ${basic ? "HTTP Basic" : secret !== undefined ? "a client_secret" : "its client_id alone"}.` };
    if (client.clientSecret !== undefined && secret !== client.clientSecret) return { error: "invalid_client", description: `Client ${id} registered ${client.authMethod}: send its client_secret.` };
    return client;
  }
}
