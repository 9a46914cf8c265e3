/**
 * The mock authorization server's memory: access tokens, refresh tokens and authorization
 * codes, opaque random strings from `node:crypto` kept in one bounded map (the oldest go first).
 * A token is looked up, never parsed, so nothing about it can be forged.
 * @module
 */
import { createHash, randomBytes } from "node:crypto";
import { BoundedMap } from "../values/bounded-map.js";

/**
 * A token the mock issued, as `mock.auth.issued()` lists it.
 *
 * @example
 * ```ts
 * import { McpMock, type IssuedToken } from "mcpmock";
 * await using mock = await McpMock.start({ auth: true });
 * mock.auth.issueToken({ scopes: ["read"] });
 * const tokens: IssuedToken[] = mock.auth.issued();
 * for (const t of tokens) console.log(t.id, t.kind, t.scopes, t.revoked); // token-1 access ["read"] false
 * ```
 * @category Authorization
 */
export interface IssuedToken {
  /** `"token-1"`, `"token-2"`...: how the journal and reports name it (the token itself is never shown). */
  readonly id: string;
  /** The bearer string a client sends. */
  readonly token: string;
  /** `"access"` or `"refresh"`. */
  readonly kind: "access" | "refresh";
  /** The scopes it grants. */
  readonly scopes: readonly string[];
  /** Who it was issued to (`sub`). */
  readonly subject: string;
  /** The client it was issued to (`client_id`); `undefined` for `mock.auth.issueToken()` without one. */
  readonly clientId: string | undefined;
  /** The resource (RFC 8707 audience) it is for; `undefined` means this mock's endpoint. */
  readonly resource: string | undefined;
  /** Milliseconds since the epoch when it stops working (`undefined`: never). */
  expiresAt: number | undefined;
  /** Revoked: refused as `invalid_token` (access) or `invalid_grant` (refresh). */
  revoked: boolean;
  /** For a refresh token: the access token issued with it. */
  readonly accessId?: string;
  /** Bound to a DPoP key (`auth.dpop`): its JWK SHA-256 thumbprint, the token's `cnf.jkt` (RFC 9449 section 6). */
  readonly jkt?: string;
}

/** An authorization code waiting for its `/token` exchange. */
export interface PendingCode {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scopes: readonly string[];
  /** The resources (RFC 8707) the authorization request named, each once: a token for any of them may be asked for. */
  readonly resources: readonly string[];
  readonly subject: string;
  readonly expiresAt: number;
}

/** How long an authorization code may wait for its exchange. */
export const CODE_TTL_MS = 60_000;

/** Why a token is not accepted. */
export type TokenProblem = "unknown" | "expired" | "revoked";

/** A random URL-safe string of `bytes` random bytes. */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString("base64url");
}

/** The PKCE S256 code challenge of a verifier: BASE64URL(SHA256(code_verifier)) (RFC 7636 section 4.2). */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/**
 * Bytes of tokens, and of codes, kept at most (about 3 MB holds 10,000 tokens of a few scopes):
 * a client may ask for scopes, resources and subjects up to the form's 64 KiB each time.
 */
const MAX_STORE_BYTES = 32 * 1024 * 1024;

/** Tokens and codes, bounded by count (`maxTokens`) and by bytes (`MAX_STORE_BYTES`). */
export class TokenStore {
  readonly #tokens: BoundedMap<string, IssuedToken>;
  readonly #codes: BoundedMap<string, PendingCode>;
  /** Codes exchanged already (bounded): a replay revokes what the code gave (RFC 6749 section 4.1.2). */
  readonly #spent = new Set<string>();
  /** The code each token descends from (its refreshes too). */
  readonly #grants = new WeakMap<IssuedToken, string>();
  readonly #max: number;
  #seq = 0;

  constructor(max: number) {
    this.#max = max;
    this.#tokens = new BoundedMap(max, MAX_STORE_BYTES);
    this.#codes = new BoundedMap(max, MAX_STORE_BYTES);
  }

  /** Issues a token; the oldest tokens go when the store is full (by count or by bytes). */
  issue(init: Omit<IssuedToken, "id" | "token" | "revoked" | "expiresAt"> & { readonly ttlSeconds: number | undefined }, grant?: string): IssuedToken {
    const { ttlSeconds, ...rest } = init;
    const token: IssuedToken = { ...rest, id: `token-${++this.#seq}`, token: randomToken(), revoked: false, expiresAt: ttlSeconds === undefined ? undefined : Date.now() + ttlSeconds * 1000 };
    if (grant !== undefined) this.#grants.set(token, grant);
    this.#tokens.set(token.token, token);
    return token;
  }

  /** The token `value` names, or why it is refused. */
  check(value: string, kind: IssuedToken["kind"]): IssuedToken | TokenProblem {
    const token = this.#tokens.get(value);
    if (token === undefined || token.kind !== kind) return "unknown";
    if (token.revoked) return "revoked";
    if (token.expiresAt !== undefined && Date.now() >= token.expiresAt) return "expired";
    return token;
  }

  /** Every kept token, oldest first. */
  all(): IssuedToken[] {
    return [...this.#tokens.values()];
  }

  /** The kept token with this value or id. */
  find(valueOrId: string): IssuedToken | undefined {
    return this.#tokens.get(valueOrId) ?? this.all().find((t) => t.id === valueOrId);
  }

  /** Keeps a code for one exchange. */
  addCode(code: PendingCode): string {
    const value = randomToken();
    this.#codes.set(value, code);
    return value;
  }

  /**
   * Takes a code (single use): it is gone after this, whatever the exchange's outcome. A code
   * taken before is `"replayed"`, and every token issued from it (and from their refreshes) is
   * revoked.
   */
  takeCode(value: string): PendingCode | "replayed" | undefined {
    if (this.#spent.has(value)) {
      for (const token of this.#tokens.values()) if (this.#grants.get(token) === value) token.revoked = true;
      return "replayed";
    }
    const code = this.#codes.get(value);
    if (!this.#codes.delete(value)) return undefined;
    this.#spent.add(value);
    if (this.#spent.size > this.#max) this.#spent.delete(this.#spent.values().next().value as string);
    return code && code.expiresAt > Date.now() ? code : undefined;
  }

  /** The code a token descends from (for its refreshes to carry on). */
  grantOf(token: IssuedToken): string | undefined {
    return this.#grants.get(token);
  }

  /** Forgets every token and code. */
  clear(): void {
    this.#tokens.clear();
    this.#codes.clear();
    this.#spent.clear();
  }
}
