/**
 * `auth/token-endpoint-auth-basic`, `-post`, `-none` (official): the authorization server
 * supports one token endpoint authentication method (and registers clients with it); the client
 * must use it. Check `token-endpoint-auth-method` at each token request, then the RFC 8707
 * checks of the `resource` parameter: `resource-parameter-in-authorization`,
 * `resource-parameter-in-token`, `resource-parameter-valid-uri`, `resource-parameter-consistency`,
 * `resource-parameter-matches-prm`.
 * @module
 */
import type { TokenEndpointAuthMethod } from "../../../index.js";
import type { Scenario } from "../../scenario.js";
import { authScenario, resourceChecks } from "./auth-scenario.js";

type SecretMethod = Exclude<TokenEndpointAuthMethod, "private_key_jwt">;

const NAMES: Readonly<Record<SecretMethod, string>> = {
  client_secret_basic: "HTTP Basic authentication (client_secret_basic)",
  client_secret_post: "client_secret_post",
  none: "no authentication (public client)",
};
const SHORT: Readonly<Record<SecretMethod, string>> = { client_secret_basic: "basic", client_secret_post: "post", none: "none" };

function used(authorization: string | undefined, form: URLSearchParams): SecretMethod {
  if (authorization?.startsWith("Basic ")) return "client_secret_basic";
  return form.get("client_secret") ? "client_secret_post" : "none";
}

function tokenEndpointAuth(expected: SecretMethod): Scenario {
  return authScenario({
    name: `auth/token-endpoint-auth-${SHORT[expected]}`,
    description: `Tests that client uses ${NAMES[expected]} when server only supports ${expected}`,
    auth: { clientIdMetadataDocuments: false, tokenEndpointAuthMethods: [expected] },
    onToken: ({ authorization, form }) => {
      const actual = used(authorization, form);
      const decoded = actual === "client_secret_basic" ? Buffer.from((authorization as string).slice(6), "base64").toString("utf8") : "";
      const formatError = actual === "client_secret_basic" && !decoded.includes(":") ? "missing colon separator" : undefined;
      const ok = actual === expected && !formatError;
      const description = formatError ? `Client sent Basic auth header but ${formatError}` : ok ? `Client correctly used ${NAMES[expected]} for token endpoint` : `Client used ${actual} but server only supports ${expected}`;
      return [{ id: "token-endpoint-auth-method", status: ok ? "SUCCESS" : "FAILURE", description, ...(ok ? {} : { errorMessage: description }), details: { expectedAuthMethod: expected, actualAuthMethod: actual } }];
    },
    atEnd: (seen) => [
      ...(seen.checks.some((c) => c.id === "token-endpoint-auth-method") ? [] : [{ id: "token-endpoint-auth-method", status: "FAILURE" as const, description: "Client did not make a token request", errorMessage: "The client never asked the token endpoint for a token." }]),
      ...resourceChecks(seen),
    ],
  });
}

export const tokenEndpointAuthScenarios: readonly Scenario[] = (["client_secret_basic", "client_secret_post", "none"] as const).map(tokenEndpointAuth);
