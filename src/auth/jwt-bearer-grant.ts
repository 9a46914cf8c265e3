/**
 * The JWT bearer grant (RFC 7523 section 2.1) at the embedded authorization server: `/token`
 * takes `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` with a signed `assertion` and
 * answers an access token. Two kinds of assertion: a workload's JWT (workload identity
 * federation, SEP-1933), and an ID-JAG an enterprise IdP issued by token exchange (SEP-990),
 * which must also name the authenticating client and this server's resource. Signatures are
 * checked with jose against the keys the options trust.
 * @module
 */
import { createPrivateKey, createPublicKey, type JsonWebKeyInput } from "node:crypto";
import type { JWK, JWTPayload } from "jose";
import { jose } from "./jose.js";

/** The grant type of RFC 7523 section 2.1. */
export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** The `typ` of an Identity Assertion JWT Authorization Grant (ID-JAG, SEP-990). */
export const ID_JAG_TYP = "oauth-id-jag+jwt";

/** Seconds of clock skew an assertion's `exp`, `nbf` and `iat` are given. */
const CLOCK_TOLERANCE = 30;

/**
 * The JWT bearer grant (`auth.jwtBearer`): which signed assertions the token endpoint exchanges
 * for access tokens (RFC 7523). An assertion must be signed by one of `keys`, name this
 * authorization server's issuer in `aud`, and carry an `exp` not passed (RFC 7523 section 3); the client authenticates as it
 * registered (a public client sends its `client_id`).
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * import { exportJWK, generateKeyPair } from "jose";
 * const { publicKey } = await generateKeyPair("ES256");
 * await using mock = await McpMock.start({
 *   auth: { registration: false, clients: [{ clientId: "workload" }], jwtBearer: { keys: [await exportJWK(publicKey)] } },
 * });
 * // POST /token: grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<JWT>&client_id=workload
 * ```
 * @category Authorization
 */
export interface JwtBearerGrantOptions {
  /** The public keys (JWKs) whose signatures are taken; a key without `alg` takes the one its type implies. */
  readonly keys: readonly JWK[];
  /**
   * `"jwt"` (default): any JWT assertion (a workload's identity, SEP-1933). `"id-jag"`: an
   * ID-JAG (SEP-990): its header's `typ` must be `oauth-id-jag+jwt`, its `client_id` claim the
   * authenticating client's, and its `resource` claim this server's protected endpoint.
   */
  readonly assertion?: "jwt" | "id-jag";
}

/** A refusal, as the token endpoint answers it (an OAuth error code and what was wrong); the shape of clients.ts's, which imports the options. */
export interface GrantProblem {
  readonly error: string;
  readonly description: string;
}

/** What a verified assertion grants. */
export interface AssertionGrant {
  readonly subject: string;
  /** The resource the token is for (the ID-JAG's `resource`, else the request's or this server's). */
  readonly resource: string;
}

/** Why `jwk` is not a key Node can read (public, or private with `d`), or `undefined`. */
export function unreadableKey(jwk: JWK): string | undefined {
  try {
    const input = { key: jwk, format: "jwk" } as JsonWebKeyInput;
    if (jwk.d === undefined) createPublicKey(input);
    else createPrivateKey(input);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Refuses `auth.jwtBearer` options that cannot work. */
export function jwtBearerProblems(options: unknown): string[] {
  if (typeof options !== "object" || options === null || Array.isArray(options)) return [`auth.jwtBearer must be an object like { keys: [<public JWK>] }, received ${JSON.stringify(options)}.`];
  const o = options as Partial<JwtBearerGrantOptions>;
  const problems: string[] = [];
  if (!Array.isArray(o.keys) || o.keys.length === 0 || !o.keys.every((k) => typeof k === "object" && k !== null && typeof k.kty === "string")) problems.push(`auth.jwtBearer.keys must be a non-empty list of public JWKs (each with a kty), received ${JSON.stringify(o.keys)}.`);
  else if (o.keys.some((k) => k.d !== undefined)) problems.push("auth.jwtBearer.keys must hold public keys only: one has a private part (d).");
  else o.keys.forEach((k, i) => {
    const why = unreadableKey(k);
    if (why) problems.push(`auth.jwtBearer.keys[${i}] is not a JWK a key can be made of: ${why}.`);
  });
  if (o.assertion !== undefined && o.assertion !== "jwt" && o.assertion !== "id-jag") problems.push(`auth.jwtBearer.assertion must be "jwt" or "id-jag", received ${JSON.stringify(o.assertion)}.`);
  return problems;
}

/** Why jose refused an assertion, in the words of RFC 7523 section 3. */
function refusal(error: unknown, errors: Awaited<ReturnType<typeof jose>>["errors"]): string {
  if (error instanceof errors.JWTExpired) return `The assertion has expired (exp ${String(error.payload.exp)}, now ${Math.floor(Date.now() / 1000)}).`;
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === "aud") return `The assertion's aud (${JSON.stringify(error.payload.aud)}) does not name this authorization server.`;
  if (error instanceof errors.JWTClaimValidationFailed) return `The assertion's ${error.claim} claim is not valid: ${error.message}.`;
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) return "The assertion's signature does not verify with any key auth.jwtBearer.keys trusts: sign it with a private key whose public half is listed there.";
  return `The assertion is not a signed JWT this server can read: ${error instanceof Error ? error.message : String(error)}.`;
}

/**
 * Verifies a JWT bearer grant's `assertion` for `clientId` at the authorization server `issuer`
 * (its `aud`, with or without a trailing slash), whose protected resources are `resources`.
 */
export async function verifyAssertion(options: JwtBearerGrantOptions, assertion: string | undefined, context: { readonly issuer: string; readonly clientId: string; readonly resources: readonly string[]; readonly requested: readonly string[] }): Promise<AssertionGrant | GrantProblem> {
  if (!assertion) return { error: "invalid_request", description: "The assertion parameter is missing: send the signed JWT as assertion (RFC 7523 section 2.1)." };
  const idJag = options.assertion === "id-jag";
  const { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify } = await jose();
  let payload: JWTPayload;
  try {
    if (idJag) {
      const typ = decodeProtectedHeader(assertion).typ;
      if (typ !== ID_JAG_TYP) return { error: "invalid_grant", description: `The assertion's typ is ${JSON.stringify(typ)}, not "${ID_JAG_TYP}": it is not an ID-JAG (SEP-990).` };
    }
    const issuer = context.issuer.replace(/\/+$/, "");
    ({ payload } = await jwtVerify(assertion, createLocalJWKSet({ keys: [...options.keys] }), { audience: [issuer, `${issuer}/`], clockTolerance: CLOCK_TOLERANCE, requiredClaims: ["exp"] }));
  } catch (error) {
    return { error: "invalid_grant", description: refusal(error, errors) };
  }
  const subject = typeof payload.sub === "string" && payload.sub !== "" ? payload.sub : undefined;
  if (subject === undefined) return { error: "invalid_grant", description: "The assertion has no sub claim: it names no one to issue the token for (RFC 7523 section 3)." };
  if (idJag) {
    if (payload["client_id"] !== context.clientId) return { error: "invalid_grant", description: `The ID-JAG was issued for client ${JSON.stringify(payload["client_id"])}, not for ${context.clientId}, which presents it.` };
    const resource = payload["resource"];
    if (typeof resource !== "string" || !context.resources.includes(resource)) return { error: "invalid_grant", description: `The ID-JAG's resource ${JSON.stringify(resource)} is not this server's protected resource (${context.resources.join(" or ")}).` };
    return { subject, resource };
  }
  const foreign = context.requested.filter((r) => !context.resources.includes(r));
  if (foreign.length > 0) return { error: "invalid_target", description: `resource ${foreign.join(", ")} is not this server's protected resource; send resource=${context.resources.join(" or ")}, or none.` };
  return { subject, resource: context.requested[0] ?? (context.resources[0] as string) };
}
