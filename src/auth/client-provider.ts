/**
 * `mock.auth.clientProvider()`: an `OAuthClientProvider` (the SDK's interface) that completes
 * the embedded authorization server's flow by itself. To the SDK it is a non-interactive
 * provider (no `redirectUrl`), so the client's own code discovers the server, registers, and
 * asks for the token in one connect; `prepareTokenRequest` plays the browser: a real GET of
 * the authorization endpoint the server's metadata names, with PKCE and `resource`, the code read
 * from the redirect.
 * @module
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { AuthorizationServerMetadata, OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { McpMockError } from "../values/errors.js";
import { randomToken, s256 } from "./tokens.js";

/** Where the authorization server sends the "browser" back; never fetched (the code is read from the redirect). */
const REDIRECT_URI = "http://127.0.0.1/mcpmock-oauth-callback";

/**
 * The SDK this provider needs: 1.24.0 completes a flow without a `redirectUrl` through
 * `prepareTokenRequest`; 1.27.0 hands the provider the authorization server's metadata
 * (`saveDiscoveryState`), where the authorization endpoint is read.
 */
const SDK_NEEDED = "@modelcontextprotocol/sdk 1.27.0 or later";

/** How long a second refresh waits for the one in flight at most. */
const REFRESH_WAIT_MS = 10_000;

/**
 * Options of `mock.auth.clientProvider()`.
 *
 * @example
 * ```ts
 * import { McpMock, type ClientProviderOptions } from "mcpmock";
 * import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
 * await using mock = await McpMock.start({ auth: { scopes: ["read", "write"], required: ["read"] } });
 * const options: ClientProviderOptions = { scope: "read write", clientName: "my app" };
 * const transport = new StreamableHTTPClientTransport(new URL(mock.url), { authProvider: mock.auth.clientProvider(options) });
 * ```
 * @category Authorization
 */
export interface ClientProviderOptions {
  /** The scopes to ask for, space-separated (`"read write"`); by default the client asks for none and gets the required ones. */
  readonly scope?: string;
  /** The `client_name` it registers with; `"mcpmock test client"` by default. */
  readonly clientName?: string;
}

/**
 * An `OAuthClientProvider` that completes the mock's OAuth flow by itself: pass it as a
 * transport's `authProvider` and the client's real OAuth code connects on the first try.
 * It keeps what the SDK saves (client information, tokens) in memory.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
 * await using mock = await McpMock.start({ auth: { required: ["read"] } });
 * const client = new Client({ name: "app", version: "1.0.0" });
 * await client.connect(new StreamableHTTPClientTransport(new URL(mock.url), { authProvider: mock.auth.clientProvider() }));
 * await client.close();
 * ```
 * @category Authorization
 */
export class MockOAuthClientProvider implements OAuthClientProvider {
  readonly #path: string;
  readonly #options: ClientProviderOptions;
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = "";
  /** The authorization server's metadata, as the SDK's discovery found it. */
  #metadata: AuthorizationServerMetadata | undefined;

  /** A refresh the SDK is sending: others wait for its tokens. */
  #refreshing: { promise: Promise<void>; resolve: () => void } | undefined;

  /** The refresh in flight is over (its tokens saved, or refused). */
  #settle(): void {
    this.#refreshing?.resolve();
    this.#refreshing = undefined;
  }

  /** @internal */
  constructor(path: string, options: ClientProviderOptions = {}) {
    this.#path = path;
    this.#options = options;
  }

  /** `undefined`: to the SDK a non-interactive flow, whose token request this provider prepares. */
  get redirectUrl(): undefined {
    return undefined;
  }

  /** What the client registers with: a public client (PKCE, no secret) with one loopback redirect URI. */
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.#options.clientName ?? "mcpmock test client",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...(this.#options.scope === undefined ? {} : { scope: this.#options.scope }),
    };
  }

  /** What the SDK saved at registration. */
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#client;
  }

  /** Keeps the registration. */
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.#client = info;
  }

  /** The tokens the SDK saved, if any. */
  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  /** Keeps the tokens; a refresh answered without a new refresh token keeps the one it used (RFC 6749 §6). */
  saveTokens(tokens: OAuthTokens): void {
    this.#settle();
    const used = this.#tokens?.refresh_token;
    this.#tokens = tokens.refresh_token === undefined && used !== undefined ? { ...tokens, refresh_token: used } : tokens;
  }

  /** What the SDK drops after the authorization server refused it: the tokens (a refresh token it no longer takes), or the registration too. */
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    this.#settle();
    if (scope === "all" || scope === "tokens") this.#tokens = undefined;
    if (scope === "all" || scope === "client") this.#client = undefined;
    if (scope === "all" || scope === "verifier") this.#verifier = "";
  }

  /** Keeps what the SDK's discovery found: the authorization server's metadata names its endpoints. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#metadata = state.authorizationServerMetadata;
  }

  /** Not called in this flow (an SDK from 1.24.0 sends no browser anywhere without a `redirectUrl`). */
  redirectToAuthorization(url: URL): void {
    throw new McpMockError(
      `clientProvider() needs ${SDK_NEEDED}: the client's SDK asked to send a browser to ${url.href}, as SDKs before 1.24.0 do without a redirectUrl, ` +
        `instead of calling prepareTokenRequest. Update the SDK the client imports (npm install @modelcontextprotocol/sdk@latest).`,
    );
  }

  /** Keeps a PKCE verifier the SDK made. */
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  /** The PKCE verifier of the current authorization. */
  codeVerifier(): string {
    return this.#verifier;
  }

  /**
   * With a refresh token (after `mock.auth.expire()`), a `refresh_token` grant. Otherwise plays
   * the browser: GET the authorization endpoint of the server the SDK discovered (PKCE S256, the
   * mock's protected resource), and turns the code in the redirect into an `authorization_code`
   * token request. The SDK sends either; if the server refuses the refresh token, the SDK drops
   * the tokens (`invalidateCredentials`) and asks again, and this authorizes anew.
   */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    // A POST and the GET stream told 401 at once both ask: the second waits for the first refresh
    // to be saved and uses the new refresh token (the mock rotates them; the old one is refused).
    while (this.#refreshing) await this.#refreshing.promise;
    const refresh = this.#tokens?.refresh_token;
    if (refresh !== undefined) {
      let resolve = (): void => undefined;
      const settled = new Promise<void>((r) => (resolve = r));
      // A token request that never ends (neither saved nor refused) holds no one back for long.
      const timer = setTimeout(() => this.#settle(), REFRESH_WAIT_MS);
      timer.unref?.();
      this.#refreshing = { promise: settled.finally(() => clearTimeout(timer)), resolve };
      return new URLSearchParams({ grant_type: "refresh_token", refresh_token: refresh });
    }
    const metadata = this.#metadata;
    if (metadata === undefined) {
      throw new McpMockError(
        `clientProvider() needs ${SDK_NEEDED}: the client's SDK asked for a token without handing over the authorization server's metadata (saveDiscoveryState was not called), ` +
          `so the authorization endpoint is unknown. Update the SDK the client imports (npm install @modelcontextprotocol/sdk@latest).`,
      );
    }
    const client = this.#client;
    if (!client?.client_id) throw new McpMockError("clientProvider(): the client is not registered yet (no client_id saved); the SDK registers before it asks for a token.");
    const origin = new URL(metadata.issuer).origin;
    // This authorization's own verifier: two flows at once (a POST and the GET stream both told 401) must not swap them.
    const verifier = randomToken(32);
    this.#verifier = verifier;
    const authorize = new URL(metadata.authorization_endpoint);
    const query: Record<string, string> = {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      code_challenge: s256(verifier),
      code_challenge_method: "S256",
      resource: `${origin}${this.#path}`,
      state: randomToken(8),
    };
    const asked = scope ?? this.#options.scope;
    if (asked !== undefined) query["scope"] = asked;
    for (const [k, v] of Object.entries(query)) authorize.searchParams.set(k, v);
    const res = await fetch(authorize, { redirect: "manual" });
    await res.text();
    const location = res.headers.get("location");
    const code = location === null ? null : new URL(location).searchParams.get("code");
    if (code === null) throw new McpMockError(`clientProvider(): ${authorize.origin}${authorize.pathname} answered ${res.status} without a code${location ? ` (redirect: ${location})` : ""}.`);
    return new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT_URI });
  }
}
