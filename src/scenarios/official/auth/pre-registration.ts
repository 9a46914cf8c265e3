/**
 * `auth/pre-registration` (official): the authorization server offers no registration; the
 * client must use the credentials it was given (`MCP_CONFORMANCE_CONTEXT`: `client_id`,
 * `client_secret`) with HTTP Basic at the token endpoint. Check `pre-registration-auth`.
 * @module
 */
import type { Check } from "../../check.js";
import type { Scenario } from "../../scenario.js";
import { authScenario } from "./auth-scenario.js";

const CLIENT_ID = "pre-registered-client";
const CLIENT_SECRET = "pre-registered-secret";
const CHECK = "pre-registration-auth";

export const preRegistration: Scenario = authScenario({
  name: "auth/pre-registration",
  description: "Tests OAuth flow with pre-registered client credentials. Server does not support DCR.",
  auth: { registration: false, clientIdMetadataDocuments: false, tokenEndpointAuthMethods: ["client_secret_basic"], clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, tokenEndpointAuthMethod: "client_secret_basic" }] },
  context: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
  onToken: ({ authorization, form }): Check[] => {
    if (!authorization?.startsWith("Basic ")) {
      const how = form.get("client_secret") ? "sent its secret in the form (client_secret_post)" : "sent no client authentication";
      return [{ id: CHECK, status: "FAILURE", description: "Client did not use Basic authentication with pre-registered credentials", errorMessage: `The token request ${how}; the server takes client_secret_basic only.` }];
    }
    const [clientId, clientSecret] = Buffer.from(authorization.slice(6), "base64").toString("utf8").split(":");
    if (clientId !== CLIENT_ID || clientSecret !== CLIENT_SECRET) {
      return [{ id: CHECK, status: "FAILURE", description: `Client used incorrect pre-registered credentials. Expected client_id '${CLIENT_ID}', got '${clientId}'`, errorMessage: `The Basic credentials named client ${clientId ?? "(none)"}${clientId === CLIENT_ID ? " with the wrong secret" : ""}.`, details: { expectedClientId: CLIENT_ID, actualClientId: clientId } }];
    }
    return [{ id: CHECK, status: "SUCCESS", description: "Client correctly used pre-registered credentials when server does not support DCR", details: { clientId } }];
  },
  atEnd: ({ checks }) => (checks.some((c) => c.id === CHECK) ? [] : [{ id: CHECK, status: "FAILURE", description: "Client did not make a token request", errorMessage: "The client never asked the token endpoint for a token." }]),
});
