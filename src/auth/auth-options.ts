/**
 * The `auth` start option: what authorization mocking does (scopes, metadata, consent,
 * tokens), and its check. Here, beside what reads it, so that the auth layer stands on
 * values alone; `options.ts` names it in `McpMockOptions`.
 * @module
 */
import { McpMockError } from "../values/errors.js";
import { dpopProblems, type DpopOptions } from "./dpop.js";
import { privateMembers } from "./jwk.js";
import { jwtBearerProblems, type JwtBearerGrantOptions } from "./jwt-bearer-grant.js";
import { tokenExchangeProblems, type TokenExchangeGrantOptions } from "./token-exchange-grant.js";

/**
 * Authorization mocking (`auth` in {@link McpMockOptions}): the MCP endpoint becomes an OAuth 2.1
 * protected resource and the mock is also its authorization server. Every field is optional;
 * `auth: {}` (or `auth: true`) protects the endpoint with no scope required.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({ auth: { scopes: ["read", "write"], required: ["read"] } });
 * const token = mock.auth.issueToken({ scopes: ["read"] });
 * // fetch(mock.url, { headers: { authorization: `Bearer ${token}` }, ... })
 * ```
  * @category Authorization
 */
export interface AuthOptions {
  /** Scopes the authorization server knows (`scopes_supported`); a request for another is `invalid_scope`. Default: `required`. */
  readonly scopes?: readonly string[];
  /** Scopes every MCP request's token must hold; a token without one gets 403 `insufficient_scope` naming them. Default none. */
  readonly required?: readonly string[];
  /**
   * Where the protected resource metadata (RFC 9728) is served: `"path"` (default) at
   * `/.well-known/oauth-protected-resource/mcp` (the endpoint's path appended), `"root"` at
   * `/.well-known/oauth-protected-resource`, or a path of your own (`"/custom/metadata.json"`),
   * which only the 401 challenge names.
   */
  readonly metadataAt?: "path" | "root" | `/${string}`;
  /** Name the metadata URL in the 401 challenge (`resource_metadata="..."`, default `true`); `false` makes clients probe the well-known URLs. */
  readonly challengeMetadata?: boolean;
  /**
   * Which authorization server metadata is served: `"oauth"` (default) at
   * `/.well-known/oauth-authorization-server` (RFC 8414), `"openid"` at
   * `/.well-known/openid-configuration` only (OpenID Connect Discovery; clients must fall back to it).
   */
  readonly serverMetadata?: "oauth" | "openid";
  /**
   * A path in the authorization server's issuer (`"/tenant1"`): the issuer becomes
   * `<origin>/tenant1`, its metadata moves to `/.well-known/oauth-authorization-server/tenant1`
   * (RFC 8414 section 3.1) or, for `serverMetadata: "openid"`, `/tenant1/.well-known/openid-configuration`,
   * and its endpoints to `/tenant1/authorize`, `/tenant1/token`, `/tenant1/register`.
   */
  readonly issuerPath?: string;
  /** Serve dynamic client registration (RFC 7591) at `/register` (default `true`); `false`: no `registration_endpoint`, clients come from `clients` or metadata documents. */
  readonly registration?: boolean;
  /** Take client ID metadata document URLs as client ids, and say so in the metadata (default `true`); `false`: neither. */
  readonly clientIdMetadataDocuments?: boolean;
  /**
   * The token endpoint authentication methods the server supports (default all three): the
   * metadata lists them, and a registration that asks for another one (or none) is given the
   * first (RFC 7591 section 3.2.1 lets a server replace a value), with a secret unless it is `"none"`.
   */
  readonly tokenEndpointAuthMethods?: readonly TokenEndpointAuthMethod[];
  /**
   * The `resource` parameter (RFC 8707) at `/authorize`: `"required"` (default; a request without
   * one is `invalid_target`) or `"optional"` (a client that sends none gets a token for every
   * protected endpoint). A `resource` that is sent must name this server's endpoint either way.
   */
  readonly resourceParameter?: "required" | "optional";
  /**
   * The `resource` the protected resource metadata publishes, instead of the endpoint's own URL
   * (`"https://evil.example.com/mcp"`): a client must refuse to authorize for a document that
   * names another resource (RFC 9728 section 3.3). One that goes on gets a token for it, which
   * the endpoint takes (as a server that misnames itself would).
   */
  readonly metadataResource?: string;
  /**
   * The authorization server lists `offline_access` in its `scopes_supported` and grants it
   * (default `false`); the protected resource metadata does not list it (SEP-2207: a client that
   * wants a refresh token adds it itself).
   */
  readonly offlineAccess?: boolean;
  /** Say `authorization_response_iss_parameter_supported: true` in the metadata (default `true`); `false` leaves the field out. */
  readonly issAdvertised?: boolean;
  /**
   * The `iss` of the redirect from `/authorize` (RFC 9207): `"issuer"` (default, the issuer the
   * metadata names), `"none"` (left out), `"issuer/"` (the issuer with a trailing slash: equal only
   * after URL normalization, which a client must not apply), or a URL of your own (another issuer).
   */
  readonly issInRedirect?: "issuer" | "none" | "issuer/" | (string & {});
  /**
   * The `issuer` the authorization server metadata names, instead of its own
   * (`"https://attacker.example.com"`): a client must not use metadata whose issuer is not the
   * one it built the well-known URL from (RFC 8414 section 3.3).
   */
  readonly metadataIssuer?: string;
  /**
   * The grants `/token` takes (`grant_types_supported`), default `["authorization_code", "refresh_token"]`.
   * Add `"client_credentials"` (RFC 6749 section 4.4, the MCP client credentials extension, SEP-1046)
   * for machine-to-machine clients: a confidential client of `clients` gets a token for itself,
   * with no user and no `/authorize`. A grant not listed is `unsupported_grant_type`.
   */
  readonly grantTypes?: readonly GrantType[];
  /** Clients known in advance (pre-registration): their requests need no `/register`. */
  readonly clients?: readonly PreRegisteredClient[];
  /** What `/authorize` does at once: `"approve"` (default) redirects with a `code`, `"deny"` with `error=access_denied`. */
  readonly consent?: "approve" | "deny";
  /** Seconds an access token lives (`expires_in`); 3600 by default. */
  readonly accessTokenTtl?: number;
  /** Issue refresh tokens with access tokens (default `true`); each refresh rotates it (the old one is then `invalid_grant`). */
  readonly refreshTokens?: boolean;
  /**
   * Rotate refresh tokens (default `true`): a refresh answers a new refresh token and the used
   * one is then `invalid_grant`, so two refreshes at once (a GET and a POST) race. `false`: a
   * refresh token stays valid and the same one is answered again.
   */
  readonly refreshRotation?: boolean;
  /** The subject (`sub`) of tokens the flow issues, the user who "consented"; `"user"` by default. */
  readonly subject?: string;
  /** Tokens and codes kept at most (the oldest go first); 10000 by default. Past 32 MiB of either the oldest go too. */
  readonly maxTokens?: number;
  /** The JWT bearer grant (RFC 7523): `/token` exchanges signed assertions (a workload's JWT, an ID-JAG) for access tokens. Off by default. */
  readonly jwtBearer?: JwtBearerGrantOptions;
  /** Token exchange (RFC 8693): the server plays an enterprise IdP (SEP-990), exchanging ID tokens for ID-JAGs. Off by default. */
  readonly tokenExchange?: TokenExchangeGrantOptions;
  /**
   * DPoP (RFC 9449, SEP-1932): a token request with a proof gets a token bound to its key, which
   * the MCP endpoint takes as `Authorization: DPoP <token>` with a fresh proof on every request;
   * nonces on demand. `true` takes the defaults of {@link DpopOptions}. Off by default.
   */
  readonly dpop?: boolean | DpopOptions;
}

/**
 * How a client authenticates at the token endpoint (`auth.tokenEndpointAuthMethods`).
 *
 * @example
 * ```ts
 * import { McpMock, type TokenEndpointAuthMethod } from "mcpmock";
 * const only: TokenEndpointAuthMethod[] = ["client_secret_basic"];
 * await using mock = await McpMock.start({ auth: { tokenEndpointAuthMethods: only } });
 * ```
 * @category Authorization
 */
export type TokenEndpointAuthMethod = "none" | "client_secret_basic" | "client_secret_post" | "private_key_jwt";

/**
 * A grant the token endpoint takes (`auth.grantTypes`).
 *
 * @example
 * ```ts
 * import { McpMock, type GrantType } from "mcpmock";
 * const grants: GrantType[] = ["client_credentials"];
 * await using mock = await McpMock.start({ auth: { grantTypes: grants, clients: [{ clientId: "svc", clientSecret: "s3cret" }] } });
 * ```
 * @category Authorization
 */
export type GrantType = "authorization_code" | "refresh_token" | "client_credentials";

/**
 * A client the authorization server knows in advance (`auth.clients`).
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({ auth: { registration: false, clients: [{ clientId: "my-app", clientSecret: "s3cret" }] } });
 * ```
 * @category Authorization
 */
export interface PreRegisteredClient {
  /** Its `client_id`; a URL stands for a client ID metadata document the server holds already (never fetched). */
  readonly clientId: string;
  /** Its secret: it must authenticate with it at the token endpoint. */
  readonly clientSecret?: string;
  /** The redirect URIs it may use; any on a loopback host when left out. */
  readonly redirectUris?: readonly string[];
  /** How it authenticates; `client_secret_basic` with a secret, `private_key_jwt` with `jwks`, `none` without either, by default. */
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /**
   * Its public keys (RFC 7591 `jwks`), for `private_key_jwt`: it signs a `client_assertion`
   * (RFC 7523) with its private key, whose `aud` is the authorization server's issuer.
   */
  readonly jwks?: {
    /** The public JWKs (a `kty` each, never a private `d`), as jose's `exportJWK(publicKey)` gives them. */
    readonly keys: readonly JsonWebKey[];
  };
}

/** A scope token (RFC 6749 section 3.3: `1*NQCHAR`, printable ASCII but space, `"` and `\\`): what a scope list and a challenge's `scope` can carry. */
export const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

const AUTH_METHODS: readonly TokenEndpointAuthMethod[] = ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"];
const GRANT_TYPES: readonly GrantType[] = ["authorization_code", "refresh_token", "client_credentials"];

/** How a pre-registered client authenticates when it does not say: by its key, by its secret, or not at all. */
export function defaultAuthMethod(client: Pick<PreRegisteredClient, "clientSecret" | "jwks">): TokenEndpointAuthMethod {
  return client.jwks !== undefined ? "private_key_jwt" : client.clientSecret !== undefined ? "client_secret_basic" : "none";
}

/** Refuses `auth` options that cannot work, every problem at once, with the fix. */
export function assertAuthOptions(auth: AuthOptions): void {
  const problems: string[] = [];
  if (typeof auth !== "object" || auth === null || Array.isArray(auth)) throw new McpMockError(`auth must be true or an object like { required: ["read"] }, received ${JSON.stringify(auth)}.`);
  const words = (name: "scopes" | "required"): void => {
    const v = auth[name];
    if (v !== undefined && !(Array.isArray(v) && v.every((s) => typeof s === "string" && SCOPE_TOKEN.test(s)))) {
      problems.push(`auth.${name} must be a list of scope names (no spaces or quotes), like ["read", "write"]; received ${JSON.stringify(v)}.`);
    }
  };
  words("scopes");
  words("required");
  const unknown = auth.scopes && auth.required ? auth.required.filter((s) => !auth.scopes?.includes(s)) : [];
  if (unknown.length > 0) problems.push(`auth.required names ${unknown.map((s) => JSON.stringify(s)).join(", ")}, which auth.scopes does not list: add it to scopes, or leave scopes out (it defaults to required).`);
  const oneOf = (name: keyof AuthOptions, allowed: readonly unknown[]): void => {
    if (auth[name] !== undefined && !allowed.includes(auth[name])) problems.push(`auth.${name} must be ${allowed.map((a) => JSON.stringify(a)).join(" or ")}, received ${JSON.stringify(auth[name])}.`);
  };
  if (auth.metadataAt !== undefined && auth.metadataAt !== "path" && auth.metadataAt !== "root" && !(typeof auth.metadataAt === "string" && /^\/[\x21-\x7e]+$/.test(auth.metadataAt) && !auth.metadataAt.includes("#") && !auth.metadataAt.includes("?"))) {
    problems.push(`auth.metadataAt must be "path" or "root", or a path like "/custom/metadata.json", received ${JSON.stringify(auth.metadataAt)}.`);
  }
  if (auth.issuerPath !== undefined && !(typeof auth.issuerPath === "string" && /^(\/[A-Za-z0-9\-._~]+)+$/.test(auth.issuerPath))) problems.push(`auth.issuerPath must be a path like "/tenant1" (no trailing slash, no query), received ${JSON.stringify(auth.issuerPath)}.`);
  oneOf("registration", [true, false]);
  oneOf("clientIdMetadataDocuments", [true, false]);
  const methods = auth.tokenEndpointAuthMethods;
  if (methods !== undefined && !(Array.isArray(methods) && methods.length > 0 && methods.every((m) => AUTH_METHODS.includes(m)))) problems.push(`auth.tokenEndpointAuthMethods must be a non-empty list of ${AUTH_METHODS.join(", ")}; received ${JSON.stringify(methods)}.`);
  if (auth.clients !== undefined) {
    if (!Array.isArray(auth.clients)) problems.push(`auth.clients must be a list like [{ clientId: "my-app", clientSecret: "s3cret" }], received ${JSON.stringify(auth.clients)}.`);
    else
      auth.clients.forEach((client: PreRegisteredClient, i) => {
        const where = `auth.clients[${i}]`;
        if (typeof client !== "object" || client === null || typeof client.clientId !== "string" || client.clientId === "") problems.push(`${where} must have a clientId (a non-empty string), received ${JSON.stringify(client)}.`);
        else {
          if (client.clientSecret !== undefined && (typeof client.clientSecret !== "string" || client.clientSecret === "")) problems.push(`${where}.clientSecret must be a non-empty string.`);
          if (client.redirectUris !== undefined && !(Array.isArray(client.redirectUris) && client.redirectUris.every((u) => typeof u === "string"))) problems.push(`${where}.redirectUris must be a list of URLs.`);
          const method = client.tokenEndpointAuthMethod;
          if (method !== undefined && !AUTH_METHODS.includes(method)) problems.push(`${where}.tokenEndpointAuthMethod must be one of ${AUTH_METHODS.join(", ")}, received ${JSON.stringify(method)}.`);
          const jwks = client.jwks;
          if (jwks !== undefined && !(typeof jwks === "object" && jwks !== null && Array.isArray(jwks.keys) && jwks.keys.length > 0 && jwks.keys.every((k) => typeof k === "object" && k !== null && typeof k.kty === "string" && privateMembers(k).length === 0))) problems.push(`${where}.jwks must be { keys: [...] } with at least one public JWK (a kty, no private "d"), like { keys: [await exportJWK(publicKey)] }.`);
          const secretFor = method === "client_secret_basic" || method === "client_secret_post";
          if (method !== undefined && secretFor !== (client.clientSecret !== undefined)) problems.push(`${where}: tokenEndpointAuthMethod ${method} ${secretFor ? "needs a clientSecret" : "takes no clientSecret"}.`);
          if ((method ?? defaultAuthMethod(client)) === "private_key_jwt" ? jwks === undefined : method !== undefined && jwks !== undefined) problems.push(`${where}: ${jwks === undefined ? "tokenEndpointAuthMethod private_key_jwt needs jwks (the client's public keys)" : `jwks is for private_key_jwt, not ${method}`}.`);
        }
      });
  }
  const grants = auth.grantTypes;
  if (grants !== undefined && !(Array.isArray(grants) && grants.length > 0 && grants.every((g) => GRANT_TYPES.includes(g)))) problems.push(`auth.grantTypes must be a non-empty list of ${GRANT_TYPES.join(", ")}; received ${JSON.stringify(grants)}.`);
  oneOf("resourceParameter", ["required", "optional"]);
  oneOf("offlineAccess", [true, false]);
  oneOf("issAdvertised", [true, false]);
  const absolute = (v: unknown): boolean => typeof v === "string" && URL.canParse(v) && /^https?:$/.test(new URL(v).protocol);
  if (auth.metadataResource !== undefined && !absolute(auth.metadataResource)) problems.push(`auth.metadataResource must be an http(s) URL like "https://other.example.com/mcp", received ${JSON.stringify(auth.metadataResource)}.`);
  if (auth.metadataIssuer !== undefined && !absolute(auth.metadataIssuer)) problems.push(`auth.metadataIssuer must be an http(s) URL like "https://other.example.com", received ${JSON.stringify(auth.metadataIssuer)}.`);
  const iss = auth.issInRedirect;
  if (iss !== undefined && !["issuer", "none", "issuer/"].includes(iss) && !absolute(iss)) problems.push(`auth.issInRedirect must be "issuer", "none", "issuer/" or an http(s) URL (another issuer), received ${JSON.stringify(iss)}.`);
  oneOf("serverMetadata", ["oauth", "openid"]);
  oneOf("consent", ["approve", "deny"]);
  oneOf("challengeMetadata", [true, false]);
  oneOf("refreshTokens", [true, false]);
  oneOf("refreshRotation", [true, false]);
  for (const name of ["accessTokenTtl", "maxTokens"] as const) {
    const v = auth[name];
    if (v !== undefined && !(Number.isSafeInteger(v) && v > 0)) problems.push(`auth.${name} must be a positive whole number, received ${JSON.stringify(v)}.`);
  }
  problems.push(...dpopProblems(auth.dpop));
  if (auth.subject !== undefined && (typeof auth.subject !== "string" || auth.subject === "")) problems.push(`auth.subject must be a non-empty string, received ${JSON.stringify(auth.subject)}.`);
  if (auth.jwtBearer !== undefined) problems.push(...jwtBearerProblems(auth.jwtBearer));
  if (auth.tokenExchange !== undefined) problems.push(...tokenExchangeProblems(auth.tokenExchange));
  if (problems.length > 0) throw new McpMockError(problems.length === 1 ? (problems[0] as string) : `auth has ${problems.length} problems:\n- ${problems.join("\n- ")}`);
}
