/**
 * An in-memory OAuthClientProvider for the SDK clients' own OAuth code, whose "browser" follows
 * the authorization URL (a GET without following the redirect) and keeps what came back.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/** Where the "browser" is sent back to; never fetched (the code is read from the Location). */
export const REDIRECT_URL = "http://127.0.0.1:9/callback";

export class TestOAuthProvider implements OAuthClientProvider {
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = "";
  /** Every authorization URL the client sent the "browser" to. */
  readonly authorizations: URL[] = [];
  /** Where the authorization server sent the browser back (code, state, iss; or an error). */
  lastRedirect: URL | undefined;
  readonly #metadata: Partial<OAuthClientMetadata>;

  constructor(metadata: Partial<OAuthClientMetadata> = {}) {
    this.#metadata = metadata;
  }

  get redirectUrl(): string {
    return REDIRECT_URL;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "mcpmock-test", redirect_uris: [REDIRECT_URL], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none", ...this.#metadata };
  }

  state(): string {
    return "state-1";
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.#client = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizations.push(url);
    const res = await fetch(url, { redirect: "manual" });
    await res.text();
    const location = res.headers.get("location");
    if (location === null) throw new Error(`the authorization endpoint answered ${res.status} without a redirect`);
    this.lastRedirect = new URL(location);
  }

  /** The code of the last redirect (throws when it carried an error). */
  code(): string {
    const code = this.lastRedirect?.searchParams.get("code");
    if (!code) throw new Error(`no code in the redirect: ${this.lastRedirect?.href}`);
    return code;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }

  #discovery: unknown;

  saveDiscoveryState(state: unknown): void {
    this.#discovery = state;
  }

  discoveryState(): never {
    return this.#discovery as never;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "tokens") this.#tokens = undefined;
    if (scope === "all" || scope === "client") this.#client = undefined;
    if (scope === "all" || scope === "discovery") this.#discovery = undefined;
  }
}
