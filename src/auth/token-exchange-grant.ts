/**
 * Token exchange (RFC 8693) at the embedded authorization server, playing an enterprise IdP
 * (SEP-990, Enterprise-Managed Authorization): `/token` takes
 * `grant_type=urn:ietf:params:oauth:grant-type:token-exchange` with an ID token as the
 * `subject_token` and answers an ID-JAG (Identity Assertion JWT Authorization Grant) for the
 * authorization server named in `audience` and the resource named in `resource`, which the
 * client then presents there with the JWT bearer grant. Signed and checked with jose.
 * @module
 */
import type { JWK } from "jose";
import { randomUUID } from "node:crypto";
import { jose } from "./jose.js";
import { ID_JAG_TYP, unreadableKey, type GrantProblem } from "./jwt-bearer-grant.js";

/** The grant type of RFC 8693 section 2.1. */
export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag";
/** Seconds an ID-JAG lives. */
const ID_JAG_TTL = 300;

/**
 * Token exchange (`auth.tokenExchange`): the authorization server plays an enterprise IdP
 * (SEP-990). A client exchanges an ID token (`subject_token`, signed by one of `subjectKeys`,
 * issued by this server, for the client) for an ID-JAG signed with `signingKey`, naming the
 * `audience` and `resource` it asked for and `clientId`.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * import { exportJWK, generateKeyPair } from "jose";
 * const idp = await generateKeyPair("ES256", { extractable: true });
 * const jag = await generateKeyPair("ES256", { extractable: true });
 * await using mock = await McpMock.start({
 *   auth: {
 *     registration: false,
 *     clients: [{ clientId: "idp-client" }],
 *     tokenExchange: { subjectKeys: [await exportJWK(idp.publicKey)], signingKey: await exportJWK(jag.privateKey), clientId: "app-at-the-resource" },
 *   },
 * });
 * // POST /token: grant_type=urn:ietf:params:oauth:grant-type:token-exchange&subject_token=<ID token>&...
 * ```
 * @category Authorization
 */
export interface TokenExchangeGrantOptions {
  /** The public keys (JWKs) the ID tokens presented as `subject_token` are signed with. */
  readonly subjectKeys: readonly JWK[];
  /** The private key (a JWK with `d`) ID-JAGs are signed with; its `alg`, else ES256. */
  readonly signingKey: JWK;
  /** The `client_id` claim of the ID-JAGs: the client's id at the resource's authorization server. */
  readonly clientId: string;
}

/** Refuses `auth.tokenExchange` options that cannot work. */
export function tokenExchangeProblems(options: unknown): string[] {
  if (typeof options !== "object" || options === null || Array.isArray(options)) return [`auth.tokenExchange must be an object like { subjectKeys: [<public JWK>], signingKey: <private JWK>, clientId: "app" }, received ${JSON.stringify(options)}.`];
  const o = options as Partial<TokenExchangeGrantOptions>;
  const problems: string[] = [];
  if (!Array.isArray(o.subjectKeys) || o.subjectKeys.length === 0 || !o.subjectKeys.every((k) => typeof k === "object" && k !== null && typeof k.kty === "string")) problems.push(`auth.tokenExchange.subjectKeys must be a non-empty list of public JWKs (each with a kty), received ${JSON.stringify(o.subjectKeys)}.`);
  else o.subjectKeys.forEach((k, i) => {
    const why = unreadableKey(k);
    if (why) problems.push(`auth.tokenExchange.subjectKeys[${i}] is not a JWK a key can be made of: ${why}.`);
  });
  if (typeof o.signingKey !== "object" || o.signingKey === null || typeof o.signingKey.kty !== "string" || o.signingKey.d === undefined) problems.push("auth.tokenExchange.signingKey must be a private JWK (with kty and d) to sign ID-JAGs with.");
  else {
    const why = unreadableKey(o.signingKey);
    if (why) problems.push(`auth.tokenExchange.signingKey is not a JWK a key can be made of: ${why}.`);
  }
  if (typeof o.clientId !== "string" || o.clientId === "") problems.push(`auth.tokenExchange.clientId must be a non-empty string (the client's id at the resource's authorization server), received ${JSON.stringify(o.clientId)}.`);
  return problems;
}

/** The answer to a token exchange: the ID-JAG, as RFC 8693 section 2.2.1 shapes it. */
export interface TokenExchangeAnswer {
  readonly access_token: string;
  readonly issued_token_type: string;
  readonly token_type: "N_A";
  readonly expires_in: number;
  readonly subject: string;
}

const KEY_ALG: Readonly<Record<string, string>> = { EC: "ES256", RSA: "RS256", OKP: "EdDSA" };

/** Exchanges the form's ID token for an ID-JAG, at the IdP `issuer`, for the client `clientId`. */
export async function exchangeToken(options: TokenExchangeGrantOptions, p: (name: string) => string | undefined, context: { readonly issuer: string; readonly clientId: string }): Promise<TokenExchangeAnswer | GrantProblem> {
  const subjectToken = p("subject_token");
  const missing = [
    ...(subjectToken ? [] : ["subject_token"]),
    ...(p("subject_token_type") === ID_TOKEN_TYPE ? [] : [`subject_token_type (expected ${ID_TOKEN_TYPE}, got ${p("subject_token_type") ?? "missing"})`]),
    ...(p("requested_token_type") === ID_JAG_TYPE ? [] : [`requested_token_type (expected ${ID_JAG_TYPE}, got ${p("requested_token_type") ?? "missing"})`]),
    ...(p("audience") ? [] : ["audience"]),
    ...(p("resource") ? [] : ["resource"]),
  ];
  if (missing.length > 0) return { error: "invalid_request", description: `The token exchange is missing or has invalid parameters: ${missing.join(", ")} (RFC 8693 section 2.1, SEP-990).` };
  const { createLocalJWKSet, importJWK, jwtVerify, SignJWT } = await jose();
  let subject: string;
  try {
    const { payload } = await jwtVerify(subjectToken as string, createLocalJWKSet({ keys: [...options.subjectKeys] }), { issuer: context.issuer, audience: context.clientId, requiredClaims: ["exp"] });
    const sub = payload.sub;
    if (typeof sub !== "string" || sub === "") return { error: "invalid_grant", description: "The ID token has no sub claim: it names no user to exchange for." };
    subject = sub;
  } catch (error) {
    return { error: "invalid_grant", description: `The subject_token is not a valid ID token of this IdP for client ${context.clientId} (its signature, iss ${context.issuer}, aud and exp are checked): ${error instanceof Error ? error.message : String(error)}.` };
  }
  const alg = options.signingKey.alg ?? KEY_ALG[options.signingKey.kty ?? ""] ?? "ES256";
  let jag: string;
  try {
    jag = await new SignJWT({ sub: subject, resource: p("resource"), client_id: options.clientId })
      .setProtectedHeader({ alg, typ: ID_JAG_TYP })
      .setIssuer(context.issuer)
      .setAudience(p("audience") as string)
      .setIssuedAt()
      .setExpirationTime(`${ID_JAG_TTL}s`)
      .setJti(randomUUID())
      .sign(await importJWK(options.signingKey, alg));
  } catch (error) {
    // The options' key, not the client, is at fault: a server error that says how to fix it.
    return { error: "server_error", description: `auth.tokenExchange.signingKey cannot sign an ID-JAG with ${alg}: ${error instanceof Error ? error.message : String(error)}. Give a private JWK (with its alg, or an EC P-256 key for ES256).` };
  }
  return { access_token: jag, issued_token_type: ID_JAG_TYPE, token_type: "N_A", expires_in: ID_JAG_TTL, subject };
}
