/**
 * The upstream's credentials (its headers' values, a URL's user and password, the command's
 * `env` values), kept out of every answer a client, the journal or a snapshot sees: a server
 * that echoes one (a debugging tool that lists its environment) shows `[redacted]`.
 * @module
 */
import type { ProxyTarget } from "../proxy-target.js";

/** What a credential becomes. */
export const REDACTED = "[redacted]";

/** Shorter values are too common to replace (`"1"`, `"true"`). */
export const MIN_SECRET_LENGTH = 4;

/** The credential values of a target, longest first (so a value inside another is replaced after it). */
export function secretsOf(target: ProxyTarget): string[] {
  const found: string[] = [];
  if ("target" in target) {
    const url = new URL(target.target);
    found.push(decodeURIComponent(url.password), decodeURIComponent(url.username));
    for (const value of Object.values(target.headers ?? {})) {
      found.push(value);
      const scheme = /^\s*\w+\s+(.+)$/.exec(value); // "Bearer abc" → "abc"
      if (scheme?.[1]) found.push(scheme[1].trim());
    }
  } else found.push(...Object.values(target.env ?? {}));
  return [...new Set(found.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
}

/** A value with every secret inside its strings replaced (the same value when there is none). */
export function scrubbed<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return secrets.some((s) => v.includes(s)) ? secrets.reduce((text, s) => text.split(s).join(REDACTED), v) : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object") return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
  };
  return walk(value) as T;
}
