/**
 * The official scope scenarios: `auth/scope-from-www-authenticate` (the client asks for the
 * scope the 401 names), `auth/scope-from-scopes-supported` (no scope in the 401: all of the
 * metadata's `scopes_supported`), `auth/scope-omitted-when-undefined` (neither: no `scope` at
 * all), `auth/scope-step-up` (tools/list needs `mcp:basic`, tools/call `mcp:write`: the client
 * authorizes again for the scope a 403 names, and on 2026-07-28 keeps the ones it had) and
 * `auth/scope-retry-limit` (a server that always answers 403: the client gives up after three
 * authorizations at most).
 * @module
 */
import { STATELESS_PROTOCOL_VERSION } from "../../../protocol/revisions.js";
import type { Check } from "../../check.js";
import type { Scenario } from "../../scenario.js";
import { messageOf } from "../../wire-tap.js";
import { authScenario, challenge, isLifecycle, PATH_PRM, tokenScopes, type AuthorizationRequest } from "./auth-scenario.js";

function scopesOf(request: AuthorizationRequest): string[] {
  return (request.query.get("scope") ?? "").split(" ").filter(Boolean);
}

/** FAILURE for a check the client never reached (it never authorized). */
function missing(id: string, checks: readonly Check[], description = "Client did not complete authorization flow - scope check could not be performed"): Check[] {
  return checks.some((c) => c.id === id) ? [] : [{ id, status: "FAILURE", description, errorMessage: "The client never made an authorization request." }];
}

const fromWwwAuthenticate: Scenario = authScenario({
  name: "auth/scope-from-www-authenticate",
  description: "Tests that client uses scope parameter from WWW-Authenticate header when provided",
  auth: { clientIdMetadataDocuments: false, required: ["mcp:basic"] },
  onAuthorization: (request) => {
    const ok = scopesOf(request).includes("mcp:basic");
    const asked = request.query.get("scope") ?? "none";
    return [{ id: "scope-from-www-authenticate", status: ok ? "SUCCESS" : "WARNING", description: ok ? "Client correctly used the scope parameter from the WWW-Authenticate header" : "Client SHOULD use the scope parameter from the WWW-Authenticate header when provided", ...(ok ? {} : { errorMessage: `The 401 named scope "mcp:basic"; the client asked for ${asked}.` }), details: { expectedScope: "mcp:basic", requestedScope: asked } }];
  },
  atEnd: ({ checks }) => missing("scope-from-www-authenticate", checks),
});

const SUPPORTED = ["mcp:basic", "mcp:read", "mcp:write"];
const fromScopesSupported: Scenario = authScenario({
  name: "auth/scope-from-scopes-supported",
  description: "Tests that client uses all scopes from scopes_supported when scope not in WWW-Authenticate header",
  auth: { clientIdMetadataDocuments: false, scopes: SUPPORTED },
  onAuthorization: (request) => {
    const asked = scopesOf(request);
    const lacking = SUPPORTED.filter((s) => !asked.includes(s));
    return [{ id: "scope-from-scopes-supported", status: lacking.length === 0 ? "SUCCESS" : "WARNING", description: lacking.length === 0 ? "Client correctly used all scopes from scopes_supported in PRM when scope not in WWW-Authenticate" : "Client SHOULD use all scopes from scopes_supported when scope not available in WWW-Authenticate header", ...(lacking.length === 0 ? {} : { errorMessage: `The client asked for ${request.query.get("scope") ?? "no scope"}, without ${lacking.join(" ")} of scopes_supported.` }), details: { scopesSupported: SUPPORTED.join(" "), requestedScope: request.query.get("scope") ?? "none" } }];
  },
  atEnd: ({ checks }) => missing("scope-from-scopes-supported", checks),
});

const omittedWhenUndefined: Scenario = authScenario({
  name: "auth/scope-omitted-when-undefined",
  description: "Tests that client omits scope parameter when scopes_supported is undefined",
  auth: { clientIdMetadataDocuments: false },
  onAuthorization: (request) => {
    const scope = request.query.get("scope");
    const omitted = scope === null || scope.trim() === "";
    return [{ id: "scope-omitted-when-undefined", status: omitted ? "SUCCESS" : "WARNING", description: omitted ? "Client correctly omitted scope parameter when scopes_supported is undefined" : "Client SHOULD omit scope parameter when scopes_supported is undefined and scope not in WWW-Authenticate", ...(omitted ? {} : { errorMessage: `The client asked for scope "${scope}", which neither the 401 nor the metadata named.` }), details: { scopeParameter: omitted ? "omitted" : scope } }];
  },
  atEnd: ({ checks }) => missing("scope-omitted-when-undefined", checks),
});

/** The resource metadata URL the suite's gates name, on the tap. */
function metadataUrl(host: string | undefined): string {
  return `http://${host ?? "127.0.0.1"}${PATH_PRM}`;
}

const stepUp: Scenario = authScenario({
    name: "auth/scope-step-up",
    description: "Tests that client handles step-up authentication with different scope requirements per operation",
    auth: { clientIdMetadataDocuments: false },
    verifies: "not-lifecycle",
    // initialize and notifications pass; tools/list needs mcp:basic (401), tools/call mcp:write (403 naming it alone).
    gate: (request, response, { mock }) => {
      if (isLifecycle(request)) return false;
      const at = metadataUrl(request.headers["host"]);
      const scopes = tokenScopes(mock, request);
      if (!request.headers["authorization"]?.startsWith("Bearer ")) return challenge(response, 401, `scope="mcp:basic", resource_metadata="${at}"`, { error: "invalid_token", error_description: "Missing Authorization header" });
      if (scopes === undefined) return challenge(response, 401, `error="invalid_token", resource_metadata="${at}"`, { error: "invalid_token", error_description: "Invalid token" });
      const needs = messageOf(request).method === "tools/call" ? "mcp:write" : "mcp:basic";
      if (!scopes.includes(needs)) return challenge(response, 403, `scope="mcp:write", resource_metadata="${at}", error="insufficient_scope"`, { error: "insufficient_scope", error_description: "Token has insufficient scope" });
      return false;
    },
    onAuthorization: (request, index, specVersion) => {
      const asked = scopesOf(request);
      const requestedScope = request.query.get("scope") ?? "none";
      if (index === 1) {
        const ok = asked.includes("mcp:basic");
        return [{ id: "scope-step-up-initial", status: ok ? "SUCCESS" : "WARNING", description: ok ? "Client correctly used scope from WWW-Authenticate header for initial auth" : "Client SHOULD use the scope parameter from the WWW-Authenticate header", ...(ok ? {} : { errorMessage: `The 401 named "mcp:basic"; the client asked for ${requestedScope}.` }), details: { expectedScope: "mcp:basic", requestedScope } }];
      }
      if (index !== 2) return [];
      const escalated = asked.includes("mcp:write");
      const checks: Check[] = [{ id: "scope-step-up-escalation", status: escalated ? "SUCCESS" : "WARNING", description: escalated ? "Client correctly requested the challenged scope for step-up authentication" : "Client SHOULD request additional scopes when receiving 403 with new scope requirements", ...(escalated ? {} : { errorMessage: `The 403 named "mcp:write"; the client asked for ${requestedScope}.` }), details: { challengedScope: "mcp:write", requestedScope } }];
      if (specVersion === STATELESS_PROTOCOL_VERSION) {
        const kept = asked.includes("mcp:basic");
        checks.push({ id: "sep-2350-scope-union-on-reauth", status: kept ? "SUCCESS" : "WARNING", description: kept ? "Client included previously-granted scopes alongside the newly challenged scope when re-authorizing" : "Client SHOULD compute the union of previously requested scopes and newly challenged scopes when initiating re-authorization (SEP-2350); previously-granted scope was dropped", ...(kept ? {} : { errorMessage: `Re-authorizing, the client asked for ${requestedScope} and dropped mcp:basic, which it had.` }), details: { previouslyGranted: "mcp:basic", challengedScope: "mcp:write", requestedScope } });
      }
      return checks;
    },
    atEnd: ({ checks, specVersion }) => [
      ...missing("scope-step-up-initial", checks, "Client did not make an initial authorization request"),
      ...(checks.some((c) => c.id === "scope-step-up-escalation")
        ? []
        : [
            { id: "scope-step-up-escalation", status: "FAILURE" as const, description: "Client did not make a second authorization request for scope escalation", errorMessage: "After the 403 naming mcp:write, the client never authorized again." },
            ...(specVersion === STATELESS_PROTOCOL_VERSION ? [{ id: "sep-2350-scope-union-on-reauth", status: "FAILURE" as const, description: "Client did not make a second authorization request - scope union check could not be performed", errorMessage: "The client never authorized again." }] : []),
          ]),
    ],
});

const MAX_ATTEMPTS = 3;
const retryLimit: Scenario = authScenario({
  name: "auth/scope-retry-limit",
  description: "Tests that client implements retry limits to prevent infinite authorization loops on repeated 403 responses",
  allowClientError: true,
  auth: { clientIdMetadataDocuments: false, scopes: ["mcp:admin"] },
  verifies: "none",
  // initialize and notifications pass; anything else: 401 without a token, then 403 for ever (410 past three tries).
  gate: (request, response, { tap }) => {
    if (isLifecycle(request)) return false;
    const at = metadataUrl(request.headers["host"]);
    if (!request.headers["authorization"]?.startsWith("Bearer ")) return challenge(response, 401, `scope="mcp:admin", resource_metadata="${at}"`, { error: "invalid_token", error_description: "Missing Authorization header" });
    const tried = tap().requests.filter((r) => r.method === "POST" && !isLifecycle(r) && r.headers["authorization"]?.startsWith("Bearer ") && new URL(r.path, "http://x").pathname === "/mcp").length;
    if (tried > MAX_ATTEMPTS) {
      response.writeHead(410, { "content-type": "application/json" }).end(JSON.stringify({ error: "test_complete", error_description: "Test is over - client exceeded maximum retry attempts" }));
      return true;
    }
    return challenge(response, 403, `error="insufficient_scope", scope="mcp:admin", resource_metadata="${at}", error_description="Scope upgrade will never succeed"`, { error: "insufficient_scope", error_description: "Scope upgrade will never succeed" });
  },
  onAuthorization: (request, index) => [{ id: "scope-retry-auth-attempt", status: "INFO", description: `Client made authorization request attempt ${index}`, details: { attemptNumber: index, requestedScope: request.query.get("scope") ?? "none" } }],
  atEnd: ({ authorizations }) => {
    const n = authorizations.length;
    if (n === 0) return [{ id: "scope-retry-limit", status: "FAILURE", description: "Client did not make any authorization requests", errorMessage: "The client never authorized." }];
    if (n <= MAX_ATTEMPTS) return [{ id: "scope-retry-limit", status: "SUCCESS", description: `Client correctly limited retry attempts to ${n} (3 or fewer)`, details: { authorizationAttempts: n, maxAllowed: MAX_ATTEMPTS } }];
    return [{ id: "scope-retry-limit", status: "FAILURE", description: `Client made ${n} authorization attempts (more than 3). Clients SHOULD implement retry limits to avoid infinite loops.`, errorMessage: `The server answered 403 insufficient_scope every time; the client authorized ${n} times instead of giving up after 3.`, details: { authorizationAttempts: n, maxAllowed: MAX_ATTEMPTS } }];
  },
});

export const scopeScenarios: readonly Scenario[] = [fromWwwAuthenticate, fromScopesSupported, omittedWhenUndefined, stepUp, retryLimit];
