/**
 * DPoP (RFC 9449, SEP-1932) on the embedded authorization server and the protected MCP endpoint,
 * with `auth.dpop`: the token endpoint binds the access token it issues to the key of the proof
 * that came with the request (`token_type: "DPoP"`, the key's thumbprint kept as the token's
 * `cnf.jkt`), and the MCP endpoint takes a bound token only with the `DPoP` scheme and a fresh
 * proof of that key for that very request. Either may demand a server-provided nonce
 * (`use_dpop_nonce`, sections 8 and 9). The order of the checks at the MCP endpoint: the proof
 * (its form, signature, method, URI, age, `ath`, key), its freshness (`jti`), the nonce, then
 * the scheme the token was presented with.
 * @module
 */
import type { Context } from "hono";
import { McpMockError } from "../values/errors.js";
import { checkDpopProof, DPOP_ALGORITHMS, type GoodProof } from "./dpop-proof.js";
import type { IssuedToken } from "./tokens.js";
import { randomToken, s256 } from "./tokens.js";

/**
 * DPoP on the mock's authorization server and MCP endpoint (`auth.dpop`; `true` takes every default).
 *
 * @example
 * ```ts
 * import { McpMock, type DpopOptions } from "mcpmock";
 * const dpop: DpopOptions = { nonce: true, algorithms: ["ES256"] };
 * await using mock = await McpMock.start({ auth: { dpop } });
 * // A token request with a DPoP proof gets a DPoP-bound token (after one use_dpop_nonce challenge);
 * // the MCP endpoint takes it as `Authorization: DPoP <token>` with a fresh proof on every request.
 * ```
 * @category Authorization
 */
export interface DpopOptions {
  /** The algorithms a proof may be signed with, listed as `dpop_signing_alg_values_supported`; default every asymmetric one (ES256, RS256, PS256, EdDSA...). */
  readonly algorithms?: readonly string[];
  /**
   * Demand a server-provided nonce in the proof: `"token"` at the token endpoint (RFC 9449
   * section 8), `"resource"` at the MCP endpoint (section 9), `true` at both. A proof without
   * the nonce is answered `use_dpop_nonce` with the nonce in the `DPoP-Nonce` header. Default `false`.
   */
  readonly nonce?: boolean | "token" | "resource";
  /**
   * DPoP-bound tokens only: a token request without a proof is `invalid_dpop_proof`, and the MCP
   * endpoint refuses a bearer token. Default `false`: a token request without a proof gets a
   * bearer token, which the endpoint takes as before.
   */
  readonly required?: boolean;
}

/** Why the DPoP layer refuses a request: the status, the OAuth error, the auth log's outcome, and a nonce to send. */
export interface DpopRefusal {
  readonly status: 400 | 401;
  readonly error: "invalid_dpop_proof" | "use_dpop_nonce" | "invalid_token";
  readonly outcome: string;
  readonly description: string;
  /** The nonce to send in `DPoP-Nonce` (a `use_dpop_nonce` refusal). */
  readonly nonce?: string;
  /** The thumbprint of the proof's key, when the proof itself passed (a refusal of the scheme). */
  readonly jkt?: string;
}

/** A request the DPoP layer lets pass: the thumbprint of its proof's key, or none (a bearer request). */
export interface DpopPass {
  readonly jkt: string | undefined;
}

/**
 * The auth log outcomes of a request whose proof was missing, malformed or not the token's key
 * (what a verdict reads as "the proof was not good").
 */
export const DPOP_PROOF_FAILURES: readonly string[] = ["invalid_dpop_proof", "dpop-unbound-token", "dpop-key-mismatch"];

/** How a refusal of a proof's form or signature begins (a verdict names the rule without it). */
export const INVALID_PROOF = "The DPoP proof is not valid: ";

/**
 * The `jti`s remembered for the replay check (the oldest go first), each as the digest of its key
 * and `jti` (43 characters however long the client made its `jti`, up to a header's 16 KiB).
 */
const MAX_JTIS = 10_000;

/** Refuses `auth.dpop` values that cannot work, with the fix (added to the other `auth` problems). */
export function dpopProblems(dpop: unknown): string[] {
  if (dpop === undefined || dpop === true || dpop === false) return [];
  if (typeof dpop !== "object" || dpop === null || Array.isArray(dpop)) return [`auth.dpop must be true or an object like { nonce: true }, received ${JSON.stringify(dpop)}.`];
  const { algorithms, nonce, required } = dpop as DpopOptions;
  const problems: string[] = [];
  if (algorithms !== undefined && !(Array.isArray(algorithms) && algorithms.length > 0 && algorithms.every((a) => DPOP_ALGORITHMS.includes(a)))) problems.push(`auth.dpop.algorithms must be a non-empty list of ${DPOP_ALGORITHMS.join(", ")} (asymmetric only, RFC 9449 section 4.2); received ${JSON.stringify(algorithms)}.`);
  if (nonce !== undefined && ![true, false, "token", "resource"].includes(nonce)) problems.push(`auth.dpop.nonce must be true, false, "token" or "resource", received ${JSON.stringify(nonce)}.`);
  if (required !== undefined && typeof required !== "boolean") problems.push(`auth.dpop.required must be true or false, received ${JSON.stringify(required)}.`);
  return problems;
}

/** `auth.dpop` as options (`true`: the defaults), or `undefined` when DPoP is off. */
export function dpopOptionsOf(dpop: boolean | DpopOptions | undefined): DpopOptions | undefined {
  if (dpop === undefined || dpop === false) return undefined;
  if (dpop === true) return {};
  const problems = dpopProblems(dpop);
  if (problems.length > 0) throw new McpMockError(problems.join(" "));
  return dpop;
}

/** The DPoP rules of one mock: its nonces, the proofs seen (replays), and the checks of both servers. */
export class Dpop {
  readonly #options: DpopOptions;
  readonly #seen = new Set<string>();
  /** The nonces the servers demand (one each, for the mock's life). */
  readonly tokenNonce = `as-${randomToken(12)}`;
  readonly resourceNonce = `rs-${randomToken(12)}`;

  constructor(options: DpopOptions) {
    this.#options = options;
  }

  /** The algorithms proofs may use. */
  get algorithms(): readonly string[] {
    return this.#options.algorithms ?? DPOP_ALGORITHMS;
  }

  /** Bearer tokens are refused (`required`). */
  get required(): boolean {
    return this.#options.required === true;
  }

  #nonceAt(where: "token" | "resource"): string | undefined {
    const n = this.#options.nonce;
    if (n === true || n === where) return where === "token" ? this.tokenNonce : this.resourceNonce;
    return undefined;
  }

  /** The authorization server metadata's DPoP field. */
  metadata(): Record<string, unknown> {
    return { dpop_signing_alg_values_supported: [...this.algorithms] };
  }

  /**
   * The stage both servers share once a proof is good: a `jti` this key used before is a replay
   * (RFC 9449 section 11.1), a nonce demanded must be the current one (sections 8 and 9); a proof
   * that passes is remembered. `undefined` when it passes.
   */
  #freshWithNonce(proof: GoodProof, where: "token" | "resource"): DpopRefusal | undefined {
    const status = where === "token" ? 400 : 401;
    const seen = s256(`${proof.jkt} ${proof.jti}`);
    if (this.#seen.has(seen)) return { status, error: "invalid_dpop_proof", outcome: "dpop-proof-replayed", description: "The DPoP proof's jti was used before: make a fresh proof for every request (RFC 9449 section 11.1)." };
    const nonce = this.#nonceAt(where);
    if (nonce !== undefined && proof.nonce !== nonce) {
      const server = where === "token" ? "This authorization server" : "This MCP endpoint";
      const again = where === "token" ? "the token request again (RFC 9449 section 8)" : "the request again (RFC 9449 section 9)";
      return { status, error: "use_dpop_nonce", outcome: "use_dpop_nonce", nonce, description: `${server} requires a DPoP nonce${proof.nonce === undefined ? "" : " (the proof's is not the current one)"}: make a new proof with the nonce of the DPoP-Nonce header and send ${again}.` };
    }
    this.#seen.add(seen);
    if (this.#seen.size > MAX_JTIS) this.#seen.delete(this.#seen.values().next().value as string);
    return undefined;
  }

  /**
   * The token endpoint's DPoP stage (RFC 9449 section 5), before anything else of the request:
   * no proof passes unbound (unless `required`); a proof must be good, fresh, and carry the
   * nonce when one is demanded.
   */
  async tokenRequest(c: Context): Promise<DpopPass | DpopRefusal> {
    const proof = c.req.raw.headers.get("dpop") ?? undefined;
    if (proof === undefined) {
      if (!this.required) return { jkt: undefined };
      return { status: 400, error: "invalid_dpop_proof", outcome: "invalid_dpop_proof", description: "This authorization server issues DPoP-bound tokens only (auth.dpop.required): send a DPoP proof of your key in the DPoP header (RFC 9449 section 5)." };
    }
    const checked = await checkDpopProof(proof, { method: "POST", url: c.req.url, algorithms: this.algorithms });
    if (!checked.ok) return { status: 400, error: "invalid_dpop_proof", outcome: "invalid_dpop_proof", description: `${INVALID_PROOF}${checked.error}.` };
    return this.#freshWithNonce(checked, "token") ?? { jkt: checked.jkt };
  }

  /**
   * The MCP endpoint's DPoP stage for a live token presented with `scheme` (RFC 9449 sections
   * 7 and 9): a bound token, or the DPoP scheme, needs a good proof of the token's key for this
   * request; then a fresh `jti`, the nonce when demanded, and the DPoP scheme for a bound token.
   */
  async resourceRequest(c: Context, scheme: "bearer" | "dpop", value: string, token: IssuedToken): Promise<DpopPass | DpopRefusal> {
    if (scheme === "bearer" && token.jkt === undefined) {
      if (!this.required) return { jkt: undefined };
      return { status: 401, error: "invalid_token", outcome: "dpop-required", description: "This MCP endpoint takes DPoP-bound tokens only (auth.dpop.required): get one with a DPoP proof at the token endpoint, and present it as Authorization: DPoP <token> with a proof." };
    }
    const checked = await checkDpopProof(c.req.raw.headers.get("dpop") ?? undefined, { method: c.req.method, url: c.req.url, algorithms: this.algorithms, accessToken: value });
    if (!checked.ok) return { status: 401, error: "invalid_dpop_proof", outcome: "invalid_dpop_proof", description: `${INVALID_PROOF}${checked.error}.` };
    if (token.jkt === undefined) return { status: 401, error: "invalid_token", outcome: "dpop-unbound-token", description: "The access token is not DPoP-bound (it was issued for a token request without a proof): present it as Bearer, or get a bound one with a DPoP proof at the token endpoint." };
    if (checked.jkt !== token.jkt) return { status: 401, error: "invalid_token", outcome: "dpop-key-mismatch", description: "The DPoP proof is signed by another key than the one the access token is bound to (its cnf.jkt): sign every proof with the key whose proof came with the token request." };
    const stale = this.#freshWithNonce(checked, "resource");
    if (stale) return stale;
    if (scheme === "bearer") return { status: 401, error: "invalid_token", outcome: "dpop-token-as-bearer", jkt: checked.jkt, description: "The access token is DPoP-bound: present it as Authorization: DPoP <token>, not Bearer (RFC 9449 section 7.1)." };
    return { jkt: checked.jkt };
  }
}

/** Whether a DPoP stage's answer is a refusal. */
export function isDpopRefusal(value: DpopPass | DpopRefusal): value is DpopRefusal {
  return "error" in value;
}
