// The official conformance suite's everything-client, its auth/* handlers (runAuthClient,
// runPreRegistration) with helpers/withOAuthRetry.ts and helpers/ConformanceOAuthProvider.ts,
// copied into JavaScript at the revision the project pins: MCP_CONFORMANCE_SCENARIO names the
// scenario, MCP_CONFORMANCE_CONTEXT carries pre-registered credentials, the URL is the last
// argument. BROKEN=<what> breaks it on purpose: no-pkce (authorizes without a code_challenge and
// exchanges the code without a verifier), no-resource (drops the resource parameter from both),
// no-cimd (registers instead of using its client ID metadata document URL), ignore-scope (asks for
// no scope, whatever the server named).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { auth, extractWWWAuthenticateParams, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";

const BROKEN = process.env.BROKEN ?? "";
const CIMD_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
const REDIRECT = "http://localhost:3000/callback";

/** What a broken client changes on its way out: the authorization URL and the token request's form. */
function breakUrl(url) {
  if (BROKEN === "no-pkce") {
    url.searchParams.delete("code_challenge");
    url.searchParams.delete("code_challenge_method");
  }
  if (BROKEN === "no-resource") url.searchParams.delete("resource");
  return url;
}

function breakingFetch(next) {
  return async (input, init) => {
    if (typeof init?.body === "string" || init?.body instanceof URLSearchParams) {
      const form = new URLSearchParams(init.body.toString());
      if (form.has("grant_type")) {
        if (BROKEN === "no-pkce") form.delete("code_verifier");
        if (BROKEN === "no-resource") form.delete("resource");
        return next(input, { ...init, body: form });
      }
    }
    return next(input, init);
  };
}

class ConformanceOAuthProvider {
  #clientInformation;
  #tokens;
  #codeVerifier;
  #authCode;

  constructor(redirectUrl, clientMetadata, clientMetadataUrl) {
    this._redirectUrl = redirectUrl;
    this._clientMetadata = clientMetadata;
    this._clientMetadataUrl = clientMetadataUrl;
  }
  get redirectUrl() {
    return this._redirectUrl;
  }
  get clientMetadata() {
    return this._clientMetadata;
  }
  get clientMetadataUrl() {
    return this._clientMetadataUrl?.toString();
  }
  clientInformation() {
    return this.#clientInformation;
  }
  saveClientInformation(info) {
    this.#clientInformation = info;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens) {
    this.#tokens = tokens;
  }
  async redirectToAuthorization(authorizationUrl) {
    const response = await fetch(breakUrl(new URL(authorizationUrl)).toString(), { redirect: "manual" });
    const location = response.headers.get("location");
    if (!location) throw new Error(`No redirect location received, from '${authorizationUrl}'`);
    const code = new URL(location).searchParams.get("code");
    if (!code) throw new Error(`No auth code in redirect URL: ${location}`);
    this.#authCode = code;
  }
  async getAuthCode() {
    if (this.#authCode) return this.#authCode;
    throw new Error("No authorization code");
  }
  saveCodeVerifier(verifier) {
    this.#codeVerifier = verifier;
  }
  codeVerifier() {
    if (!this.#codeVerifier) throw new Error("No code verifier saved");
    return this.#codeVerifier;
  }
  invalidateCredentials(scope) {
    this.#tokens = undefined;
    this.#authCode = undefined;
    if (scope === "all") {
      this.#clientInformation = undefined;
      this.#codeVerifier = undefined;
    }
  }
}

const unionScopes = (prior, challenged) => {
  const set = new Set([...(prior?.split(" ") ?? []), ...(challenged?.split(" ") ?? [])].filter(Boolean));
  return set.size > 0 ? [...set].join(" ") : undefined;
};

async function handle401(response, provider, next, serverUrl) {
  const { resourceMetadataUrl, scope: challengedScope } = extractWWWAuthenticateParams(response);
  const prior = (await provider.tokens())?.scope;
  const scope = BROKEN === "ignore-scope" ? undefined : unionScopes(prior, challengedScope);
  const fetchFn = breakingFetch(next);
  let result = await auth(provider, { serverUrl, resourceMetadataUrl, scope, fetchFn });
  if (result === "REDIRECT") {
    const authorizationCode = await provider.getAuthCode();
    result = await auth(provider, { serverUrl, resourceMetadataUrl, scope, authorizationCode, fetchFn });
    if (result !== "AUTHORIZED") throw new UnauthorizedError(`Authentication failed with result: ${result}`);
  }
}

function withOAuthRetryWithProvider(provider, baseUrl) {
  return (next) => async (input, init) => {
    const makeRequest = async () => {
      const headers = new Headers(init?.headers);
      const tokens = await provider.tokens();
      if (tokens) headers.set("Authorization", `Bearer ${tokens.access_token}`);
      return next(input, { ...init, headers });
    };
    let response = await makeRequest();
    if (response.status === 401 || response.status === 403) {
      const serverUrl = baseUrl || (typeof input === "string" ? new URL(input).origin : input.origin);
      await handle401(response, provider, next, serverUrl);
      response = await makeRequest();
    }
    if (response.status === 401 || response.status === 403) throw new UnauthorizedError(`Authentication failed for ${typeof input === "string" ? input : input.toString()}`);
    return response;
  };
}

async function runAuthClient(serverUrl) {
  const client = new Client({ name: "test-auth-client", version: "1.0.0" }, { capabilities: {} });
  const provider = new ConformanceOAuthProvider(REDIRECT, { client_name: "test-auth-client", redirect_uris: [REDIRECT], application_type: "native" }, BROKEN === "no-cimd" ? undefined : CIMD_CLIENT_METADATA_URL);
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl), { fetch: withOAuthRetryWithProvider(provider, new URL(serverUrl))(fetch) });
  await client.connect(transport);
  await client.listTools();
  await client.callTool({ name: "test-tool", arguments: {} });
  await transport.close();
}

async function runPreRegistration(serverUrl) {
  const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
  if (ctx.name !== "auth/pre-registration") throw new Error(`Expected pre-registration context, got ${ctx.name}`);
  const client = new Client({ name: "conformance-pre-registration", version: "1.0.0" }, { capabilities: {} });
  const provider = new ConformanceOAuthProvider(REDIRECT, { client_name: "conformance-pre-registration", redirect_uris: [REDIRECT] });
  provider.saveClientInformation({ client_id: ctx.client_id, client_secret: ctx.client_secret, redirect_uris: [REDIRECT] });
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl), { fetch: withOAuthRetryWithProvider(provider, new URL(serverUrl))(fetch) });
  await client.connect(transport);
  await client.listTools();
  await transport.close();
}

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const url = process.argv[process.argv.length - 1];
const handler = scenario === "auth/pre-registration" ? runPreRegistration : scenario.startsWith("auth/") ? runAuthClient : undefined;
if (!handler) {
  console.error(`Unknown scenario: ${scenario}`);
  process.exit(1);
}
try {
  await handler(url);
  process.exit(0);
} catch (error) {
  console.error("Error:", error);
  process.exit(1);
}
