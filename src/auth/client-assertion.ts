/**
 * `private_key_jwt` client authentication (RFC 7523 section 2.2, OpenID Connect Core 9): the
 * client sends a JWT it signed (`client_assertion`, of type `client_assertion_type`
 * `urn:ietf:params:oauth:client-assertion-type:jwt-bearer`) instead of a secret. The authorization
 * server finds the client by the assertion's `sub` (or the `client_id` sent beside it), checks the
 * signature against the client's registered keys (`jwks`), that `aud` is its issuer identifier
 * (with or without a trailing slash, as rfc7523bis asks: never the token endpoint), that it is
 * unexpired, and that `iss` and `sub` are both the client's id. Every signature check is jose's.
 * @module
 */
import type { JSONWebKeySet } from "jose";
import { jose } from "./jose.js";
import type { KnownClient, OAuthProblem } from "./clients.js";

/** The `client_assertion_type` of a JWT client assertion (RFC 7523 section 2.2). */
export const JWT_BEARER_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/** The signing algorithms a client assertion may use (`token_endpoint_auth_signing_alg_values_supported`): asymmetric only, never `none` or a MAC. */
export const ASSERTION_ALGORITHMS: readonly string[] = ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"];

/** Seconds of clock skew allowed on `exp`, `iat` and `nbf` (the official suite's 30). */
const CLOCK_TOLERANCE_SECONDS = 30;

/** What a token request sent for `private_key_jwt`: the assertion, its type, and the `client_id` beside it (optional). */
export interface ClientAssertionRequest {
  readonly assertion: string | undefined;
  readonly assertionType: string | undefined;
  readonly clientId: string | undefined;
}

/** The client id a token request's assertion names (its `sub`, else its `iss`, else the `client_id` sent beside it), or the problem with it. */
export async function assertedClientId(request: ClientAssertionRequest): Promise<string | OAuthProblem> {
  if (request.assertionType !== JWT_BEARER_ASSERTION_TYPE) {
    return { error: "invalid_client", description: `client_assertion_type must be ${JWT_BEARER_ASSERTION_TYPE} (RFC 7523 section 2.2), received ${JSON.stringify(request.assertionType ?? null)}.` };
  }
  if (!request.assertion) return { error: "invalid_client", description: "client_assertion is missing: send the signed JWT that authenticates the client (RFC 7523 section 2.2)." };
  const { decodeJwt } = await jose();
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(request.assertion);
  } catch {
    return { error: "invalid_client", description: "client_assertion is not a JWT (three base64url parts, header.payload.signature)." };
  }
  const named = [claims["sub"], claims["iss"], request.clientId].find((v): v is string => typeof v === "string" && v !== "");
  return named ?? { error: "invalid_client", description: "The client assertion names no client: its sub and iss must be the client_id (RFC 7523 section 3)." };
}

/**
 * Verifies a client's assertion with jose against the client's registered keys: the signature
 * (one of {@link ASSERTION_ALGORITHMS}), `aud` (one of `audiences`), `exp`, then `iss` and
 * `sub` equal to the client's id, and a `client_id` sent beside it the same. `undefined` when
 * the assertion holds; the problem otherwise, saying what was wrong.
 */
export async function verifyClientAssertion(client: KnownClient, request: ClientAssertionRequest, audiences: readonly string[]): Promise<OAuthProblem | undefined> {
  const keys = client.jwks;
  if (client.authMethod !== "private_key_jwt" || keys === undefined) {
    return { error: "invalid_client", description: `Client ${client.clientId} registered ${client.authMethod}, not private_key_jwt: authenticate as it registered (no client_assertion).` };
  }
  const { createLocalJWKSet, errors, jwtVerify } = await jose();
  try {
    const { payload } = await jwtVerify(request.assertion as string, createLocalJWKSet(keys as JSONWebKeySet), { audience: [...audiences], algorithms: [...ASSERTION_ALGORITHMS], clockTolerance: CLOCK_TOLERANCE_SECONDS, requiredClaims: ["exp"] });
    // rfc7523bis: the issuer is the sole audience, a JSON string (an array, even of the issuer alone, is how audience injection gets in).
    if (typeof payload.aud !== "string") return { error: "invalid_client", description: `The client assertion's aud is ${JSON.stringify(payload.aud)}; it must be the authorization server's issuer, ${audiences[0]}, as its sole audience value: a JSON string, not an array (rfc7523bis).` };
    for (const claim of ["iss", "sub"] as const) {
      if (payload[claim] !== client.clientId) return { error: "invalid_client", description: `The client assertion's ${claim} is ${JSON.stringify(payload[claim] ?? null)}; it must be the client_id ${client.clientId} (RFC 7523 section 3).` };
    }
    if (request.clientId !== undefined && request.clientId !== client.clientId) return { error: "invalid_client", description: `client_id ${request.clientId} is not the client the assertion names (${client.clientId}).` };
    return undefined;
  } catch (error) {
    const why = error instanceof errors.JWTClaimValidationFailed && error.claim === "aud" ? `its aud must be the authorization server's issuer, ${audiences[0]} (not the token endpoint): ${error.message}` : error instanceof Error ? error.message : String(error);
    return { error: "invalid_client", description: `The client assertion does not verify against client ${client.clientId}'s registered keys: ${why}.` };
  }
}
