/**
 * The official auth extension scenarios through `runScenario`, driven by the v1 SDK client:
 * `auth/wif-jwt-bearer` (SEP-1933) with its own OAuth code (an `authProvider` whose
 * `prepareTokenRequest` asks the JWT bearer grant), and `auth/enterprise-managed-authorization`
 * (SEP-990): the token exchange at the IdP and the JWT bearer grant done by hand, then the SDK
 * client with the access token. Right clients pass; clients broken on purpose fail the checks
 * about what they broke, with a message that says what they did.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { describe, expect, test } from "vitest";
import { runScenario, scenarioNames, type ScenarioClientContext, type Verdict } from "../../src/scenarios/index.js";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

function failed(verdict: Verdict): string[] {
  return verdict.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => `${c.id} ${c.status}`);
}

type WifBreakage = "" | "wrong-audience" | "grant-fallback";

/** A workload's provider: the JWT bearer grant with the context's JWT, tried once (or, broken, with the wrong JWT, or falling back to authorization_code). */
function wifProvider(context: Readonly<Record<string, unknown>>, breakage: WifBreakage): OAuthClientProvider {
  let tokens: OAuthTokens | undefined;
  let client: OAuthClientInformationMixed = { client_id: context["client_id"] as string };
  let attempts = 0;
  return {
    redirectUrl: undefined,
    clientMetadata: { client_name: "wif", redirect_uris: [], grant_types: [JWT_BEARER], token_endpoint_auth_method: "none" },
    clientInformation: () => client,
    saveClientInformation: (info) => void (client = info),
    tokens: () => tokens,
    saveTokens: (t) => void (tokens = t),
    redirectToAuthorization: () => {
      throw new Error("not used");
    },
    saveCodeVerifier: () => {},
    codeVerifier: () => "",
    prepareTokenRequest: () => {
      attempts++;
      if (breakage === "" && attempts > 1) throw new Error("JWT-bearer grant must not be retried after failure");
      if (breakage === "grant-fallback" && attempts > 1) return new URLSearchParams({ grant_type: "authorization_code", code: "made-up" });
      const assertion = context[breakage === "wrong-audience" ? "wrong_audience_jwt" : "valid_jwt"] as string;
      return new URLSearchParams({ grant_type: JWT_BEARER, assertion, ...(breakage === "grant-fallback" ? { scope: "wif.trigger-unauthorized" } : {}) });
    },
  };
}

async function wifClient(url: string, { context }: ScenarioClientContext, breakage: WifBreakage = ""): Promise<void> {
  const client = new Client({ name: "wif", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: wifProvider(context ?? {}, breakage) }));
  await client.listTools();
  await client.close();
}

/** SEP-990 by hand: the ID token for an ID-JAG at the IdP (broken: naming the server's origin as the resource), the ID-JAG for an access token with HTTP Basic, then MCP. */
async function xaaClient(url: string, { context }: ScenarioClientContext, wrongResource = false): Promise<void> {
  const ctx = context as Record<string, string>;
  const prm = (await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", url))).json()) as { resource: string; authorization_servers: string[] };
  const as = (await (await fetch(new URL("/.well-known/oauth-authorization-server", prm.authorization_servers[0]))).json()) as { issuer: string; token_endpoint: string };
  const form = (fields: Record<string, string>): RequestInit => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
  const exchanged = await fetch(ctx["idp_token_endpoint"] as string, form({ grant_type: "urn:ietf:params:oauth:grant-type:token-exchange", requested_token_type: "urn:ietf:params:oauth:token-type:id-jag", audience: as.issuer, resource: wrongResource ? new URL(prm.resource).origin : prm.resource, subject_token: ctx["idp_id_token"] as string, subject_token_type: "urn:ietf:params:oauth:token-type:id_token", client_id: ctx["idp_client_id"] as string }));
  if (!exchanged.ok) throw new Error(`token exchange: ${await exchanged.text()}`);
  const jag = ((await exchanged.json()) as { access_token: string }).access_token;
  const basic = Buffer.from(`${ctx["client_id"]}:${ctx["client_secret"]}`).toString("base64");
  const granted = await fetch(as.token_endpoint, { ...form({ grant_type: JWT_BEARER, assertion: jag }), headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` } });
  if (!granted.ok) throw new Error(`JWT bearer grant: ${await granted.text()}`);
  const token = ((await granted.json()) as { access_token: string }).access_token;
  const client = new Client({ name: "xaa", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  await client.listTools();
  await client.callTool({ name: "test-tool", arguments: {} });
  await client.close();
}

describe("official auth extension scenarios", () => {
  test("the catalogue holds both under the suite's names, off the spec timeline (no listing by revision holds an extension's scenario)", () => {
    const names = scenarioNames({ suite: "official" });
    expect(names.filter((n) => n === "auth/enterprise-managed-authorization" || n === "auth/wif-jwt-bearer")).toEqual(["auth/enterprise-managed-authorization", "auth/wif-jwt-bearer"]);
    for (const specVersion of ["2025-11-25", "2026-07-28"]) expect(scenarioNames({ suite: "official", specVersion })).not.toContain("auth/wif-jwt-bearer");
  });

  test("wif-jwt-bearer: the v1 client with a JWT bearer provider passes", async () => {
    const verdict = await runScenario("auth/wif-jwt-bearer", {}, (url, context) => wifClient(url, context));
    expect(failed(verdict)).toEqual([]);
    expect(verdict.passed).toBe(true);
    expect(verdict.checks.filter((c) => c.id === "wif-assertion-verified" || c.id === "valid-bearer-token").map((c) => c.id)).toEqual(["valid-bearer-token", "valid-bearer-token", "valid-bearer-token", "wif-assertion-verified"]);
  });

  test("wif-jwt-bearer: the wrong audience fails wif-assertion-audience, and the SDK's retry warns wif-no-retry", async () => {
    const verdict = await runScenario("auth/wif-jwt-bearer", {}, (url, context) => wifClient(url, context, "wrong-audience"));
    expect(failed(verdict)).toEqual(["wif-assertion-audience FAILURE", "wif-no-retry WARNING"]);
    expect(verdict.checks.find((c) => c.id === "wif-assertion-audience")?.errorMessage).toBe('The client presented an assertion the authorization server refused: The assertion\'s aud ("https://wrong.example") does not name this authorization server.');
    expect(verdict.clientError).toMatch(/Retry not allowed for JWT-bearer grant/);
  });

  test("wif-jwt-bearer: falling back to authorization_code after unauthorized_client warns wif-grant-fallback", async () => {
    const verdict = await runScenario("auth/wif-jwt-bearer", {}, (url, context) => wifClient(url, context, "grant-fallback"));
    // The made-up code has no verifier: the PKCE checks of any authorization_code request fail too, as the suite's.
    expect(failed(verdict).sort()).toEqual(["pkce-code-verifier-sent FAILURE", "pkce-verifier-matches-challenge FAILURE", "wif-grant-fallback WARNING"]);
    expect(verdict.checks.find((c) => c.id === "wif-grant-fallback")?.errorMessage).toBe("After its JWT-bearer token request was refused, the client switched to grant_type authorization_code.");
  });

  test("enterprise-managed-authorization: the token exchange and the JWT bearer grant by hand, then the v1 client, pass", async () => {
    const verdict = await runScenario("auth/enterprise-managed-authorization", {}, (url, context) => xaaClient(url, context));
    expect(failed(verdict)).toEqual([]);
    expect(verdict.passed).toBe(true);
    expect(verdict.checks.filter((c) => c.id.startsWith("complete-flow-")).map((c) => `${c.id} ${c.status}`)).toEqual(["complete-flow-token-exchange SUCCESS", "complete-flow-jwt-bearer SUCCESS"]);
    expect(verdict.checks.filter((c) => c.id === "valid-bearer-token")).toHaveLength(4);
  });

  test("enterprise-managed-authorization: an ID-JAG for the wrong resource fails complete-flow-jwt-bearer, saying which", async () => {
    const verdict = await runScenario("auth/enterprise-managed-authorization", {}, (url, context) => xaaClient(url, context, true));
    expect(failed(verdict)).toEqual(["complete-flow-jwt-bearer FAILURE"]);
    expect(verdict.checks.find((c) => c.id === "complete-flow-jwt-bearer")?.errorMessage).toMatch(/^The client's JWT-bearer request was refused: The ID-JAG's resource "http:\/\/127\.0\.0\.1:\d+" is not this server's protected resource/);
  });

  test("a client that does nothing fails each scenario's own checks, not silently", async () => {
    const xaa = await runScenario("auth/enterprise-managed-authorization", {}, async () => {});
    expect(failed(xaa)).toEqual(["complete-flow-token-exchange FAILURE", "complete-flow-jwt-bearer FAILURE"]);
    const wif = await runScenario("auth/wif-jwt-bearer", {}, async () => {});
    expect(wif.checks).toEqual([{ id: "wif-assertion-verified", status: "FAILURE", description: "Client did not make a JWT-bearer token request", errorMessage: "The client never asked the token endpoint for a token." }]);
  });
});
