/**
 * `auth/basic-cimd` (official, SEP-991): the authorization server says
 * `client_id_metadata_document_supported`, so the client should use its client ID metadata
 * document URL as its `client_id` instead of registering. Check `cimd-client-id-used` at each
 * authorization request (WARNING for another id; FAILURE when there was none).
 * @module
 */
import type { Scenario } from "../../scenario.js";
import { authScenario } from "./auth-scenario.js";

/** The URL the suite's clients use as their client ID metadata document (never fetched: the server holds it). */
export const CIMD_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
const CHECK = "cimd-client-id-used";

export const basicCimd: Scenario = authScenario({
  name: "auth/basic-cimd",
  description:
    "Tests OAuth flow with Client ID Metadata Documents (SEP-991/URL-based client IDs). Server advertises client_id_metadata_document_supported=true and client should use URL as client_id instead of DCR.",
  auth: { clientIdMetadataDocuments: true, clients: [{ clientId: CIMD_CLIENT_METADATA_URL }] },
  onAuthorization: ({ query }) => {
    const used = query.get("client_id") ?? undefined;
    const ok = used === CIMD_CLIENT_METADATA_URL;
    return [
      ok
        ? { id: CHECK, status: "SUCCESS", description: "Client correctly used URL-based client ID when server supports client_id_metadata_document_supported", details: { expectedClientId: CIMD_CLIENT_METADATA_URL, actualClientId: used } }
        : { id: CHECK, status: "WARNING", description: "Client SHOULD use URL-based client ID when server advertises client_id_metadata_document_supported=true", errorMessage: `The client authorized as ${used ?? "no client"} (registered, or pre-set) instead of its client ID metadata document URL.`, details: { expectedClientId: CIMD_CLIENT_METADATA_URL, actualClientId: used ?? "none" } },
    ];
  },
  atEnd: ({ checks }) => (checks.some((c) => c.id === CHECK) ? [] : [{ id: CHECK, status: "FAILURE", description: "Client did not make an authorization request to test CIMD support", errorMessage: "The client never made an authorization request." }]),
});
