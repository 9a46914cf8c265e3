/**
 * A pattern over the `Authorization` header that matches a bearer token by what it grants,
 * not by its text: `withHeader("authorization", mock.auth.tokenWith({ scopes: ["write"] }))`.
 * It is a `RegExp` (the header matcher's pattern kind) whose test looks the token up.
 * @module
 */
import type { IssuedToken, TokenStore } from "./tokens.js";

/**
 * What `mock.auth.tokenWith()` requires of the token a request carries.
 *
 * @example
 * ```ts
 * import { McpMock, type TokenRequirements } from "mcpmock";
 * await using mock = await McpMock.start({ auth: { scopes: ["read", "write"] }, tools: [{ name: "delete", inputSchema: { type: "object" } }] });
 * const admin: TokenRequirements = { scopes: ["write"], subject: "ada" };
 * mock.toolsCall("delete").respondsWith("not allowed", { isError: true });
 * mock.toolsCall("delete").withHeader("authorization", mock.auth.tokenWith(admin)).respondsWith("deleted");
 * ```
 * @category Authorization
 */
export interface TokenRequirements {
  /** The token holds every one of these scopes (and maybe more). */
  readonly scopes?: readonly string[];
  /** The token's subject is this one. */
  readonly subject?: string;
  /** The token was issued to this client. */
  readonly clientId?: string;
}

/** The token an `Authorization` header presents (the Bearer or the DPoP scheme), unchecked; `undefined` without one. */
export function presentedToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : /^(?:Bearer|DPoP) +(\S+) *$/i.exec(header)?.[1];
}

/** Matches `Authorization: Bearer <token>` when the token is a live access token meeting the requirements. */
export class TokenPattern extends RegExp {
  readonly #tokens: TokenStore;
  readonly #wants: TokenRequirements;

  constructor(tokens: TokenStore, wants: TokenRequirements) {
    super("(?:)");
    this.#tokens = tokens;
    this.#wants = wants;
  }

  /** Whether `header` carries such a token. */
  override test(header: string): boolean {
    const presented = presentedToken(header);
    const token = presented === undefined ? "unknown" : this.#tokens.check(presented, "access");
    return typeof token !== "string" && meets(token, this.#wants);
  }

  /** How stub sentences and reports show it. */
  override toString(): string {
    const parts: string[] = [];
    if (this.#wants.scopes?.length) parts.push(`scopes ${this.#wants.scopes.join(" ")}`);
    if (this.#wants.subject !== undefined) parts.push(`subject ${JSON.stringify(this.#wants.subject)}`);
    if (this.#wants.clientId !== undefined) parts.push(`client ${JSON.stringify(this.#wants.clientId)}`);
    return `a bearer token${parts.length > 0 ? ` with ${parts.join(", ")}` : ""}`;
  }
}

function meets(token: IssuedToken, wants: TokenRequirements): boolean {
  if (wants.scopes && !wants.scopes.every((s) => token.scopes.includes(s))) return false;
  if (wants.subject !== undefined && token.subject !== wants.subject) return false;
  return wants.clientId === undefined || token.clientId === wants.clientId;
}
