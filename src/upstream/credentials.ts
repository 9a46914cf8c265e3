/**
 * The credentials an upstream is given (`headers` for an HTTP target, `env` for a command),
 * checked where they are given: each mistake named with its fix, all at once.
 * @module
 */
import { FRAMING } from "./connections.js";

/** A header name as HTTP allows it (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** An environment variable name a shell can set. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The problems of the `headers` and `env` of a target given to `where` (`"record"`, `"checkDefinition"`, `"proxy"`); empty: they are good. */
export function credentialProblems(target: { readonly headers?: unknown; readonly env?: unknown }, where: string): string[] {
  const problems: string[] = [];
  const record = (field: string, value: unknown): [string, unknown][] | undefined => {
    if (value === undefined) return undefined;
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      problems.push(`${where}({ ${field} }) takes an object of strings, like ${field === "headers" ? '{ authorization: "Bearer ..." }' : '{ API_KEY: "..." }'}; received ${Array.isArray(value) ? "an array" : JSON.stringify(value)}.`);
      return undefined;
    }
    return Object.entries(value);
  };
  for (const [name, value] of record("headers", target.headers) ?? []) {
    if (!HEADER_NAME.test(name)) problems.push(`${where}({ headers }): ${JSON.stringify(name)} is not a header name (letters, digits and -, no spaces or colon), like "authorization".`);
    else if (FRAMING.has(name.toLowerCase())) problems.push(`${where}({ headers }): "${name}" is set by the connection to the upstream (it frames each request itself); leave it out.`);
    else if (typeof value !== "string") problems.push(`${where}({ headers }): the value of "${name}" must be a string, received ${typeof value}.`);
    else if (/[\r\n\0]/.test(value)) problems.push(`${where}({ headers }): the value of "${name}" holds a line break or NUL, which no header may; give it on one line.`);
  }
  for (const [name, value] of record("env", target.env) ?? []) {
    if (!ENV_NAME.test(name)) problems.push(`${where}({ env }): ${JSON.stringify(name)} is not an environment variable name (letters, digits and _, not starting with a digit), like "API_KEY".`);
    else if (typeof value !== "string") problems.push(`${where}({ env }): the value of ${name} must be a string, received ${typeof value}${typeof value === "number" || typeof value === "boolean" ? ` (write "${String(value)}")` : ""}.`);
    else if (value.includes("\0")) problems.push(`${where}({ env }): the value of ${name} holds a NUL character, which no environment variable may.`);
  }
  return problems;
}
