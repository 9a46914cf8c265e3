/**
 * The one credentials rule for upstreams, shared by record, check and proxy mode: which values
 * are secrets (a value given in `headers` or `env` that looks like one, a URL's password, the
 * `Authorization: Basic ...` made from them, a credential header a client sends through the
 * recorder), and how they are kept out of everything the mock writes or shows (files, the
 * journal, logs, the inspector, the live feed, error messages): each reads `[redacted]`. What a
 * client receives from the upstream is never changed.
 *
 * A value is judged by its name and its shape: `true`, `8080`, `/tmp/data.json` (a path of
 * names, not a base64 key that starts with a slash) or a value shorter than four characters is
 * never a secret (replacing it would mangle everything shown);
 * a value under a credential-like name (`Authorization`, `API_KEY`, `*_TOKEN`, `Cookie`, ...)
 * is one; under any other name, a value is one when it looks like a token (a long run of
 * letters and digits without spaces), so `X-Tenant: acme` stays visible.
 * @module
 */

/** What a credential becomes. */
export const REDACTED = "[redacted]";

/** Shorter values are too common to replace (`"1"`, `"on"`). */
export const MIN_SECRET_LENGTH = 4;

/** Names whose values are credentials. */
const CREDENTIAL_NAME = /auth|token|secret|passw|pwd|passphrase|credential|cookie|session|api[-_]?key|access[-_]?key|private|signature|bearer|(^|[-_])key($|[-_])|^key$/i;

/** Values that are never secrets whatever their name: booleans, numbers, file paths. */
function plainValue(value: string): boolean {
  const v = value.trim();
  if (v.length < MIN_SECRET_LENGTH) return true;
  if (/^(true|false|yes|no|on|off|null|none|undefined)$/i.test(v)) return true;
  if (/^[-+]?\d+(\.\d+)?$/.test(v)) return true;
  // A path: absolute, relative, home, or a Windows drive (a token with a slash inside is not one),
  // its parts names, not tokens: a base64 key may start with a slash (`/K7MDENG/bPxRfiCY...`).
  if (/^(\/|\.\.?[\\/]|~[\\/]|[A-Za-z]:[\\/])/.test(v) && !/\s/.test(v) && !v.split(/[\\/]/).some(tokenPart)) return true;
  return false;
}

/** Whether a part of a path-like value is a run of a token rather than a name: 8 or more characters, no dot, letters mixed with digits (or both cases, or `+`, `=`). */
function tokenPart(part: string): boolean {
  if (part.length < 8 || !/^[\w\-+=~]+$/.test(part)) return false;
  return (/\d/.test(part) && /[A-Za-z]/.test(part)) || /[+=]/.test(part) || (part.length >= 12 && /[a-z]/.test(part) && /[A-Z]/.test(part));
}

/** Whether a value looks like a token by its shape alone: a long run of letters and digits (both), no spaces. */
function tokenShaped(value: string): boolean {
  return value.length >= 16 && /^[\w\-.~+/=:]+$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value);
}

/**
 * Whether a value given under a name (a header's or an environment variable's) is a secret.
 *
 * @example
 * ```ts
 * isSecret("API_KEY", "sk-live-0123") // true
 * isSecret("X-Tenant", "acme")         // false
 * isSecret("DEBUG", "true")            // false
 * ```
 */
export function isSecret(name: string, value: string): boolean {
  if (plainValue(value)) return false;
  return CREDENTIAL_NAME.test(name) || tokenShaped(value.trim());
}

/**
 * The names among `given` (headers or environment variables) that name a credential while its
 * value (after a scheme, the token: `Bearer ab`) is shorter than four characters, which the rule
 * never replaces: it is shown as given wherever mcpmock writes or shows it, which the user is
 * told of when giving it. A boolean (`AUTH=on`), a number (`TOKEN_TTL=3600`) or a path
 * (`GOOGLE_APPLICATION_CREDENTIALS=/keys/a.json`) under such a name is most likely no secret, and
 * is left without a word.
 */
export function shortCredentialNames(given: Readonly<Record<string, string>>): string[] {
  const short = (value: string): boolean => {
    const v = value.trim();
    return v.length > 0 && v.length < MIN_SECRET_LENGTH && !/^(yes|no|on|off|\d+)$/i.test(v);
  };
  return Object.entries(given)
    .filter(([name, value]) => CREDENTIAL_NAME.test(name) && (short(value) || short(/^\s*\w+\s+(\S+)\s*$/.exec(value)?.[1] ?? "")))
    .map(([name]) => name);
}

/** The values of a credential header value that must never be shown: the value, its token after a scheme, a Basic pair's parts, a cookie's values. */
function headerValueSecrets(value: string): string[] {
  const found = [value, value.trim()];
  const scheme = /^\s*(\w+)\s+(\S+)\s*$/.exec(value); // "Bearer abc" → "abc"
  if (scheme?.[2]) {
    found.push(scheme[2]);
    if (scheme[1]!.toLowerCase() === "basic") {
      const pair = Buffer.from(scheme[2], "base64").toString("utf8");
      const at = pair.indexOf(":");
      if (at > 0 && /^[\x20-\x7e]+$/.test(pair)) found.push(pair, pair.slice(at + 1), ...(tokenShaped(pair.slice(0, at)) ? [pair.slice(0, at)] : []));
    }
  }
  if (value.includes("=") && !scheme) {
    for (const part of value.split(";")) {
      const v = part.split("=").slice(1).join("=").trim(); // cookie values
      if (v && !plainValue(v)) found.push(v);
    }
  }
  return found;
}

/**
 * The secrets among headers (given for an upstream, or sent by a client through the recorder):
 * the values of those that are secrets by {@link isSecret}, with the token after a scheme
 * (`Bearer abc` → `abc`) and a Basic pair's password.
 */
export function headerSecrets(headers: Readonly<Record<string, string>> | Headers | undefined): string[] {
  const found: string[] = [];
  const each = (value: string, name: string): void => {
    if (name.toLowerCase() === "mcp-session-id" || !isSecret(name, value)) return;
    found.push(...headerValueSecrets(value));
  };
  if (headers instanceof Headers) headers.forEach(each);
  else for (const [name, value] of Object.entries(headers ?? {})) each(value, name);
  return found;
}

/** The secrets of environment variables given for a stdio upstream: the values that are secrets by {@link isSecret}. */
export function envSecrets(env: Readonly<Record<string, string>> | undefined): string[] {
  return Object.entries(env ?? {}).filter(([name, value]) => isSecret(name, value)).map(([, value]) => value);
}

/** The `Authorization: Basic ...` value made from a URL's user and password (undefined without them). */
export function basicAuthorization(url: URL): string | undefined {
  if (url.username === "" && url.password === "") return undefined;
  return `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`;
}

/** The secrets of a URL: its query parameters that are secrets; of its user information, the password (as written and decoded), the Basic value made from it, a token-shaped user name. */
export function urlSecrets(url: URL): string[] {
  // A query parameter that is a secret (`?api_key=...`).
  const query = [...url.searchParams].filter(([name, value]) => isSecret(name, value)).map(([, value]) => value);
  const basic = basicAuthorization(url);
  if (basic === undefined) return query;
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  const found = [...query, basic, basic.slice("Basic ".length), `${user}:${password}`, `${url.username}:${url.password}`, url.password, password];
  // A token given as the user name (https://TOKEN@host) is one; a plain user name ("admin") is not.
  if (tokenShaped(user) || (password === "" && !plainValue(user))) found.push(user, url.username);
  return found;
}

/** Where an upstream is and its credentials, as record, check and proxy take them. */
export type CredentialedTarget = { readonly target: string; readonly headers?: Readonly<Record<string, string>> } | { readonly command: string; readonly env?: Readonly<Record<string, string>> };

/**
 * The secrets of an upstream, longest first (so a value inside another is replaced after it):
 * its URL's user information and its headers, or its command's `env`.
 */
export function secretsOf(target: CredentialedTarget): string[] {
  const found: string[] = [];
  if ("target" in target) {
    if (URL.canParse(target.target)) found.push(...urlSecrets(new URL(target.target)));
    found.push(...headerSecrets(target.headers));
  } else found.push(...envSecrets(target.env));
  return orderedSecrets(found);
}

/** A character as a JSON `\u` escape, in lower-case hex (JSON.stringify, Python, Go, PHP) or upper-case (Jackson, .NET). */
function unicodeEscape(upper: boolean): (c: string) => string {
  return (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, "0");
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  };
}

/**
 * The forms a secret takes inside a JSON string, as the servers' JSON writers write it (a text
 * that is JSON, such as a tool's answer of its headers, keeps them): quotes and backslashes
 * escaped (all of them); and `/` as `\/` (PHP), any non-ASCII character as `\u00e4`
 * (Python, PHP), `<`, `>` and `&` as `\u003c` (Go) and `'`, `+` and a backtick too (.NET, whose
 * `\u002B` a base64 token meets), in either case of hex.
 */
function jsonForms(value: string): Set<string> {
  const plain = JSON.stringify(value).slice(1, -1);
  const forms = new Set([plain]);
  if (!/[/<>&'+`\u2028\u2029]|[^\x00-\x7f]|\\u/.test(plain)) return forms;
  for (const upper of [false, true]) {
    const escape = unicodeEscape(upper);
    const cased = upper ? plain.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`) : plain;
    for (const slash of [false, true]) {
      for (const ascii of [false, true]) {
        for (const html of [undefined, /[<>&\u2028\u2029]/g, /[<>&'+`\u2028\u2029]/g]) {
          let form = cased;
          if (slash) form = form.replace(/\//g, "\\/");
          if (ascii) form = form.replace(/[^\x00-\x7f]/g, escape);
          if (html) form = form.replace(html, escape);
          forms.add(form);
        }
      }
    }
  }
  return forms;
}

/** Secrets without duplicates or too-short ones, longest first: each as given, as JSON writers write it inside a string, and as a URL carries it. */
export function orderedSecrets(values: Iterable<string>): string[] {
  const found = new Set<string>();
  for (const value of values) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    found.add(value);
    for (const form of jsonForms(value)) found.add(form);
    // Percent-encoded in a path or query (encodeURIComponent), and as a form encodes it (a space as `+`).
    found.add(encodeURIComponent(value));
    found.add(new URLSearchParams([["", value]]).toString().slice(1));
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** A text with every secret in it replaced by `[redacted]`. */
export function redactText(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * A value with every secret inside its strings (and object keys) replaced. Whatever holds no
 * secret is the same value (an object or array a copy only when something inside it changed),
 * so `scrubbed(v, s) === v` says that `v` holds no secret.
 */
export function scrubbed<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redactText(v, secrets);
    if (v === null || typeof v !== "object") return v;
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const x = walk(v[i]);
        if (x !== v[i]) (copy ??= [...v])[i] = x;
      }
      return copy ?? v;
    }
    const entries = Object.entries(v);
    let changed = false;
    const shown = entries.map(([k, x]): [string, unknown] => {
      const key = redactText(k, secrets);
      const inner = walk(x);
      if (key !== k || inner !== x) changed = true;
      return [key, inner];
    });
    return changed ? Object.fromEntries(shown) : v;
  };
  return walk(value) as T;
}

/** A redactor for one upstream: what the mock shows of a value or a text. */
export interface Redactor {
  /** The secrets it replaces, longest first. */
  readonly secrets: readonly string[];
  /** A value with its secrets replaced. */
  value<T>(value: T): T;
  /** A text with its secrets replaced. */
  text(text: string): string;
  /** One more secret, learnt later (an OAuth token the provider handed out). */
  add(secret: string): void;
}

/** The redactor of a list of secrets. */
export function redactor(secrets: readonly string[]): Redactor {
  let list = orderedSecrets(secrets);
  return {
    get secrets() {
      return list;
    },
    value: (v) => scrubbed(v, list),
    text: (t) => redactText(t, list),
    add: (secret) => {
      if (!list.includes(secret)) list = orderedSecrets([...list, secret]);
    },
  };
}
