/**
 * Who an MCP request speaks for, with `auth`: the client and user its bearer token was issued
 * to, what sessions and tasks are bound to. The bearer check derives it once per request and
 * keeps it on the request's context; the transports read it there.
 * @module
 */
import type { Context } from "hono";
import type { IssuedToken } from "./tokens.js";

/** Where the principal is kept on a request's context. */
const PRINCIPAL = "mcpmock.principal";

/**
 * The principal of a live access token: the client and user it was issued to (so a refreshed
 * token is the same one); a token issued without a client is a client of its own.
 */
export function principalOfToken(token: IssuedToken): string {
  return token.clientId === undefined ? `token ${token.id}` : `client ${token.clientId} user ${token.subject}`;
}

/** Keeps the principal of the token a request passed the bearer check with. */
export function setRequestPrincipal(c: Context, token: IssuedToken | undefined): void {
  c.set(PRINCIPAL, token === undefined ? undefined : principalOfToken(token));
}

/** The principal the bearer check found for this request; `undefined` without `auth` (or a token). */
export function requestPrincipal(c: Context): string | undefined {
  return c.get(PRINCIPAL) as string | undefined;
}
