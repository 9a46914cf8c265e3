/**
 * The embedded authorization server's variants the official auth scenarios need, over real
 * HTTP: pre-registered clients, registration and client ID metadata documents turned off, the
 * token endpoint authentication methods supported, an issuer with a path, and a protected
 * resource metadata document at a path of one's own. Bad values are refused at start, saying why.
 */
import { describe, expect, test } from "vitest";
import { McpMock, type AuthOptions } from "../../src/index.js";
import { s256 } from "../../src/auth/tokens.js";

const VERIFIER = "v".repeat(43);
const REDIRECT = "http://127.0.0.1:9/callback";

async function started(auth: AuthOptions): Promise<McpMock> {
  return McpMock.start({ auth });
}

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

/** GET /authorize with PKCE and the resource; the redirect's parameters. */
async function authorize(mock: McpMock, path: string, clientId: string, redirectUri = REDIRECT): Promise<URLSearchParams> {
  const url = new URL(path, mock.url);
  const q = { response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: s256(VERIFIER), code_challenge_method: "S256", resource: mock.url };
  for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: "manual" });
  await res.text();
  const location = res.headers.get("location");
  return location ? new URL(location).searchParams : new URLSearchParams({ status: String(res.status) });
}

function token(mock: McpMock, path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL(path, mock.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form) });
}

describe("authorization server variants", () => {
  test("a pre-registered confidential client: no /register, HTTP Basic with its secret at /token, any loopback redirect URI", async () => {
    await using mock = await started({ registration: false, tokenEndpointAuthMethods: ["client_secret_basic"], clients: [{ clientId: "app", clientSecret: "s3cret" }] });
    const metadata = await json(await fetch(new URL("/.well-known/oauth-authorization-server", mock.url)));
    expect(metadata["registration_endpoint"]).toBeUndefined();
    expect(metadata["token_endpoint_auth_methods_supported"]).toEqual(["client_secret_basic"]);
    expect((await fetch(new URL("/register", mock.url), { method: "POST", body: "{}" })).status).toBe(404);
    const redirect = await authorize(mock, "/authorize", "app", "http://localhost:3000/callback");
    const code = redirect.get("code") as string;
    expect(code).toBeTruthy();
    const form = { grant_type: "authorization_code", code, code_verifier: VERIFIER, redirect_uri: "http://localhost:3000/callback" };
    const wrong = await token(mock, "/token", form, { authorization: `Basic ${Buffer.from("app:nope").toString("base64")}` });
    expect(wrong.status).toBe(401);
    expect((await json(wrong))["error_description"]).toBe("[mcpmock] Client app registered client_secret_basic: send its client_secret.");
    const redirect2 = await authorize(mock, "/authorize", "app", "http://localhost:3000/callback");
    const right = await token(mock, "/token", { ...form, code: redirect2.get("code") as string }, { authorization: `Basic ${Buffer.from("app:s3cret").toString("base64")}` });
    expect(right.status).toBe(200);
    // Beyond loopback, a client that named no redirect URIs is refused, saying why.
    const far = await authorize(mock, "/authorize", "app", "https://example.com/cb");
    expect(far.get("status")).toBe("400");
    mock.auth.verify({ endpoint: "authorize", status: 400, outcome: "invalid_request", description: 'redirect_uri "https://example.com/cb" is not on a loopback host, and client app (of auth.clients) named no redirectUris.' });
  });

  test("a registration is given the server's first supported method, with a secret", async () => {
    await using mock = await started({ tokenEndpointAuthMethods: ["client_secret_post"] });
    const res = await fetch(new URL("/register", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) });
    const info = await json(res);
    expect(res.status).toBe(201);
    expect(info["token_endpoint_auth_method"]).toBe("client_secret_post");
    expect(typeof info["client_secret"]).toBe("string");
  });

  test("client ID metadata documents off: not advertised, and a URL client_id is refused with the fix; a pre-registered URL id is never fetched", async () => {
    await using off = await started({ clientIdMetadataDocuments: false });
    expect((await json(await fetch(new URL("/.well-known/oauth-authorization-server", off.url))))["client_id_metadata_document_supported"]).toBeUndefined();
    expect((await authorize(off, "/authorize", "http://127.0.0.1:9/client.json")).get("status")).toBe("400");
    expect(off.auth.requests({ endpoint: "authorize" })[0]?.description).toBe("client_id http://127.0.0.1:9/client.json is a client ID metadata document URL, and this server does not take them (auth.clientIdMetadataDocuments is false): register at the registration_endpoint, or use a client of auth.clients.");
    await using held = await started({ clients: [{ clientId: "https://app.example/client.json" }] });
    expect((await authorize(held, "/authorize", "https://app.example/client.json")).get("code")).toBeTruthy();
  });

  test("an issuer with a path: RFC 8414 path-inserted metadata (or OpenID's appended), endpoints and iss under it", async () => {
    await using mock = await started({ issuerPath: "/tenant1" });
    const origin = new URL(mock.url).origin;
    expect((await fetch(new URL("/.well-known/oauth-authorization-server", mock.url))).status).toBe(404);
    const metadata = await json(await fetch(new URL("/.well-known/oauth-authorization-server/tenant1", mock.url)));
    expect(metadata).toMatchObject({ issuer: `${origin}/tenant1`, authorization_endpoint: `${origin}/tenant1/authorize`, token_endpoint: `${origin}/tenant1/token`, registration_endpoint: `${origin}/tenant1/register` });
    expect((await json(await fetch(new URL("/.well-known/oauth-protected-resource/mcp", mock.url))))["authorization_servers"]).toEqual([`${origin}/tenant1`]);
    const reg = await json(await fetch(new URL("/tenant1/register", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) }));
    expect((await authorize(mock, "/tenant1/authorize", reg["client_id"] as string)).get("iss")).toBe(`${origin}/tenant1`);
    await using openid = await started({ issuerPath: "/tenant1", serverMetadata: "openid" });
    expect((await fetch(new URL("/tenant1/.well-known/openid-configuration", openid.url))).status).toBe(200);
  });

  test("protected resource metadata at a path of one's own, named in the challenge", async () => {
    await using mock = await started({ metadataAt: "/custom/metadata/location.json" });
    const res = await fetch(mock.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain(`resource_metadata="${new URL(mock.url).origin}/custom/metadata/location.json"`);
    expect((await json(await fetch(new URL("/custom/metadata/location.json", mock.url))))["resource"]).toBe(mock.url);
  });

  test("bad values are refused at start, each saying what it takes", async () => {
    await expect(McpMock.start({ auth: { issuerPath: "tenant1/" } })).rejects.toThrow('auth.issuerPath must be a path like "/tenant1" (no trailing slash, no query), received "tenant1/".');
    await expect(McpMock.start({ auth: { metadataAt: "custom" as never } })).rejects.toThrow('auth.metadataAt must be "path" or "root", or a path like "/custom/metadata.json", received "custom".');
    await expect(McpMock.start({ auth: { tokenEndpointAuthMethods: ["tls_client_auth" as never] } })).rejects.toThrow("auth.tokenEndpointAuthMethods must be a non-empty list of none, client_secret_basic, client_secret_post, private_key_jwt");
    await expect(McpMock.start({ auth: { clients: [{ clientId: "a", tokenEndpointAuthMethod: "client_secret_post" }] } })).rejects.toThrow("auth.clients[0]: tokenEndpointAuthMethod client_secret_post needs a clientSecret.");
  });
});

describe("authorization server variants for the 2026-07-28 checks a client must make", () => {
  test("another resource and issuer in the metadata, iss as configured, offline_access listed by the server only", async () => {
    await using mock = await started({ metadataResource: "https://evil.example.com/mcp", metadataIssuer: "https://attacker.example.com", issAdvertised: false, issInRedirect: "issuer/", offlineAccess: true, scopes: ["read"], clients: [{ clientId: "app" }] });
    const prm = await json(await fetch(new URL("/.well-known/oauth-protected-resource/mcp", mock.url)));
    expect(prm).toMatchObject({ resource: "https://evil.example.com/mcp", scopes_supported: ["read"] });
    const metadata = await json(await fetch(new URL("/.well-known/oauth-authorization-server", mock.url)));
    expect(metadata).toMatchObject({ issuer: "https://attacker.example.com", scopes_supported: ["read", "offline_access"] });
    expect(metadata).not.toHaveProperty("authorization_response_iss_parameter_supported");
    expect((await authorize(mock, "/authorize", "app")).get("iss")).toBe("https://attacker.example.com/");
  });

  test("iss left out, or another issuer's; the resource parameter optional", async () => {
    await using none = await started({ issInRedirect: "none", clients: [{ clientId: "app" }] });
    const params = await authorize(none, "/authorize", "app");
    expect(params.has("code")).toBe(true);
    expect(params.has("iss")).toBe(false);
    await using other = await started({ issInRedirect: "https://evil.example.com", resourceParameter: "optional", clients: [{ clientId: "app" }] });
    const url = new URL("/authorize", other.url);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: "app", redirect_uri: REDIRECT, code_challenge: s256(VERIFIER), code_challenge_method: "S256" })) url.searchParams.set(k, v);
    const res = await fetch(url, { redirect: "manual" });
    const back = new URL(res.headers.get("location") ?? "").searchParams;
    expect(back.has("code")).toBe(true);
    expect(back.get("iss")).toBe("https://evil.example.com");
  });

  test("bad values are refused at start, saying why", async () => {
    await expect(started({ issInRedirect: "sometimes", metadataIssuer: "not a url", resourceParameter: "maybe" as "optional" })).rejects.toThrow(/auth has 3 problems:[\s\S]*metadataIssuer must be an http\(s\) URL[\s\S]*issInRedirect must be "issuer", "none", "issuer\/" or an http\(s\) URL/);
  });
});
