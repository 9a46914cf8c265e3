/**
 * The DPoP proof check (RFC 9449 section 4.3): one `DPoP` header value, a `dpop+jwt` signed
 * with an asymmetric algorithm by the public key it carries in its `jwk` header, with `jti`,
 * `htm` (the request's method), `htu` (its URI without query or fragment), a recent `iat`, and,
 * presented with an access token, `ath` (the token's SHA-256). Signatures are checked by `jose`.
 * @module
 */
import { createHash } from "node:crypto";
import type { JWK, ProtectedHeaderParameters } from "jose";
import { jose } from "./jose.js";
import { privateMembers } from "./jwk.js";

/** The asymmetric algorithms a proof may be signed with (RFC 9449 section 4.2: never `none`, never a MAC). */
export const DPOP_ALGORITHMS: readonly string[] = ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"];

/** How far a proof's `iat` may be from now, in seconds. */
export const DPOP_PROOF_WINDOW_SECONDS = 300;

/** What a proof must say to be good for one request. */
export interface ProofExpectation {
  /** The request's HTTP method (`htm`). */
  readonly method: string;
  /** The request's URI (`htu` is compared without query, fragment or trailing slash). */
  readonly url: string;
  /** The algorithms accepted (default {@link DPOP_ALGORITHMS}). */
  readonly algorithms?: readonly string[];
  /** The access token presented with it: the proof's `ath` must be its hash. */
  readonly accessToken?: string;
}

/** A proof that passed: its key's thumbprint (RFC 7638, what `cnf.jkt` binds), its `jti` and its `nonce`. */
export interface GoodProof {
  readonly ok: true;
  readonly jkt: string;
  readonly jti: string;
  readonly nonce: string | undefined;
}

/** A proof that did not, and why (a sentence that names the rule). */
export interface BadProof {
  readonly ok: false;
  readonly error: string;
}

/** The access token hash a proof's `ath` carries: BASE64URL(SHA-256(ASCII(token))) (RFC 9449 section 4.2). */
export function accessTokenHash(token: string): string {
  return createHash("sha256").update(token, "ascii").digest("base64url");
}

/** A URI as `htu` compares it: scheme, host and path, without a trailing slash. */
function comparable(uri: string): string {
  if (!URL.canParse(uri)) return uri;
  const url = new URL(uri);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, "")}`;
}

function bad(error: string): BadProof {
  return { ok: false, error };
}

/** Checks one proof (the `DPoP` header's value) for a request; never throws. */
export async function checkDpopProof(proof: string | undefined, expected: ProofExpectation): Promise<GoodProof | BadProof> {
  if (proof === undefined || proof === "") return bad("missing DPoP proof header");
  if (proof.includes(",")) return bad("multiple DPoP proof headers");
  const { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify } = await jose();
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    return bad("DPoP proof is not a well-formed JWT");
  }
  const algorithms = [...(expected.algorithms ?? DPOP_ALGORITHMS)];
  if (header.typ !== "dpop+jwt") return bad(`typ must be dpop+jwt (it is ${JSON.stringify(header.typ)})`);
  if (!header.alg || !algorithms.includes(header.alg)) return bad(`alg must be a supported asymmetric algorithm (${algorithms.join(", ")}); it is ${JSON.stringify(header.alg)}`);
  const jwk = header.jwk as JWK | undefined;
  if (!jwk || typeof jwk !== "object") return bad("missing jwk header parameter (the public key the proof is signed with)");
  const secret = privateMembers(jwk);
  if (secret.length > 0) return bad(`jwk must not contain a private key (it holds ${secret.join(", ")}): put the public key in the proof's header (RFC 9449 section 4.2)`);
  let payload: Record<string, unknown>;
  try {
    payload = (await jwtVerify(proof, await importJWK(jwk, header.alg), { algorithms })).payload;
  } catch {
    return bad("DPoP proof signature does not verify with the key in its jwk header");
  }
  if (typeof payload["jti"] !== "string") return bad("missing jti claim");
  if (payload["htm"] !== expected.method) return bad(`htm does not match the request method (${JSON.stringify(payload["htm"])}, the request is ${expected.method})`);
  const htu = payload["htu"];
  if (typeof htu !== "string") return bad("htu does not match the request URI (it has none)");
  if (htu.includes("?") || htu.includes("#")) return bad("htu MUST NOT contain a query or fragment (RFC 9449 §4.2)");
  if (comparable(htu) !== comparable(expected.url)) return bad(`htu does not match the request URI (${htu}, the request went to ${comparable(expected.url)})`);
  const iat = payload["iat"];
  if (typeof iat !== "number" || Math.abs(Math.floor(Date.now() / 1000) - iat) > DPOP_PROOF_WINDOW_SECONDS) return bad(`iat outside the acceptable window (${DPOP_PROOF_WINDOW_SECONDS} seconds from now)`);
  if (expected.accessToken !== undefined && payload["ath"] !== accessTokenHash(expected.accessToken)) return bad("ath does not match the presented access token (it must be the base64url SHA-256 of the token)");
  const nonce = typeof payload["nonce"] === "string" ? payload["nonce"] : undefined;
  return { ok: true, jkt: await calculateJwkThumbprint(jwk, "sha256"), jti: payload["jti"], nonce };
}
