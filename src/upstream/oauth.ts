/**
 * An upstream reached through an OAuth client provider (the SDK's `OAuthClientProvider`): its
 * access tokens are sent as `Authorization: Bearer ...`, refreshed or obtained again by the
 * SDK's `auth()` when the server answers 401, and each token it hands out joins the secrets
 * the mock never shows.
 * @module
 */
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { ProxyTarget } from "../engine/proxy-target.js";
import type { Redactor } from "./secrets.js";

/** A target whose OAuth provider (if it has one) reports its tokens to the redactor. */
export function withWatchedProvider<T extends ProxyTarget>(target: T, redact: Redactor): T {
  if (!("target" in target) || target.authProvider === undefined) return target;
  return { ...target, authProvider: watchedProvider(target.authProvider, (s) => redact.add(s)) };
}

/**
 * The provider with every access and refresh token it returns reported to `secret` (so a
 * server that echoes one shows `[redacted]` wherever the mock writes or shows it).
 */
export function watchedProvider(provider: OAuthClientProvider, secret: (value: string) => void): OAuthClientProvider {
  return new Proxy(provider, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== "function") return value;
      if (key !== "tokens" && key !== "saveTokens") return value.bind(target);
      return (...args: unknown[]) => {
        const note = (tokens: unknown): void => {
          const t = tokens as { access_token?: unknown; refresh_token?: unknown } | undefined;
          if (typeof t?.access_token === "string") secret(t.access_token);
          if (typeof t?.refresh_token === "string") secret(t.refresh_token);
        };
        if (key === "saveTokens") note(args[0]);
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (result instanceof Promise) return result.then((r) => (note(r), r));
        note(result);
        return result;
      };
    },
  });
}

/**
 * The `Authorization` value to send to `serverUrl` with the provider's token; `renew`: the
 * server refused the last one (401), so the SDK's `auth()` refreshes it or obtains a new one
 * first. Undefined when the provider has no token (its user must authorize first).
 */
export async function bearerFor(provider: OAuthClientProvider, serverUrl: URL, renew: boolean): Promise<string | undefined> {
  if (renew || (await provider.tokens()) === undefined) {
    const result = await auth(provider, { serverUrl }).catch(() => "FAILED" as const);
    if (result !== "AUTHORIZED") return undefined;
  }
  const tokens = await provider.tokens();
  return tokens?.access_token === undefined ? undefined : `Bearer ${tokens.access_token}`;
}
