/**
 * What the authorization side saw: one event per request to the MCP endpoint's gate (its auth
 * outcome: passed, 401 or 403, and which token by id, never the token itself) and per request to
 * an authorization server endpoint. Bounded; `mock.auth.requests()` and `mock.auth.verify()` read it.
 * @module
 */
import { BoundedMap } from "../values/bounded-map.js";
import { McpMockError } from "../values/errors.js";

/**
 * Which endpoint an {@link AuthEvent} is about.
 *
 * @example
 * ```ts
 * import { McpMock, type AuthEndpoint } from "mcpmock";
 * await using mock = await McpMock.start({ auth: true });
 * const endpoint: AuthEndpoint = "register"; // dynamic client registration
 * mock.auth.requests({ endpoint }); // every request to the registration endpoint
 * ```
 * @category Authorization
 */
export type AuthEndpoint = "mcp" | "resource-metadata" | "server-metadata" | "authorize" | "token" | "register" | "jwks";

/**
 * One request the authorization side answered.
 *
 * @example
 * ```ts
 * import { McpMock, type AuthEvent } from "mcpmock";
 * await using mock = await McpMock.start({ auth: true });
 * // ... a client calls without a token, then authorizes ...
 * const refused: AuthEvent[] = mock.auth.requests({ endpoint: "mcp", status: 401 });
 * for (const e of refused) console.log(e.seq, e.method, e.path, e.outcome); // 1 POST /mcp missing-token
 * ```
 * @category Authorization
 */
export interface AuthEvent {
  /** 1, 2, 3...: arrival order. */
  readonly seq: number;
  /** Milliseconds since the epoch. */
  readonly at: number;
  /** The endpoint. */
  readonly endpoint: AuthEndpoint;
  /** The HTTP method. */
  readonly method: string;
  /** The request path. */
  readonly path: string;
  /** The HTTP status answered (for the MCP endpoint, a passed request says 200 and goes on to the mock). */
  readonly status: number;
  /**
   * What happened: `"ok"` (passed, or the endpoint answered), or the refusal:
   * `"missing-token"`, `"token-in-query"`, `"other-scheme"` (not Bearer), `"malformed-header"`, `"unknown-token"`, `"expired-token"`,
   * `"revoked-token"`, `"wrong-audience"`, `"insufficient-scope"`; with `auth.dpop` also
   * `"invalid_dpop_proof"`, `"dpop-proof-replayed"`, `"use_dpop_nonce"` (a nonce demanded),
   * `"dpop-unbound-token"`, `"dpop-key-mismatch"`, `"dpop-token-as-bearer"`, `"dpop-required"`; at the
   * authorization server the OAuth error code (`"invalid_grant"`, `"access_denied"`...).
   */
  readonly outcome: string;
  /** The token presented or issued, by id (`"token-3"`). */
  readonly tokenId?: string;
  /** The token's scopes (or the scopes granted). */
  readonly scopes?: readonly string[];
  /** The token's subject. */
  readonly subject?: string;
  /** The client, where known. */
  readonly clientId?: string;
  /** At `/token`: the `grant_type`. */
  readonly grantType?: string;
  /** What was wrong, for a refusal. */
  readonly description?: string;
  /**
   * With `auth.dpop`: the JWK thumbprint of the key whose DPoP proof came with the request and
   * passed (form, signature, freshness and nonce); the token issued or presented is bound to it.
   */
  readonly dpopJkt?: string;
}

/**
 * A pattern over {@link AuthEvent}s: every field given must be equal (`scopes`: the same set).
 *
 * @example
 * ```ts
 * import { McpMock, type AuthEventPattern } from "mcpmock";
 * await using mock = await McpMock.start({ auth: true });
 * const refreshed: AuthEventPattern = { endpoint: "token", grantType: "refresh_token", status: 200 };
 * // ... a client refreshes its token ...
 * mock.auth.requests(refreshed); // the matching events; mock.auth.verify(refreshed, 1) throws unless there is exactly one
 * ```
 * @category Authorization
 */
export type AuthEventPattern = Partial<Omit<AuthEvent, "seq" | "at">>;

/** Events kept at most, and bytes of them (a refusal's description may quote 64 KiB of a client's form). */
const MAX_EVENTS = 10_000;
const MAX_EVENT_BYTES = 16 * 1024 * 1024;

function matches(event: AuthEvent, pattern: AuthEventPattern): boolean {
  for (const [key, want] of Object.entries(pattern)) {
    if (want === undefined) continue;
    const got = (event as unknown as Record<string, unknown>)[key];
    if (Array.isArray(want)) {
      if (!Array.isArray(got) || got.length !== want.length || !want.every((w) => got.includes(w))) return false;
    } else if (got !== want) return false;
  }
  return true;
}

function show(event: AuthEvent): string {
  const parts = [`#${event.seq} ${event.method} ${event.path} -> ${event.status} ${event.outcome}`];
  if (event.tokenId) parts.push(`token ${event.tokenId}`);
  if (event.grantType) parts.push(`grant ${event.grantType}`);
  if (event.scopes) parts.push(`scopes [${event.scopes.join(" ")}]`);
  return parts.join(", ");
}

/** The event log, bounded by count and by bytes (the oldest go first). */
export class AuthLog {
  readonly #events = new BoundedMap<number, AuthEvent>(MAX_EVENTS, MAX_EVENT_BYTES);
  #seq = 0;

  /** Records an event. */
  add(event: Omit<AuthEvent, "seq" | "at">): void {
    const seq = ++this.#seq;
    this.#events.set(seq, { seq, at: Date.now(), ...event });
  }

  /** Events matching `pattern` (all without one), oldest first. */
  find(pattern: AuthEventPattern = {}): AuthEvent[] {
    return [...this.#events.values()].filter((e) => matches(e, pattern));
  }

  /** Throws unless `pattern` matched at least once, or exactly `count` times; the message lists what was seen. */
  verify(pattern: AuthEventPattern, count?: number): void {
    const n = this.find(pattern).length;
    if (count === undefined ? n > 0 : n === count) return;
    const want = count === undefined ? "at least once" : `exactly ${count} time${count === 1 ? "" : "s"}`;
    const seen = this.#events.size === 0 ? "  (no authorization requests at all)" : [...this.#events.values()].slice(-20).map((e) => `  ${show(e)}`).join("\n");
    throw new McpMockError(`Expected an authorization request matching ${JSON.stringify(pattern)} ${want}, but it was seen ${n} time${n === 1 ? "" : "s"}. Seen (latest 20):\n${seen}`);
  }

  /** Forgets every event. */
  clear(): void {
    this.#events.clear();
  }
}
