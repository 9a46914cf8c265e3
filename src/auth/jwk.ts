/**
 * What a public key is, where a client hands the mock one: a registration's `jwks` (RFC 7591
 * section 2, "the client's public keys") and a DPoP proof's `jwk` header (RFC 9449 section 4.2,
 * "MUST NOT contain a private key"). Private key material is any of RFC 7518 section 6's private
 * members, not `d` alone (an RSA key's factors `p` and `q` are its private key as surely), or a
 * symmetric key's `k`.
 * @module
 */
import { createPublicKey, type JsonWebKeyInput } from "node:crypto";

/** The JWK members that carry private or secret key material (RFC 7518 sections 6.2.2, 6.3.2 and 6.4.1). */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"] as const;

/** The asymmetric key types a client's public key may have. */
const PUBLIC_KEY_TYPES: readonly string[] = ["EC", "RSA", "OKP"];

/** The private members `jwk` holds (none for a public key). */
export function privateMembers(jwk: object): string[] {
  return PRIVATE_MEMBERS.filter((name) => name in jwk);
}

/** Why `key` is not a public JWK Node can read, as the end of a sentence; `undefined` when it is one. */
export function publicJwkProblem(key: unknown): string | undefined {
  if (typeof key !== "object" || key === null || Array.isArray(key)) return `is ${JSON.stringify(key)}, not a JWK (an object with a kty)`;
  const kty = (key as { kty?: unknown }).kty;
  if (typeof kty !== "string" || !PUBLIC_KEY_TYPES.includes(kty)) return `has kty ${JSON.stringify(kty ?? null)}; a public key is one of ${PUBLIC_KEY_TYPES.join(", ")}`;
  const secret = privateMembers(key);
  if (secret.length > 0) return `holds private key material (${secret.join(", ")}): give the public key only, like await exportJWK(publicKey)`;
  try {
    createPublicKey({ key, format: "jwk" } as JsonWebKeyInput);
    return undefined;
  } catch (error) {
    return `is not a public key Node can read (${error instanceof Error ? error.message : String(error)})`;
  }
}
