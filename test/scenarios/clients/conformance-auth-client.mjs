// The official conformance suite's everything-client, its auth/* handlers (runAuthClient,
// runPreRegistration) with helpers/withOAuthRetry.ts and helpers/ConformanceOAuthProvider.ts,
// and its iss-checking client (auth-test-iss-validation.ts, for the iss-* scenarios that a
// client must refuse and metadata-issuer-mismatch),
// copied into JavaScript at the revision the project pins: MCP_CONFORMANCE_SCENARIO names the
// scenario, MCP_CONFORMANCE_CONTEXT carries pre-registered credentials, the URL is the last
// argument. BROKEN=<what> breaks it on purpose: no-pkce (authorizes without a code_challenge and
// exchanges the code without a verifier), no-resource (drops the resource parameter from both),
// no-cimd (registers instead of using its client ID metadata document URL), ignore-scope (asks for
// no scope, whatever the server named); and for the 2026-07-28 scenarios, any of (comma-separated,
// each touching its own scenario): any-resource (authorizes for whatever resource the protected
// resource metadata names), offline-access (always asks offline_access too), no-iss-check (takes
// any iss in the authorization response), no-issuer-check (uses metadata naming another issuer).
// auth/authorization-server-migration runs runAuthMigrationClient (SEP-2352: it keys its
// credentials by issuer), broken as reuse-credentials (the suite's auth-test-reuse-credentials.ts:
// no issuer keying, with a provider that drops the SDK's own issuer stamp, so it presents the first
// server's client_id at the new one) or keep-token (never authorizes again: it retries with the
// first server's token).
// The client credentials extension's scenarios (runClientCredentialsJwt, runClientCredentialsBasic,
// with the SDK's PrivateKeyJwtProvider and ClientCredentialsProvider) break as wrong-secret (Basic
// with another secret), jwt-wrong-audience (an assertion for another audience), jwt-other-key (an
// assertion signed by a key of its own, not the one the context gave), jwt-wrong-iss (an assertion
// whose iss is not its client_id).
// The auth extensions' handlers (runEnterpriseManagedAuthorization, runWifJwtBearer) and the
// suite's broken WIF clients (wif-broken-clients.ts): xaa-no-token-type (the token exchange
// without requested_token_type), xaa-wrong-resource (the token exchange names the server's origin
// as the resource, not its MCP endpoint); wif-wrong-audience, wif-no-assertion, wif-expired (the
// context's other JWTs, or none), wif-scope-rejected (asks scope wif.rejected), wif-grant-fallback
// (after unauthorized_client, tries authorization_code), wif-retry (after unauthorized_client,
// tries the JWT bearer grant again).
// The DPoP client (auth/dpop, auth/dpop-nonce: helpers/dpopClientFlow.ts with the proofs of
// src/scenarios/client/auth/helpers/dpopProof.ts) breaks as the suite's auth-test-dpop-*.ts
// clients do: dpop-bearer (presents the bound token as Bearer), dpop-replay (one proof for every
// MCP request), dpop-no-token-proof (no proof at the token endpoint: a bearer token),
// dpop-no-as-nonce and dpop-no-rs-nonce (ignore the use_dpop_nonce challenge of each server).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createHash, randomBytes } from "node:crypto";
import { auth, extractWWWAuthenticateParams, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { ClientCredentialsProvider, createPrivateKeyJwtAuth, PrivateKeyJwtProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { exportJWK, exportPKCS8, generateKeyPair, SignJWT } from "jose";

const BROKEN = process.env.BROKEN ?? "";
const broken = (what) => BROKEN.split(",").includes(what);
const CIMD_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
const REDIRECT = "http://localhost:3000/callback";

/** What a broken client changes on its way out: the authorization URL and the token request's form. */
function breakUrl(url) {
  if (BROKEN === "no-pkce") {
    url.searchParams.delete("code_challenge");
    url.searchParams.delete("code_challenge_method");
  }
  if (BROKEN === "no-resource") url.searchParams.delete("resource");
  if (broken("offline-access")) url.searchParams.set("scope", [...new Set([...(url.searchParams.get("scope") ?? "").split(" ").filter(Boolean), "offline_access"])].join(" "));
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

/** Broken as reuse-credentials: the provider keeps the RFC fields only, not the SDK's issuer stamp (SEP-2352), so the SDK cannot tell whose credentials they are. */
function forgetIssuer(saved) {
  if (!broken("reuse-credentials") || saved === undefined) return saved;
  const { issuer: _issuer, ...rest } = saved;
  return rest;
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
  // Broken as any-resource: the SDK's check that the metadata's resource is this server's is replaced by taking it as it is.
  get validateResourceURL() {
    return broken("any-resource") ? async (_serverUrl, resource) => (resource ? new URL(resource) : undefined) : undefined;
  }
  clientInformation() {
    return this.#clientInformation;
  }
  saveClientInformation(info) {
    this.#clientInformation = forgetIssuer(info);
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens) {
    this.#tokens = forgetIssuer(tokens);
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
  // SEP-2352: the credentials belong to the issuer that issued them; another issuer clears them all.
  bindIssuer(issuer) {
    if (this._boundIssuer !== undefined && this._boundIssuer !== issuer) {
      this.invalidateCredentials("all");
      this._boundIssuer = issuer;
      return true;
    }
    this._boundIssuer = issuer;
    return false;
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

function withOAuthRetryWithProvider(provider, baseUrl, handle401Fn = handle401) {
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
      await handle401Fn(response, provider, next, serverUrl);
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

// everything-client.ts runAuthMigrationClient: before each (re-)authorization it reads the
// protected resource metadata and binds the provider to its authorization server, so a new one
// clears the old one's credentials and the SDK registers anew.
async function issuerAware401(response, provider, next, serverUrl) {
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  if (resourceMetadataUrl) {
    const prm = await (await next(resourceMetadataUrl)).json();
    const issuer = Array.isArray(prm?.authorization_servers) ? prm.authorization_servers[0] : undefined;
    if (issuer) provider.bindIssuer(issuer);
  }
  let result = await auth(provider, { serverUrl, resourceMetadataUrl, scope, fetchFn: next });
  if (result === "REDIRECT") {
    const authorizationCode = await provider.getAuthCode();
    result = await auth(provider, { serverUrl, resourceMetadataUrl, scope, authorizationCode, fetchFn: next });
  }
}

/** Broken as keep-token: authorizes once, then only retries with the token it has. */
function once401(handle) {
  let authorized = false;
  return async (response, provider, next, serverUrl) => {
    if (authorized) return;
    authorized = true;
    await handle(response, provider, next, serverUrl);
  };
}

async function runAuthMigrationClient(serverUrl) {
  const name = broken("reuse-credentials") ? "auth-test-reuse-credentials" : "auth-migration-client";
  const provider = new ConformanceOAuthProvider(REDIRECT, { client_name: name, redirect_uris: [REDIRECT], application_type: "native" });
  const handle = broken("reuse-credentials") ? handle401 : issuerAware401;
  const oauthFetch = withOAuthRetryWithProvider(provider, new URL(serverUrl), broken("keep-token") ? once401(handle) : handle)(fetch);
  const client = new Client({ name, version: "1.0.0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl), { fetch: oauthFetch });
  await client.connect(transport);
  await client.listTools(); // phase 1: the first authorization server
  await client.callTool({ name: "test-tool", arguments: {} }); // phase 2: the new one
  await transport.close();
}

// auth-test-iss-validation.ts: a client that checks the metadata's issuer (RFC 8414 section 3.3) and the iss of the authorization response (RFC 9207).
const base64url = (bytes) => bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

async function oauthFlowWithIssValidation(resourceMetadataUrl, fetchFn) {
  const prmResponse = await fetchFn(resourceMetadataUrl);
  if (!prmResponse.ok) throw new Error(`Failed to fetch PRM: ${prmResponse.status}`);
  const prm = await prmResponse.json();
  const authServerUrl = prm.authorization_servers?.[0];
  if (!authServerUrl) throw new Error("No authorization server in PRM");
  const asResponse = await fetchFn(new URL("/.well-known/oauth-authorization-server", authServerUrl).toString());
  if (!asResponse.ok) throw new Error(`Failed to fetch AS metadata: ${asResponse.status}`);
  const asMetadata = await asResponse.json();
  if (asMetadata.issuer !== authServerUrl && !broken("no-issuer-check")) throw new Error(`AS metadata issuer mismatch: expected '${authServerUrl}', got '${asMetadata.issuer}'`);
  const expectedIssuer = asMetadata.issuer;
  const issParameterSupported = asMetadata.authorization_response_iss_parameter_supported === true;
  const dcrResponse = await fetchFn(asMetadata.registration_endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: "test-auth-client-iss-validation", redirect_uris: [REDIRECT], application_type: "native" }),
  });
  if (!dcrResponse.ok) throw new Error(`DCR failed: ${dcrResponse.status}`);
  const clientInfo = await dcrResponse.json();
  const codeVerifier = base64url(randomBytes(32));
  const codeChallenge = base64url(createHash("sha256").update(codeVerifier).digest());
  const authUrl = new URL(asMetadata.authorization_endpoint);
  authUrl.searchParams.set("response_type", "code");
  authUrl.searchParams.set("client_id", clientInfo.client_id);
  authUrl.searchParams.set("redirect_uri", REDIRECT);
  authUrl.searchParams.set("state", "test-state");
  authUrl.searchParams.set("code_challenge", codeChallenge);
  authUrl.searchParams.set("code_challenge_method", "S256");
  const authResponse = await fetchFn(authUrl.toString(), { redirect: "manual" });
  const location = authResponse.headers.get("location");
  if (!location) throw new Error("No redirect from authorization endpoint");
  const redirectUrl = new URL(location);
  const authCode = redirectUrl.searchParams.get("code");
  if (!authCode) throw new Error("No auth code in redirect");
  const issInRedirect = redirectUrl.searchParams.get("iss");
  if (!broken("no-iss-check")) {
    if (issParameterSupported) {
      if (!issInRedirect) throw new Error("Server advertised authorization_response_iss_parameter_supported but iss is absent from redirect");
      if (issInRedirect !== expectedIssuer) throw new Error(`iss mismatch: expected '${expectedIssuer}', got '${issInRedirect}'`);
    } else if (issInRedirect && issInRedirect !== expectedIssuer) {
      throw new Error(`iss mismatch: expected '${expectedIssuer}', got '${issInRedirect}'`);
    }
  }
  const tokenResponse = await fetchFn(asMetadata.token_endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", code: authCode, redirect_uri: REDIRECT, client_id: clientInfo.client_id, code_verifier: codeVerifier }).toString(),
  });
  if (!tokenResponse.ok) throw new Error(`Token request failed: ${tokenResponse.status} - ${await tokenResponse.text()}`);
  return tokenResponse.json();
}

function withOAuthIssValidation() {
  let tokens;
  return (next) => async (input, init) => {
    const makeRequest = async () => {
      const headers = new Headers(init?.headers);
      if (tokens) headers.set("Authorization", `Bearer ${tokens.access_token}`);
      return next(input, { ...init, headers });
    };
    let response = await makeRequest();
    if (response.status === 401) {
      const { resourceMetadataUrl } = extractWWWAuthenticateParams(response);
      if (!resourceMetadataUrl) throw new Error("No resource_metadata in WWW-Authenticate");
      tokens = await oauthFlowWithIssValidation(resourceMetadataUrl, next);
      response = await makeRequest();
    }
    return response;
  };
}

async function runIssValidation(serverUrl) {
  const client = new Client({ name: "test-auth-client-iss-validation", version: "1.0.0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl), { fetch: withOAuthIssValidation()(fetch) });
  await client.connect(transport);
  await client.listTools();
  await transport.close();
}

// The client credentials scenarios (SEP-1046): no user, no redirect; the SDK's providers ask a token for the client itself.
function parseContext() {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) throw new Error("MCP_CONFORMANCE_CONTEXT not set");
  return JSON.parse(raw);
}

async function connectAndList(serverUrl, name, provider) {
  const client = new Client({ name, version: "1.0.0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider });
  await client.connect(transport);
  await client.listTools();
  await transport.close();
}

// everything-client.ts, runEnterpriseManagedAuthorization (SEP-990): ID token -> ID-JAG at the IdP -> access token at the AS -> MCP.
async function runEnterpriseManagedAuthorization(serverUrl) {
  const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
  if (ctx.name !== "auth/enterprise-managed-authorization") throw new Error(`Expected enterprise-managed-authorization context, got ${ctx.name}`);
  const prmResponse = await fetch(new URL("/.well-known/oauth-protected-resource/mcp", serverUrl).toString());
  if (!prmResponse.ok) throw new Error(`PRM discovery failed: ${prmResponse.status}`);
  const prm = await prmResponse.json();
  const resource = prm.resource;
  const authServerUrl = prm.authorization_servers[0];
  const asMetadataResponse = await fetch(new URL("/.well-known/oauth-authorization-server", authServerUrl).toString());
  if (!asMetadataResponse.ok) throw new Error(`Auth server metadata discovery failed: ${asMetadataResponse.status}`);
  const asMetadata = await asMetadataResponse.json();
  const grantTypes = asMetadata.grant_types_supported || [];
  if (!grantTypes.includes("urn:ietf:params:oauth:grant-type:jwt-bearer")) throw new Error(`Auth server does not support jwt-bearer grant type. Supported: ${grantTypes.join(", ")}`);
  const tokenExchangeParams = new URLSearchParams({
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
    audience: asMetadata.issuer,
    resource: broken("xaa-wrong-resource") ? new URL(resource).origin : resource,
    subject_token: ctx.idp_id_token,
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    client_id: ctx.idp_client_id,
  });
  if (broken("xaa-no-token-type")) tokenExchangeParams.delete("requested_token_type");
  const tokenExchangeResponse = await fetch(ctx.idp_token_endpoint, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: tokenExchangeParams });
  if (!tokenExchangeResponse.ok) throw new Error(`Token exchange failed: ${await tokenExchangeResponse.text()}`);
  const idJag = (await tokenExchangeResponse.json()).access_token;
  const basicAuth = Buffer.from(`${encodeURIComponent(ctx.client_id)}:${encodeURIComponent(ctx.client_secret)}`).toString("base64");
  const tokenResponse = await fetch(asMetadata.token_endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${basicAuth}` },
    body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: idJag }),
  });
  if (!tokenResponse.ok) throw new Error(`JWT bearer grant failed: ${await tokenResponse.text()}`);
  const tokenResult = await tokenResponse.json();
  const client = new Client({ name: "conformance-enterprise-managed-authorization", version: "1.0.0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl), { requestInit: { headers: { Authorization: `Bearer ${tokenResult.access_token}` } } });
  await client.connect(transport);
  await client.listTools();
  await client.callTool({ name: "test-tool", arguments: {} });
  await transport.close();
}

// everything-client.ts, WifJwtBearerProvider and runWifJwtBearer (SEP-1933), and the broken ones of wif-broken-clients.ts.
const JWT_BEARER_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";

class WifJwtBearerProvider {
  #tokens;
  #clientInfo;
  #attempts = 0;
  constructor(ctx) {
    this.ctx = ctx;
    this.#clientInfo = { client_id: ctx.client_id };
  }
  get redirectUrl() {
    return undefined;
  }
  get clientMetadata() {
    return { client_name: "conformance-wif-jwt-bearer", redirect_uris: [], grant_types: [JWT_BEARER_GRANT_TYPE], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.#clientInfo;
  }
  saveClientInformation(info) {
    this.#clientInfo = info;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens) {
    this.#tokens = tokens;
  }
  redirectToAuthorization() {
    throw new Error("redirectToAuthorization is not used for JWT-bearer flow");
  }
  saveCodeVerifier() {}
  codeVerifier() {
    throw new Error("codeVerifier is not used for JWT-bearer flow");
  }
  prepareTokenRequest(scope) {
    this.#attempts++;
    // The right client guards against a retry; the broken ones (as in wif-broken-clients.ts) leave the SDK's retry alone.
    const wifBroken = BROKEN.split(",").some((b) => b.startsWith("wif-"));
    const retrying = broken("wif-retry") || broken("wif-grant-fallback");
    if (this.#attempts > 1 && !wifBroken) throw new Error("JWT-bearer grant must not be retried after failure");
    if (broken("wif-grant-fallback") && this.#attempts > 1) return new URLSearchParams({ grant_type: "authorization_code", code: "fake-fallback-code" });
    const params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT_TYPE });
    const assertion = broken("wif-wrong-audience") ? this.ctx.wrong_audience_jwt : broken("wif-expired") ? this.ctx.expired_jwt : broken("wif-no-assertion") ? null : this.ctx.valid_jwt;
    if (assertion !== null) params.set("assertion", assertion);
    if (retrying && this.#attempts === 1) params.set("scope", "wif.trigger-unauthorized");
    else if (broken("wif-scope-rejected")) params.set("scope", "wif.rejected");
    else if (!wifBroken && scope) params.set("scope", scope);
    return params;
  }
}

async function runWifJwtBearer(serverUrl) {
  const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
  if (ctx.name !== "auth/wif-jwt-bearer") throw new Error(`Expected wif-jwt-bearer context, got ${ctx.name}`);
  const client = new Client({ name: "conformance-wif-jwt-bearer", version: "1.0.0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: new WifJwtBearerProvider(ctx) });
  await client.connect(transport);
  await client.listTools();
  await transport.close();
}

async function runClientCredentialsJwt(serverUrl) {
  const ctx = parseContext();
  if (ctx.name !== "auth/client-credentials-jwt") throw new Error(`Expected jwt context, got ${ctx.name}`);
  const algorithm = ctx.signing_algorithm || "ES256";
  // Broken as jwt-other-key: signs with a key of its own; as jwt-wrong-audience: names another audience than the issuer.
  const privateKey = broken("jwt-other-key") ? await exportPKCS8((await generateKeyPair(algorithm, { extractable: true })).privateKey) : ctx.private_key_pem;
  const provider = new PrivateKeyJwtProvider({ clientId: ctx.client_id, privateKey, algorithm });
  if (broken("jwt-wrong-audience")) provider.addClientAuthentication = createPrivateKeyJwtAuth({ issuer: ctx.client_id, subject: ctx.client_id, privateKey, alg: algorithm, audience: "https://wrong-audience.example.com" });
  if (broken("jwt-wrong-iss")) provider.addClientAuthentication = createPrivateKeyJwtAuth({ issuer: "someone-else", subject: ctx.client_id, privateKey, alg: algorithm });
  await connectAndList(serverUrl, "conformance-client-credentials-jwt", provider);
}

async function runClientCredentialsBasic(serverUrl) {
  const ctx = parseContext();
  if (ctx.name !== "auth/client-credentials-basic") throw new Error(`Expected basic context, got ${ctx.name}`);
  const provider = new ClientCredentialsProvider({ clientId: ctx.client_id, clientSecret: broken("wrong-secret") ? "not-the-secret" : ctx.client_secret });
  await connectAndList(serverUrl, "conformance-client-credentials-basic", provider);
}

/** helpers/dpopProof.ts: an ES256 key pair and a well-formed proof (ath with an access token, nonce when given). */
async function generateDpopKeyPair() {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  return { privateKey, publicJwk: await exportJWK(publicKey) };
}

async function buildDpopProof({ keyPair, htm, htu, accessToken, nonce }) {
  const payload = { jti: randomBytes(16).toString("base64url"), htm, htu, iat: Math.floor(Date.now() / 1000) };
  if (accessToken !== undefined) payload.ath = createHash("sha256").update(accessToken, "ascii").digest("base64url");
  if (nonce !== undefined) payload.nonce = nonce;
  return new SignJWT(payload).setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: keyPair.publicJwk }).sign(keyPair.privateKey);
}

function stripQuery(url) {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/** helpers/dpopClientFlow.ts: a hand-rolled authorization_code + PKCE flow with a proof at the token endpoint, then an MCP session with a proof per request. */
async function runDpopClient(serverUrl) {
  const options = { scheme: broken("dpop-bearer") ? "Bearer" : "DPoP", freshProofPerRequest: !broken("dpop-replay"), sendTokenRequestProof: !broken("dpop-no-token-proof"), handleAsNonce: !broken("dpop-no-as-nonce"), handleRsNonce: !broken("dpop-no-rs-nonce") };
  const keyPair = await generateDpopKeyPair();
  const prm = await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", serverUrl).toString())).json();
  const asMeta = await (await fetch(new URL("/.well-known/oauth-authorization-server", prm.authorization_servers[0]).toString())).json();
  const redirectUri = "http://127.0.0.1:9876/callback";
  const reg = await (await fetch(asMeta.registration_endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "conformance-dpop-client", redirect_uris: [redirectUri], application_type: "native" }) })).json();
  const state = randomBytes(16).toString("base64url");
  const codeVerifier = randomBytes(32).toString("base64url");
  const codeChallenge = createHash("sha256").update(codeVerifier).digest("base64url");
  const authorizeUrl = `${asMeta.authorization_endpoint}?${new URLSearchParams({ response_type: "code", client_id: reg.client_id, state, redirect_uri: redirectUri, code_challenge: codeChallenge, code_challenge_method: "S256" })}`;
  const authorizeResponse = await fetch(authorizeUrl, { redirect: "manual" });
  await authorizeResponse.text().catch(() => undefined);
  const location = authorizeResponse.headers.get("location");
  if (!location) throw new Error("Authorization endpoint did not redirect with a code");
  const code = new URL(location).searchParams.get("code");
  if (!code) throw new Error("No authorization code in redirect");
  const tokenReqBody = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: codeVerifier, client_id: reg.client_id }).toString();
  const requestToken = async (nonce) => {
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    if (options.sendTokenRequestProof) headers.dpop = await buildDpopProof({ keyPair, htm: "POST", htu: stripQuery(asMeta.token_endpoint), ...(nonce ? { nonce } : {}) });
    return fetch(asMeta.token_endpoint, { method: "POST", headers, body: tokenReqBody });
  };
  let tokenResponse = await requestToken();
  const asNonce = tokenResponse.headers.get("DPoP-Nonce");
  if (tokenResponse.status === 400 && asNonce && options.handleAsNonce) {
    const challenge = await tokenResponse.clone().json().catch(() => ({}));
    if (challenge?.error === "use_dpop_nonce") tokenResponse = await requestToken(asNonce);
  }
  if (!tokenResponse.ok) throw new Error(`Token request failed: HTTP ${tokenResponse.status}`);
  const accessToken = (await tokenResponse.json()).access_token;
  let reusableProof;
  let rsNonce;
  const dpopFetch = async (input, init) => {
    const method = (init?.method ?? "POST").toUpperCase();
    const htu = stripQuery(typeof input === "string" ? input : input.toString());
    const attempt = async () => {
      const headers = new Headers(init?.headers);
      headers.set("Authorization", `${options.scheme} ${accessToken}`);
      let proof;
      if (options.freshProofPerRequest || !reusableProof) {
        proof = await buildDpopProof({ keyPair, htm: method, htu, accessToken, ...(rsNonce ? { nonce: rsNonce } : {}) });
        if (!options.freshProofPerRequest) reusableProof = proof;
      } else proof = reusableProof;
      headers.set("DPoP", proof);
      return fetch(input, { ...init, headers });
    };
    let res = await attempt();
    const nonce = res.headers.get("DPoP-Nonce");
    if (res.status === 401 && nonce && options.handleRsNonce && (res.headers.get("WWW-Authenticate") ?? "").includes("use_dpop_nonce")) {
      rsNonce = nonce;
      reusableProof = undefined;
      res = await attempt();
    }
    return res;
  };
  const client = new Client({ name: "conformance-dpop-client", version: "1.0.0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl), { fetch: dpopFetch });
  await client.connect(transport);
  await client.listTools();
  await client.callTool({ name: "test-tool", arguments: {} });
  await transport.close();
}

const EXTENSIONS = {
  "auth/client-credentials-jwt": runClientCredentialsJwt,
  "auth/client-credentials-basic": runClientCredentialsBasic,
  "auth/enterprise-managed-authorization": runEnterpriseManagedAuthorization,
  "auth/wif-jwt-bearer": runWifJwtBearer,
  "auth/dpop": runDpopClient,
  "auth/dpop-nonce": runDpopClient,
};

const ISS_VALIDATION = ["auth/iss-supported-missing", "auth/iss-wrong-issuer", "auth/iss-unexpected", "auth/iss-normalized", "auth/metadata-issuer-mismatch"];

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const url = process.argv[process.argv.length - 1];
const handler = EXTENSIONS[scenario] ?? (scenario === "auth/pre-registration" ? runPreRegistration : scenario === "auth/authorization-server-migration" ? runAuthMigrationClient : ISS_VALIDATION.includes(scenario) ? runIssValidation : scenario.startsWith("auth/") ? runAuthClient : undefined);
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
