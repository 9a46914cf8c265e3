/**
 * `auth/resource-mismatch` (official, 2026-07-28): the protected resource metadata names another
 * resource (`https://evil.example.com/mcp`) than the endpoint the client is connecting to. The
 * client must not authorize for it: `resource-mismatch-rejected` fails when it made an
 * authorization request anyway. Ending in an error is what a right client does.
 * @module
 */
import type { Scenario } from "../../scenario.js";
import { STATELESS_PROTOCOL_VERSION } from "../../../protocol/revisions.js";
import { authScenario } from "./auth-scenario.js";

/** The resource the scenario's protected resource metadata publishes: another origin. */
export const MISMATCHED_RESOURCE = "https://evil.example.com/mcp";
const CHECK = "resource-mismatch-rejected";

export const resourceMismatch: Scenario = authScenario({
  name: "auth/resource-mismatch",
  description: "Tests that client rejects when PRM resource does not match server URL",
  specVersions: [STATELESS_PROTOCOL_VERSION],
  allowClientError: true,
  auth: { metadataResource: MISMATCHED_RESOURCE, clientIdMetadataDocuments: false, tokenEndpointAuthMethods: ["none"] },
  atEnd: ({ authorizations }) => {
    const first = authorizations[0];
    if (first === undefined) return [{ id: CHECK, status: "SUCCESS", description: "Client correctly rejected authorization when PRM resource does not match server URL", details: { prmResource: MISMATCHED_RESOURCE, authorizationRequestMade: false } }];
    const resource = first.query.get("resource");
    return [
      {
        id: CHECK,
        status: "FAILURE",
        description: "Client MUST validate that PRM resource matches the server URL before proceeding with authorization",
        errorMessage: `The client made an authorization request${resource ? ` (resource=${resource})` : ""} although the protected resource metadata named ${MISMATCHED_RESOURCE}, not the server it connected to.`,
        details: { prmResource: MISMATCHED_RESOURCE, authorizationRequestMade: true },
      },
    ];
  },
});
