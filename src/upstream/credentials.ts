/**
 * The credentials an upstream is given (`headers` for an HTTP target, `env` for a command),
 * checked where they are given: each mistake named with its fix, all at once.
 * @module
 */
import { CONNECTION_HEADERS, HEADER_BREAKS, HEADER_NAME } from "./http-headers.js";

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
    else if (CONNECTION_HEADERS.has(name.toLowerCase())) problems.push(`${where}({ headers }): "${name}" belongs to the connection to the upstream, which mcpmock opens and frames itself; leave it out.`);
    else if (typeof value !== "string") problems.push(`${where}({ headers }): the value of "${name}" must be a string, received ${typeof value}.`);
    else if (HEADER_BREAKS.test(value)) problems.push(`${where}({ headers }): the value of "${name}" holds a line break or NUL, which no header may; give it on one line.`);
  }
  for (const [name, value] of record("env", target.env) ?? []) {
    if (!ENV_NAME.test(name)) problems.push(`${where}({ env }): ${JSON.stringify(name)} is not an environment variable name (letters, digits and _, not starting with a digit), like "API_KEY".`);
    else if (typeof value !== "string") problems.push(`${where}({ env }): the value of ${name} must be a string, received ${typeof value}${typeof value === "number" || typeof value === "boolean" ? ` (write "${String(value)}")` : ""}.`);
    else if (value.includes("\0")) problems.push(`${where}({ env }): the value of ${name} holds a NUL character, which no environment variable may.`);
  }
  return problems;
}
