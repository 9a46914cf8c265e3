/**
 * The `client_credentials` grant (RFC 6749 section 4.4; the MCP client credentials extension,
 * SEP-1046, `io.modelcontextprotocol/oauth-client-credentials`): a confidential client,
 * authenticated at the token endpoint (`client_secret_basic`, `client_secret_post` or
 * `private_key_jwt`), asks a token for itself. No user, no `/authorize`, no refresh token
 * (section 4.4.3); the token's subject is the client.
 * @module
 */
import type { KnownClient, OAuthProblem } from "./clients.js";

/** What a client credentials token is issued with. */
export interface ClientCredentialsGrant {
  readonly scopes: readonly string[];
  readonly subject: string;
  /** The resource (RFC 8707) it is for; `undefined`: this mock's endpoint. */
  readonly resource: string | undefined;
}

/**
 * Grants `client` a token for itself, or says why not: a public client (`none`) cannot use the
 * grant (`unauthorized_client`), a `resource` must be one of this server's (`invalid_target`),
 * and the scopes are those the authorization server granted for the request's `scope`.
 */
export function clientCredentialsGrant(client: KnownClient, scopes: readonly string[] | OAuthProblem, resources: readonly string[], ours: readonly string[]): ClientCredentialsGrant | OAuthProblem {
  if (client.authMethod === "none") {
    return { error: "unauthorized_client", description: `Client ${client.clientId} is a public client (token_endpoint_auth_method none); the client_credentials grant is for confidential clients only (RFC 6749 section 4.4): give it a clientSecret or jwks.` };
  }
  const foreign = resources.filter((r) => !ours.includes(r));
  if (foreign.length > 0) return { error: "invalid_target", description: `resource ${foreign.join(", ")} ${foreign.length > 1 ? "are not" : "is not"} this server's protected resource; send resource=${ours.join(" or ")}.` };
  if ("error" in scopes) return scopes;
  return { scopes, subject: client.clientId, resource: resources[0] };
}
