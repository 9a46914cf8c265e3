/**
 * `--header "Name: value"` and `--env NAME=value` (both repeatable) on `record`, `check` and
 * `serve --proxy`: the credentials an upstream needs, parsed the same way for all three, each
 * mistake named with the form to use. `--env NAME` alone passes on the value of NAME in
 * mcpmock's own environment (which a stdio upstream does not otherwise get).
 * @module
 */
import { UsageError } from "./command.js";
import { shownTarget } from "../proxy-target.js";
import { MIN_SECRET_LENGTH, shortCredentialNames } from "../upstream/secrets.js";

/** The help lines of the two options, for the three commands' help. */
export const CREDENTIAL_HELP = `  --header "NAME: VALUE"
                    a header sent with every request to an HTTP server, e.g.
                    --header "Authorization: Bearer $TOKEN" (repeatable)
  --env NAME=VALUE  an environment variable for a stdio server, e.g. --env API_KEY=$KEY;
                    --env NAME alone passes on mcpmock's own NAME (repeatable). A stdio server
                    gets the SDK's default environment (HOME, PATH, ...) plus these, not all of
                    mcpmock's. A secret-looking value given here never reaches a file, the
                    journal, a log or a message: it reads [redacted].`;

/** An environment variable name a shell can set. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A header name as HTTP allows it. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Parses `--header` values into headers (a name given twice: the last value). */
export function headerOptions(values: readonly string[] | undefined): Record<string, string> | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const text of values) {
    const at = text.indexOf(":");
    const name = at < 0 ? "" : text.slice(0, at).trim();
    // Never the value in the message: it may be a secret.
    if (at < 0) throw new UsageError(`--header takes "Name: value" with a colon, like --header "Authorization: Bearer <token>"; received one without a colon${/^[\w-]+=/.test(text) ? ` (${text.split("=")[0]}=... is the form of --env)` : ""}.`);
    if (!HEADER_NAME.test(name)) throw new UsageError(`--header: ${JSON.stringify(name)} is not a header name (letters, digits and -), like --header "X-Api-Key: <key>".`);
    const value = text.slice(at + 1).trim();
    if (value === "") throw new UsageError(`--header "${name}:" has no value: give it as --header "${name}: <value>" (quoted for the shell; an unset shell variable gives an empty value).`);
    headers[name] = value;
  }
  return headers;
}

/** Parses `--env` values into variables; `NAME` alone takes NAME from `environment` (mcpmock's own). */
export function envOptions(values: readonly string[] | undefined, environment: NodeJS.ProcessEnv = process.env): Record<string, string> | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const env: Record<string, string> = {};
  for (const text of values) {
    const at = text.indexOf("=");
    const name = at < 0 ? text : text.slice(0, at);
    if (!ENV_NAME.test(name)) throw new UsageError(`--env takes NAME=value (or NAME alone, to pass on mcpmock's own), like --env API_KEY=<key>; ${JSON.stringify(name)} is not a variable name (letters, digits and _, not starting with a digit)${name.includes(":") ? `; "Name: value" is the form of --header` : ""}.`);
    if (at >= 0) env[name] = text.slice(at + 1);
    else {
      const own = environment[name];
      if (own === undefined) throw new UsageError(`--env ${name} passes on mcpmock's own ${name}, but it is not set: set it, or give the value as --env ${name}=<value>.`);
      env[name] = own;
    }
  }
  return env;
}

/** The credentials of a command line for its upstream: `--header` for a URL, `--env` for a command; the other one is a mistake. */
export function credentialOptions(values: { readonly header?: readonly string[] | undefined; readonly env?: readonly string[] | undefined }, http: boolean, command: string): { headers?: Record<string, string>; env?: Record<string, string> } {
  const headers = headerOptions(values.header);
  const env = envOptions(values.env);
  if (http && env !== undefined) throw new UsageError(`mcpmock ${command}: --env sets a stdio server's environment; an HTTP server takes --header "Name: value".`);
  if (!http && headers !== undefined) throw new UsageError(`mcpmock ${command}: --header is sent to an HTTP server; a stdio server takes --env NAME=value.`);
  for (const warning of shortCredentialWarnings(headers, env)) process.stderr.write(`${warning}\n`);
  return { ...(headers === undefined ? {} : { headers }), ...(env === undefined ? {} : { env }) };
}

/**
 * A warning for each credential too short for the redaction rule (its value never printed): the
 * user gave it as a secret, and it is shown wherever mcpmock writes or shows what passes.
 */
export function shortCredentialWarnings(headers: Readonly<Record<string, string>> | undefined, env: Readonly<Record<string, string>> | undefined): string[] {
  const given = [...shortCredentialNames(headers ?? {}).map((name) => `--header "${name}: ..."`), ...shortCredentialNames(env ?? {}).map((name) => `--env ${name}=...`)];
  return given.map((option) => `mcpmock: warning: the value of ${option} is shorter than ${MIN_SECRET_LENGTH} characters, which mcpmock never redacts (it would mangle everything shown): where the upstream echoes it, recordings, the journal and messages show it as given. If it is a secret, give a longer one for tests.`);
}

/** A `--target` or `--proxy` URL as a usage error shows it: without user information or query (credentials), saying so when they were there. */
export function shownAs(url: string): string {
  const shown = shownTarget(url);
  return shown === url ? shown : `${shown} (shown without its user information or query)`;
}
