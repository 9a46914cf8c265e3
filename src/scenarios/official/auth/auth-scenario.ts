/**
 * What every official `auth/*` scenario shares: a mock whose embedded authorization server
 * plays the suite's (protected resource metadata, authorization server metadata, registration,
 * `/authorize`, `/token`) behind a wire tap, and the checks the suite's authorization server
 * makes of every request, read from the tap afterwards: `prm-pathbased-requested`,
 * `authorization-server-metadata`, `client-registration`, `authorization-request`, the four
 * `pkce-*` checks, `token-request`, `valid-bearer-token` / `invalid-bearer-token`, and on
 * 2026-07-28 `sep-837-application-type-present`. A scenario adds its own checks through hooks.
 * @module
 */
import type { ServerResponse } from "node:http";
import { createHash } from "node:crypto";
import type { AuthOptions, McpMock, ProtocolVersion } from "../../../index.js";
import { LATEST_PROTOCOL_VERSION, revisionOf, STATELESS_PROTOCOL_VERSION } from "../../../protocol/revisions.js";
import type { Check } from "../../check.js";
import type { Scenario, ScenarioRun } from "../../scenario.js";
import { scenarioMock, tappedRun } from "../../scenario-mock.js";
import { messageOf, supplyStandardHeaders, type TappedRequest, type WireTap } from "../../wire-tap.js";

/** The revisions the suite plays its auth scenarios at: the session era's newest, then the stateless one. */
export const AUTH_SPEC_VERSIONS: readonly string[] = [LATEST_PROTOCOL_VERSION, STATELESS_PROTOCOL_VERSION];

/** The MCP endpoint's path, as the suite serves it. */
export const MCP_PATH = "/mcp";
/** The protected resource metadata's path-based location. */
export const PATH_PRM = "/.well-known/oauth-protected-resource/mcp";
/** The root locations a client must not ask first (the suite's traps). */
export const ROOT_PRM = "/.well-known/oauth-protected-resource";
export const ROOT_AS_METADATA = "/.well-known/oauth-authorization-server";

/** What an authorization request said (the query of a GET of `/authorize`). */
export interface AuthorizationRequest {
  readonly query: URLSearchParams;
  readonly request: TappedRequest;
}

/** What a token request said (its form and its `Authorization` header). */
export interface TokenRequest {
  readonly form: URLSearchParams;
  readonly authorization: string | undefined;
  readonly request: TappedRequest;
}

/** A scenario's own server behaviour for an MCP request (step-up, a server that always says 403). */
export type McpGate = (request: TappedRequest, response: ServerResponse, run: { readonly mock: McpMock; readonly tap: () => WireTap }) => boolean;

/** How one `auth/*` scenario differs from the others. */
export interface AuthScenarioConfig {
  readonly name: string;
  readonly description: string;
  /** The suite's revisions for it; 2025-11-25 first. */
  readonly specVersions?: readonly string[];
  /** The extension's id, for an extension's scenario ({@link Scenario.extension}). */
  readonly extension?: string;
  readonly allowClientError?: boolean;
  /** The embedded authorization server's options (refresh tokens are off, as the suite's server issues none). */
  readonly auth: AuthOptions;
  /** Where the protected resource metadata is (`prm-pathbased-requested` is read there). */
  readonly prmPath?: string;
  /** Which MCP requests carrying a bearer token the suite's server verifies (and so checks): all POSTs, or none of `initialize` and notifications (its step-up gate). */
  readonly verifies?: "every-post" | "not-lifecycle" | "none";
  /** A client that asked the root PRM first fails `prm-priority-order` (the suite's trap). */
  readonly trapRootPrm?: boolean;
  /** The scenario's own answers to MCP requests (it judges the client's token); what it lets pass reaches the mock with a token of the scenario's. */
  readonly gate?: McpGate;
  /** The scenario's own answers to token requests (`POST /token`); what it lets pass reaches the embedded authorization server. */
  readonly tokenGate?: McpGate;
  /** Extra facts for the client (`MCP_CONFORMANCE_CONTEXT`). */
  readonly context?: Readonly<Record<string, unknown>>;
  /** The scenario's own checks, made at each authorization request, token request, and at the end. */
  readonly onAuthorization?: (request: AuthorizationRequest, index: number, specVersion: string) => Check[];
  readonly onToken?: (request: TokenRequest, index: number) => Check[];
  /** The scenario's own checks of a dynamic client registration (its JSON body). */
  readonly onRegistration?: (body: Record<string, unknown>) => Check[];
  readonly atEnd?: (seen: AuthSeen) => Check[];
  /** Rewrites the server's checks before the scenario's own follow (the suite keeps one per id in some scenarios). */
  readonly reviseServerChecks?: (checks: readonly Check[]) => Check[];
}

/** What the client did, for a scenario's checks at the end. */
export interface AuthSeen {
  readonly authorizations: readonly AuthorizationRequest[];
  readonly tokens: readonly TokenRequest[];
  /** The bodies of its dynamic client registrations. */
  readonly registrations: readonly Record<string, unknown>[];
  readonly checks: readonly Check[];
  readonly specVersion: string;
  readonly prmResource: string | undefined;
  /** The scenario's mock (its auth log) and the wire tap in front of it. */
  readonly mock: McpMock;
  readonly tap: WireTap;
}

/** The suite's test tool: `test-tool`, answering "test". */
export const TEST_TOOL = { name: "test-tool", inputSchema: { type: "object" } } as const;

function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/** A tapped request's path without its query. */
export function pathOf(request: TappedRequest): string {
  return new URL(request.path, "http://x").pathname;
}

/** The bearer token a tapped request presents. */
export function bearerOf(request: TappedRequest): string | undefined {
  const m = /^Bearer +(\S+)/i.exec(request.headers["authorization"] ?? "");
  return m ? m[1] : undefined;
}

/** Whether the MCP request is one the suite's step-up gate lets pass unverified. */
export function isLifecycle(request: TappedRequest): boolean {
  const method = messageOf(request).method ?? "";
  return method === "initialize" || method.startsWith("notifications/");
}

/** A 401 or 403 with a bearer challenge, as the suite's gates answer it. */
export function challenge(response: ServerResponse, status: 401 | 403, params: string, body: Record<string, string>): true {
  response.writeHead(status, { "content-type": "application/json", "www-authenticate": `Bearer ${params}` }).end(JSON.stringify(body));
  return true;
}

/** The access token a client presented, if the mock issued it: its scopes. */
export function tokenScopes(mock: McpMock, request: TappedRequest): readonly string[] | undefined {
  const bearer = bearerOf(request);
  return bearer === undefined ? undefined : mock.auth.issued().find((t) => t.kind === "access" && t.token === bearer)?.scopes;
}

/** The checks the suite's authorization and resource servers make of every request, in arrival order (a scenario with a second server passes both servers' requests). */
export function serverChecks(config: AuthScenarioConfig, mock: McpMock, tap: WireTap, specVersion: string): Omit<AuthSeen, "specVersion" | "mock" | "tap"> & { checks: Check[] } {
  const prefix = config.auth.issuerPath ?? "";
  const asMetadata = config.auth.serverMetadata === "openid" ? `${prefix}/.well-known/openid-configuration` : `${ROOT_AS_METADATA}${prefix}`;
  const prmPath = config.prmPath ?? PATH_PRM;
  const issued = new Set(mock.auth.issued().filter((t) => t.kind === "access").map((t) => t.token));
  const checks: Check[] = [];
  const authorizations: AuthorizationRequest[] = [];
  const tokens: TokenRequest[] = [];
  const registrations: Record<string, unknown>[] = [];
  let challengeSent: string | undefined;
  /** The resource the protected resource metadata published (the mock spells it with the Host it was asked for). */
  let prmResource: string | undefined;
  for (const request of tap.requests) {
    const path = pathOf(request);
    const at = { url: request.path, path };
    if (request.method === "GET" && path === prmPath) prmResource = config.auth.metadataResource ?? `http://${request.headers["host"] ?? ""}${MCP_PATH}`;
    if (request.method === "GET" && path === prmPath) checks.push({ id: "prm-pathbased-requested", status: "SUCCESS", description: "Client requested PRM metadata at path-based location", details: at });
    else if (request.method === "GET" && path === ROOT_PRM && config.trapRootPrm) checks.push({ id: "prm-priority-order", status: "FAILURE", description: "Client requested PRM metadata at root location on a server with path-based PRM", errorMessage: `The client asked ${ROOT_PRM} although the 401 named the path-based document ${prmPath}, which comes first.`, details: at });
    else if (request.method === "GET" && path === asMetadata) checks.push({ id: "authorization-server-metadata", status: "SUCCESS", description: "Client requested authorization server metadata", details: at });
    else if (request.method === "GET" && path === ROOT_AS_METADATA && prefix !== "") checks.push({ id: "authorization-server-metadata-wrong-path", status: "FAILURE", description: "Client requested authorization server at the root path when the AS URL has a path-based location", errorMessage: `The client asked ${ROOT_AS_METADATA}; the issuer ${prefix} puts its metadata at ${asMetadata}.`, details: at });
    else if (request.method === "POST" && path === `${prefix}/register`) {
      const body = (request.json ?? {}) as Record<string, unknown>;
      registrations.push(body);
      checks.push(...(config.onRegistration?.(body) ?? []));
      checks.push({ id: "client-registration", status: "SUCCESS", description: "Client registered with authorization server", details: { endpoint: "/register", clientName: body["client_name"] } });
      if (specVersion === STATELESS_PROTOCOL_VERSION) {
        const appType = body["application_type"];
        const valid = appType === "native" || appType === "web";
        checks.push({ id: "sep-837-application-type-present", status: valid ? "SUCCESS" : "FAILURE", description: valid ? `Client specified application_type "${String(appType)}" during Dynamic Client Registration` : "Client MUST specify an appropriate application_type during Dynamic Client Registration (SEP-837)", ...(valid ? {} : { errorMessage: appType === undefined ? "The registration sent no application_type." : `The registration sent application_type ${JSON.stringify(appType)}, expected "native" or "web".` }), details: { application_type: appType ?? "(omitted)" } });
      }
    } else if (request.method === "GET" && path === `${prefix}/authorize`) {
      const query = new URL(request.path, "http://x").searchParams;
      const challengeParam = query.get("code_challenge") ?? undefined;
      const method = query.get("code_challenge_method") ?? undefined;
      challengeSent = challengeParam;
      checks.push({ id: "authorization-request", status: "SUCCESS", description: "Client made authorization request", details: { query: Object.fromEntries(query) } });
      checks.push(challengeParam ? { id: "pkce-code-challenge-sent", status: "SUCCESS", description: "Client sent code_challenge in authorization request" } : { id: "pkce-code-challenge-sent", status: "FAILURE", description: "Client MUST send code_challenge in authorization request", errorMessage: "The authorization request had no code_challenge (PKCE)." });
      checks.push(method === "S256" ? { id: "pkce-s256-method-used", status: "SUCCESS", description: "Client used S256 code challenge method", details: { method } } : { id: "pkce-s256-method-used", status: "FAILURE", description: "Client MUST use S256 code challenge method when technically capable", errorMessage: `The authorization request's code_challenge_method was ${method ?? "not specified"}, not S256.`, details: { method: method ?? "not specified" } });
      const seen: AuthorizationRequest = { query, request };
      authorizations.push(seen);
      checks.push(...(config.onAuthorization?.(seen, authorizations.length, specVersion) ?? []));
    } else if (request.method === "POST" && path === `${prefix}/token`) {
      const form = new URLSearchParams(request.body);
      const grantType = form.get("grant_type") ?? undefined;
      checks.push({ id: "token-request", status: "SUCCESS", description: "Client requested access token", details: { endpoint: "/token", grantType } });
      if (grantType === "authorization_code") {
        const verifier = form.get("code_verifier") ?? undefined;
        checks.push(verifier ? { id: "pkce-code-verifier-sent", status: "SUCCESS", description: "Client sent code_verifier in token request" } : { id: "pkce-code-verifier-sent", status: "FAILURE", description: "Client MUST send code_verifier in token request", errorMessage: "The token request had no code_verifier (PKCE)." });
        const matches = verifier !== undefined && challengeSent !== undefined && s256(verifier) === challengeSent;
        const why = !challengeSent && !verifier ? "Neither code_challenge nor code_verifier were sent - PKCE is required" : !challengeSent ? "code_challenge was not sent in authorization request - PKCE is required" : !verifier ? "code_verifier was not sent in token request - PKCE is required" : matches ? undefined : "code_verifier does not match code_challenge";
        checks.push({ id: "pkce-verifier-matches-challenge", status: matches ? "SUCCESS" : "FAILURE", description: why ?? "code_verifier correctly matches code_challenge (S256)", ...(why ? { errorMessage: why } : {}), details: { matches } });
      }
      const seen: TokenRequest = { form, authorization: request.headers["authorization"], request };
      tokens.push(seen);
      checks.push(...(config.onToken?.(seen, tokens.length) ?? []));
    } else if (request.method === "POST" && path === MCP_PATH) {
      const bearer = bearerOf(request);
      const verifies = config.verifies ?? "every-post";
      if (bearer === undefined || verifies === "none" || (verifies === "not-lifecycle" && isLifecycle(request))) continue;
      checks.push(issued.has(bearer) ? { id: "valid-bearer-token", status: "SUCCESS", description: "Client provided valid bearer token" } : { id: "invalid-bearer-token", status: "FAILURE", description: "Client provided invalid bearer token", errorMessage: `The client sent a bearer token the authorization server never issued (${bearer.slice(0, 10)}...).` });
    }
  }
  return { checks, authorizations, tokens, registrations, prmResource };
}

function canonical(uri: string): string | undefined {
  if (!URL.canParse(uri)) return "invalid URI format";
  return new URL(uri).hash ? "contains fragment (not allowed per RFC 8707)" : undefined;
}

/**
 * The suite's RFC 8707 checks of the `resource` parameter, from the last authorization and token
 * requests: `resource-parameter-in-authorization`, `-in-token`, `-valid-uri`, `-consistency`,
 * `-matches-prm` (sent exactly as the protected resource metadata published it).
 */
export function resourceChecks(seen: Pick<AuthSeen, "authorizations" | "tokens" | "prmResource">): Check[] {
  const authorizationResource = seen.authorizations.at(-1)?.query.get("resource") ?? undefined;
  const tokenResource = seen.tokens.at(-1)?.form.get("resource") ?? undefined;
  const checks: Check[] = [
    authorizationResource
      ? { id: "resource-parameter-in-authorization", status: "SUCCESS", description: "Client included resource parameter in authorization request", details: { resource: authorizationResource } }
      : { id: "resource-parameter-in-authorization", status: "FAILURE", description: "Client MUST include resource parameter in authorization request per RFC 8707", errorMessage: seen.authorizations.length ? "The authorization request had no resource parameter." : "The client made no authorization request.", details: { resource: "not provided" } },
    tokenResource
      ? { id: "resource-parameter-in-token", status: "SUCCESS", description: "Client included resource parameter in token request", details: { resource: tokenResource } }
      : { id: "resource-parameter-in-token", status: "FAILURE", description: "Client MUST include resource parameter in token request per RFC 8707", errorMessage: seen.tokens.length ? "The token request had no resource parameter." : "The client made no token request.", details: { resource: "not provided" } },
  ];
  const resource = authorizationResource || tokenResource;
  if (resource) {
    const error = canonical(resource);
    checks.push({ id: "resource-parameter-valid-uri", status: error ? "FAILURE" : "SUCCESS", description: error ? `Resource parameter is invalid: ${error}` : "Resource parameter is a valid canonical URI (has scheme, no fragment)", ...(error ? { errorMessage: `resource ${resource} ${error}.` } : {}), details: { resource } });
  }
  if (authorizationResource && tokenResource) {
    const same = authorizationResource === tokenResource;
    checks.push({ id: "resource-parameter-consistency", status: same ? "SUCCESS" : "FAILURE", description: same ? "Resource parameter is consistent between authorization and token requests" : "Resource parameter MUST be consistent between authorization and token requests", ...(same ? {} : { errorMessage: `The authorization request named ${authorizationResource}, the token request ${tokenResource}.` }), details: { authorizationResource, tokenResource } });
  }
  const sent = [...(authorizationResource !== undefined ? [["authorization", authorizationResource]] : []), ...(tokenResource !== undefined ? [["token", tokenResource]] : [])];
  if (seen.prmResource !== undefined && sent.length > 0) {
    const differ = sent.filter(([, r]) => r !== seen.prmResource).map(([which]) => which);
    const message = `Client MUST send the resource identifier exactly as published in protected resource metadata; the ${differ.join(" and ")} request sent a different value (a URL parser that appends "/" to a pathless identifier is the usual cause)`;
    checks.push({ id: "resource-parameter-matches-prm", status: differ.length === 0 ? "SUCCESS" : "FAILURE", description: differ.length === 0 ? "Client sent the resource identifier exactly as published in protected resource metadata" : message, ...(differ.length ? { errorMessage: message } : {}), details: { prmResource: seen.prmResource, authorizationResource: authorizationResource ?? "not provided", tokenResource: tokenResource ?? "not provided" } });
  }
  return checks;
}

/** An official `auth/*` scenario from its config. */
export function authScenario(config: AuthScenarioConfig): Scenario {
  return {
    name: config.name,
    suite: "official",
    description: config.description,
    specVersions: config.specVersions ?? AUTH_SPEC_VERSIONS,
    ...(config.extension ? { extension: config.extension } : {}),
    ...(config.allowClientError ? { allowClientError: true } : {}),
    async start({ specVersion }): Promise<ScenarioRun> {
      // At a stateless revision the suite's resource server is stateless too: it refuses a session-era initialize.
      const stateless = revisionOf(specVersion)?.stateless === true;
      const mock = await scenarioMock({ serverInfo: { name: "auth-prm-pathbased-server", version: "1.0.0" }, tools: [TEST_TOOL], auth: { refreshTokens: false, ...config.auth }, ...(stateless ? { protocolVersions: [specVersion as ProtocolVersion] } : {}) });
      mock.toolsCall("test-tool").withArgsMatching(() => true).respondsWith("test");
      // A token of the scenario's for what its gate lets pass without one (initialize, notifications).
      const pass = config.gate ? mock.auth.issueToken({ scopes: [] }) : undefined;
      let tap: WireTap | undefined;
      const run = await tappedRun(
        mock,
        (t) => {
          const seen = serverChecks(config, mock, t, specVersion);
          return [...(config.reviseServerChecks?.(seen.checks) ?? seen.checks), ...(config.atEnd?.({ ...seen, specVersion, mock, tap: t }) ?? [])];
        },
        {
          // The mock spells its metadata with the Host it is asked for: the tap's, so the client stays on the wire.
          forward: (request, headers) => {
            supplyStandardHeaders(request, headers);
            if (request.headers["host"]) headers["host"] = request.headers["host"];
            // Behind a gate of the scenario's, which judged the client's token, the mock sees the scenario's: one principal for the session throughout.
            if (pass !== undefined && pathOf(request) === MCP_PATH) headers["authorization"] = `Bearer ${pass}`;
          },
          intercept: (request, response) => {
            if (config.tokenGate && request.method === "POST" && pathOf(request) === `${config.auth.issuerPath ?? ""}/token`) return config.tokenGate(request, response, { mock, tap: () => tap as WireTap });
            if (pathOf(request) !== MCP_PATH) return false;
            // The suite's resource server has no GET stream: a client opens none (and asks no token for one).
            if (request.method === "GET") {
              response.writeHead(405, { allow: "POST" }).end();
              return true;
            }
            return request.method === "POST" && config.gate !== undefined && config.gate(request, response, { mock, tap: () => tap as WireTap });
          },
        },
      );
      tap = run.tap;
      return { ...run, ...(config.context ? { context: config.context } : {}) };
    },
  };
}
