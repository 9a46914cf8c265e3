/**
 * `auth/offline-access-scope` and `auth/offline-access-not-supported` (official, 2026-07-28,
 * SEP-2207): where the authorization server lists `offline_access` (and the protected resource
 * metadata does not), a client that wants a refresh token SHOULD say `refresh_token` in its
 * registration's `grant_types` (`sep-2207-client-metadata-grant-types`, WARNING) and MAY ask
 * `offline_access` (`sep-2207-offline-access-requested`, INFO when it does not); where the server
 * does not list it, asking it fails `sep-2207-offline-access-not-requested`.
 * @module
 */
import type { Check } from "../../check.js";
import type { Scenario } from "../../scenario.js";
import { STATELESS_PROTOCOL_VERSION } from "../../../protocol/revisions.js";
import { authScenario } from "./auth-scenario.js";
import { CIMD_CLIENT_METADATA_URL } from "./basic-cimd.js";

const GRANT_TYPES = "sep-2207-client-metadata-grant-types";
const REQUESTED = "sep-2207-offline-access-requested";
const NOT_REQUESTED = "sep-2207-offline-access-not-requested";

function scopesOf(query: URLSearchParams): string[] {
  return (query.get("scope") ?? "").split(" ").filter(Boolean);
}

export const offlineAccessScope: Scenario = authScenario({
  name: "auth/offline-access-scope",
  description: "Tests that a client that wants a refresh token handles offline_access scope and refresh_token grant type when AS supports them (SEP-2207)",
  specVersions: [STATELESS_PROTOCOL_VERSION],
  auth: { scopes: ["mcp:basic"], required: ["mcp:basic"], offlineAccess: true, clientIdMetadataDocuments: true, clients: [{ clientId: CIMD_CLIENT_METADATA_URL }] },
  onRegistration: (body) => {
    const grantTypes = Array.isArray(body["grant_types"]) ? (body["grant_types"] as unknown[]).map(String) : [];
    const has = grantTypes.includes("refresh_token");
    return [
      has
        ? { id: GRANT_TYPES, status: "SUCCESS", description: "Client correctly included refresh_token in grant_types during dynamic client registration", details: { registrationMethod: "DCR", grantTypes: grantTypes.join(" ") } }
        : { id: GRANT_TYPES, status: "WARNING", description: "Client SHOULD include refresh_token in grant_types client metadata (SEP-2207)", errorMessage: `The registration's grant_types were ${grantTypes.length ? grantTypes.join(" ") : "not given"}, without refresh_token, although the authorization server lists offline_access.`, details: { registrationMethod: "DCR", grantTypes: grantTypes.length ? grantTypes.join(" ") : "none" } },
    ];
  },
  onAuthorization: ({ query }) => {
    const has = scopesOf(query).includes("offline_access");
    return [
      has
        ? { id: REQUESTED, status: "SUCCESS", description: "Client included offline_access in authorization request scope when AS lists it in scopes_supported", details: { requestedScope: query.get("scope") } }
        : { id: REQUESTED, status: "INFO", description: "Client MAY include offline_access in scope when AS metadata lists it in scopes_supported (SEP-2207). Client chose not to request it.", details: { requestedScope: query.get("scope") ?? "none" } },
    ];
  },
  atEnd: ({ checks, authorizations }) => {
    const end: Check[] = [];
    if (!checks.some((c) => c.id === GRANT_TYPES)) {
      // A metadata document URL is the client's own document: the mock holds it and never fetches it (no network).
      const cimd = authorizations.map((a) => a.query.get("client_id") ?? "").find((id) => id.startsWith("http"));
      end.push({ id: GRANT_TYPES, status: "INFO", description: cimd ? "Client used CIMD but metadata URL could not be fetched to verify grant_types" : "Client did not use DCR or fetchable CIMD — grant_types could not be inspected", details: { registrationMethod: cimd ? "CIMD" : "unknown", ...(cimd ? { cimdUrl: cimd } : {}) } });
    }
    if (!checks.some((c) => c.id === REQUESTED)) end.push({ id: REQUESTED, status: "FAILURE", description: "Client did not complete authorization flow — offline_access scope check could not be performed", errorMessage: "The client never made an authorization request." });
    return end;
  },
});

export const offlineAccessNotSupported: Scenario = authScenario({
  name: "auth/offline-access-not-supported",
  description: "Tests that client does not request offline_access when AS does not list it in scopes_supported (SEP-2207)",
  specVersions: [STATELESS_PROTOCOL_VERSION],
  auth: { scopes: ["mcp:basic", "mcp:read"], required: ["mcp:basic", "mcp:read"], clientIdMetadataDocuments: false },
  onAuthorization: ({ query }) => {
    const has = scopesOf(query).includes("offline_access");
    return [
      has
        ? { id: NOT_REQUESTED, status: "FAILURE", description: "Client MUST NOT request offline_access when it is not listed in AS scopes_supported (SEP-2207)", errorMessage: `The client asked scope "${query.get("scope") ?? ""}", with offline_access, which the authorization server does not list (mcp:basic mcp:read).`, details: { asScopesSupported: "mcp:basic mcp:read", requestedScope: query.get("scope") } }
        : { id: NOT_REQUESTED, status: "SUCCESS", description: "Client correctly did not request offline_access when AS does not list it in scopes_supported", details: { asScopesSupported: "mcp:basic mcp:read", requestedScope: query.get("scope") ?? "none" } },
    ];
  },
  atEnd: ({ checks }) => (checks.some((c) => c.id === NOT_REQUESTED) ? [] : [{ id: NOT_REQUESTED, status: "FAILURE", description: "Client did not complete authorization flow — offline_access scope check could not be performed", errorMessage: "The client never made an authorization request." }]),
});

export const offlineAccessScenarios: readonly Scenario[] = [offlineAccessScope, offlineAccessNotSupported];
