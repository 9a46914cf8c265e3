/**
 * URL-mode elicitation (SEP-1036, 2025-11-25; in 2026-07-28 an input request like any
 * other): the `elicitation/create` request with `mode: "url"` and an `elicitationId`, the
 * `notifications/elicitation/complete` that says it is done, and the `-32042`
 * URL-elicitation-required error whose `data.elicitations` lists what the user must open.
 * @module
 */
import { randomUUID } from "node:crypto";
import { McpMockError, showValue } from "../values/errors.js";
import { isJsonObject } from "../values/json-value.js";

/** The JSON-RPC code of "this request needs the user to open a URL first". */
export const URL_ELICITATION_REQUIRED = -32042;
/** The notification that tells the client a URL elicitation is complete. */
export const ELICITATION_COMPLETE = "notifications/elicitation/complete";

/**
 * A URL the client's user is sent to (SEP-1036): what to tell them, where to go, and the id
 * that `notifications/elicitation/complete` names later (a fresh UUID when not given).
 *
 * @example
 * ```ts
 * import type { UrlElicitation } from "mcpmock";
 * const login: UrlElicitation = { message: "Sign in to Example", url: "https://example.com/login", elicitationId: "login-1" };
 * ```
 * @category Streams
 */
export interface UrlElicitation {
  /** Why the user should open it, shown by the client. */
  readonly message: string;
  /** The URL to open (`https:` or `http:`). */
  readonly url: string;
  /** The id the completion notification names; a fresh UUID when omitted. */
  readonly elicitationId?: string;
}

/** The params of a URL-mode `elicitation/create` (also an entry of `-32042`'s `data.elicitations`), checked. */
export function urlElicitationParams(input: UrlElicitation, where: string): { mode: "url"; message: string; url: string; elicitationId: string } {
  const example = '{ message: "Sign in", url: "https://example.com/login", elicitationId: "login-1" }';
  if (!isJsonObject(input)) throw new McpMockError(`${where} takes ${example}, received ${showValue(input)}.`);
  if (typeof input.message !== "string") throw new McpMockError(`${where}: message must be a string (what the user is told), like ${example}.`);
  let ok = typeof input.url === "string";
  try {
    ok &&= ["http:", "https:"].includes(new URL(input.url).protocol);
  } catch {
    ok = false;
  }
  if (!ok) throw new McpMockError(`${where}: url must be an absolute http(s) URL, received ${showValue(input.url)}.`);
  if (input.elicitationId !== undefined && (typeof input.elicitationId !== "string" || input.elicitationId === "")) throw new McpMockError(`${where}: elicitationId must be a non-empty string, received ${showValue(input.elicitationId)}.`);
  return { mode: "url", message: input.message, url: input.url, elicitationId: input.elicitationId ?? randomUUID() };
}

/** The `data` of a `-32042` error: the URL elicitations the client must complete before retrying. */
export function urlElicitationRequiredData(elicitations: UrlElicitation | readonly UrlElicitation[], where: string): { elicitations: ReturnType<typeof urlElicitationParams>[] } {
  const list = Array.isArray(elicitations) ? (elicitations as readonly UrlElicitation[]) : [elicitations as UrlElicitation];
  if (list.length === 0) throw new McpMockError(`${where} needs at least one elicitation, like { message: "Sign in", url: "https://example.com/login" }.`);
  return { elicitations: list.map((e, i) => urlElicitationParams(e, `${where}[${i}]`)) };
}

/** The message of a `-32042` error (the SDK's). */
export function urlElicitationRequiredMessage(count: number): string {
  return `URL elicitation${count > 1 ? "s" : ""} required`;
}
