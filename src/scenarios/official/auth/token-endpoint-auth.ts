/**
 * `auth/token-endpoint-auth-basic`, `-post`, `-none` (official): the authorization server
 * supports one token endpoint authentication method (and registers clients with it); the client
 * must use it. Check `token-endpoint-auth-method` at each token request, then the RFC 8707
 * checks of the `resource` parameter: `resource-parameter-in-authorization`,
 * `resource-parameter-in-token`, `resource-parameter-valid-uri`, `resource-parameter-consistency`.
 * @module
 */
import type { TokenEndpointAuthMethod } from "../../../index.js";
import type { Check } from "../../check.js";
import type { Scenario } from "../../scenario.js";
import { authScenario } from "./auth-scenario.js";

const NAMES: Readonly<Record<TokenEndpointAuthMethod, string>> = {
  client_secret_basic: "HTTP Basic authentication (client_secret_basic)",
  client_secret_post: "client_secret_post",
  none: "no authentication (public client)",
};
const SHORT: Readonly<Record<TokenEndpointAuthMethod, string>> = { client_secret_basic: "basic", client_secret_post: "post", none: "none" };

function used(authorization: string | undefined, form: URLSearchParams): TokenEndpointAuthMethod {
  if (authorization?.startsWith("Basic ")) return "client_secret_basic";
  return form.get("client_secret") ? "client_secret_post" : "none";
}

function canonical(uri: string): string | undefined {
  if (!URL.canParse(uri)) return "invalid URI format";
  return new URL(uri).hash ? "contains fragment (not allowed per RFC 8707)" : undefined;
}

function resourceChecks(authorizationResource: string | undefined, tokenResource: string | undefined): Check[] {
  const checks: Check[] = [
    authorizationResource
      ? { id: "resource-parameter-in-authorization", status: "SUCCESS", description: "Client included resource parameter in authorization request", details: { resource: authorizationResource } }
      : { id: "resource-parameter-in-authorization", status: "FAILURE", description: "Client MUST include resource parameter in authorization request per RFC 8707", errorMessage: "The authorization request had no resource parameter." },
    tokenResource
      ? { id: "resource-parameter-in-token", status: "SUCCESS", description: "Client included resource parameter in token request", details: { resource: tokenResource } }
      : { id: "resource-parameter-in-token", status: "FAILURE", description: "Client MUST include resource parameter in token request per RFC 8707", errorMessage: "The token request had no resource parameter." },
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
  return checks;
}

function tokenEndpointAuth(expected: TokenEndpointAuthMethod): Scenario {
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
    atEnd: ({ checks, authorizations, tokens }) => [
      ...(checks.some((c) => c.id === "token-endpoint-auth-method") ? [] : [{ id: "token-endpoint-auth-method", status: "FAILURE" as const, description: "Client did not make a token request", errorMessage: "The client never asked the token endpoint for a token." }]),
      ...resourceChecks(authorizations.at(-1)?.query.get("resource") ?? undefined, tokens.at(-1)?.form.get("resource") ?? undefined),
    ],
  });
}

export const tokenEndpointAuthScenarios: readonly Scenario[] = (["client_secret_basic", "client_secret_post", "none"] as const).map(tokenEndpointAuth);
