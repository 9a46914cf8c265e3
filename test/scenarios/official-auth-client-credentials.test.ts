/**
 * The client credentials extension's scenarios (`auth/client-credentials-basic`,
 * `auth/client-credentials-jwt`, SEP-1046) through `runScenario`, driven by the v1 SDK client and
 * its machine-to-machine providers (`ClientCredentialsProvider`, `PrivateKeyJwtProvider`) with the
 * credentials the scenario hands out (`MCP_CONFORMANCE_CONTEXT`): the right client passes, and one
 * broken on purpose (a wrong secret, the secret in the form, an assertion for another audience or
 * subject, of the wrong type) fails exactly the check about it, saying what it did.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ClientCredentialsProvider, createPrivateKeyJwtAuth, PrivateKeyJwtProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { describe, expect, test } from "vitest";
import { runScenario, scenarioNames, type ScenarioClientContext, type Verdict } from "../../src/scenarios/index.js";

const BASIC = "auth/client-credentials-basic";
const JWT = "auth/client-credentials-jwt";

interface Context {
  client_id: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
}

const contextOf = (client: ScenarioClientContext): Context => client.context as unknown as Context;

/** The v1 client with a machine-to-machine provider: connect, list the tools, close. */
async function connect(url: string, provider: OAuthClientProvider): Promise<void> {
  const client = new Client({ name: "v1-client-credentials", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  try {
    await client.listTools();
  } finally {
    await client.close();
  }
}

/** The issuer the scenario's authorization server names: the mock's origin. */
const issuerOf = (url: string): string => new URL(url).origin;

function basic(breakage?: "wrong-secret" | "secret-in-form") {
  return async (url: string, client: ScenarioClientContext): Promise<void> => {
    const ctx = contextOf(client);
    const provider = new ClientCredentialsProvider({ clientId: ctx.client_id, clientSecret: breakage === "wrong-secret" ? "not-the-secret" : (ctx.client_secret as string), expectedIssuer: issuerOf(url) });
    if (breakage === "secret-in-form") {
      Object.assign(provider, {
        addClientAuthentication: (_headers: Headers, params: URLSearchParams) => {
          params.set("client_id", ctx.client_id);
          params.set("client_secret", ctx.client_secret as string);
        },
      });
    }
    await connect(url, provider);
  };
}

function jwt(breakage?: "wrong-audience" | "wrong-subject" | "wrong-type") {
  return async (url: string, client: ScenarioClientContext): Promise<void> => {
    const ctx = contextOf(client);
    const alg = ctx.signing_algorithm ?? "ES256";
    const provider = new PrivateKeyJwtProvider({ clientId: ctx.client_id, privateKey: ctx.private_key_pem as string, algorithm: alg, expectedIssuer: issuerOf(url) });
    const sign = (claims: { subject?: string; audience?: string }): ReturnType<typeof createPrivateKeyJwtAuth> => createPrivateKeyJwtAuth({ issuer: ctx.client_id, subject: claims.subject ?? ctx.client_id, privateKey: ctx.private_key_pem as string, alg, ...(claims.audience ? { audience: claims.audience } : {}) });
    if (breakage === "wrong-audience") provider.addClientAuthentication = sign({ audience: `${issuerOf(url)}/token` });
    if (breakage === "wrong-subject") provider.addClientAuthentication = sign({ subject: "someone-else" });
    if (breakage === "wrong-type") {
      const right = sign({});
      provider.addClientAuthentication = async (headers, params, tokenUrl, metadata) => {
        await right(headers, params, tokenUrl, metadata);
        params.set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:saml2-bearer");
      };
    }
    await connect(url, provider);
  };
}

function failing(verdict: Verdict): string[] {
  return verdict.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => c.id);
}

describe("the client credentials scenarios (official, SEP-1046)", () => {
  test("the catalogue holds both under the suite's names, off the spec timeline (no listing by revision holds an extension's scenario)", () => {
    expect(scenarioNames({ suite: "official" }).filter((n) => n.startsWith("auth/client-credentials-"))).toEqual([JWT, BASIC]);
    for (const specVersion of ["2025-11-25", "2026-07-28"]) expect(scenarioNames({ suite: "official", specVersion }).filter((n) => n.startsWith("auth/client-credentials-"))).toEqual([]);
    expect(scenarioNames({ transport: "stdio" })).not.toContain(JWT);
  });

  test("client_secret_basic: the v1 client with the context's credentials passes; the resource server took its token", async () => {
    const verdict = await runScenario(BASIC, {}, basic());
    expect(verdict.clientError).toBeUndefined();
    expect(verdict.passed).toBe(true);
    expect(verdict.checks.find((c) => c.id === "client-credentials-basic-auth")).toMatchObject({ status: "SUCCESS", details: { clientId: "conformance-test-client" } });
    expect(verdict.checks.some((c) => c.id === "valid-bearer-token")).toBe(true);
  });

  test("private_key_jwt: the v1 client signs with the context's key and passes; the check shows the assertion's claims", async () => {
    const verdict = await runScenario(JWT, {}, jwt());
    expect(verdict.clientError).toBeUndefined();
    expect(verdict.passed).toBe(true);
    const check = verdict.checks.find((c) => c.id === "client-credentials-jwt-verified");
    expect(check).toMatchObject({ status: "SUCCESS", description: "Client successfully authenticated with signed JWT assertion", details: { iss: "conformance-test-client", sub: "conformance-test-client" } });
    expect(String(check?.details?.["aud"])).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test.each([
    [BASIC, "a wrong secret", basic("wrong-secret"), ["client-credentials-basic-auth"], "The Basic credentials named client conformance-test-client with the wrong secret."],
    [BASIC, "the secret in the form", basic("secret-in-form"), ["client-credentials-basic-auth"], "The token request sent its secret in the form (client_secret_post); the server takes client_secret_basic only."],
    [JWT, "an assertion for the token endpoint", jwt("wrong-audience"), ["client-credentials-jwt-verified"], /^The client's assertion named an aud other than the authorization server's issuer http:\/\/127\.0\.0\.1:\d+ \(jose: unexpected "aud" claim value\)\.$/],
    [JWT, "an assertion for another subject", jwt("wrong-subject"), ["client-credentials-jwt-sub", "client-credentials-jwt-verified"], 'The client\'s assertion said sub "someone-else"; RFC 7523 section 3 asks the client_id, conformance-test-client.'],
    [JWT, "the wrong assertion type", jwt("wrong-type"), ["client-credentials-assertion-type", "client-credentials-jwt-verified"], "The client sent client_assertion_type urn:ietf:params:oauth:client-assertion-type:saml2-bearer, not urn:ietf:params:oauth:client-assertion-type:jwt-bearer (RFC 7523 section 2.2)."],
  ] as Array<[string, string, (url: string, c: ScenarioClientContext) => Promise<void>, string[], string | RegExp]>)("%s, a client with %s fails exactly the check about it, saying what it did", async (name, _, drive, fails, message) => {
    const verdict = await runScenario(name, {}, drive);
    expect(verdict.passed).toBe(false);
    expect([...new Set(failing(verdict))]).toEqual(fails);
    const errorMessage = verdict.checks.find((c) => c.id === fails[0])?.errorMessage;
    if (typeof message === "string") expect(errorMessage).toBe(message);
    else expect(errorMessage).toMatch(message);
    // The embedded authorization server refused it (invalid_client) but for the secret in the form, which it takes.
    expect(verdict.checks.some((c) => c.id === "valid-bearer-token")).toBe(_ === "the secret in the form");
    if (fails.length > 1) expect(verdict.checks.find((c) => c.id === fails[1])?.errorMessage).toBe("No token request of the client authenticated it (the checks above say why).");
  });

  test("a client that never connects fails each scenario's own check, not silently", async () => {
    for (const [name, id] of [[BASIC, "client-credentials-basic-auth"], [JWT, "client-credentials-jwt-verified"]] as const) {
      const verdict = await runScenario(name, {}, async () => {});
      expect(verdict.checks).toEqual([{ id, status: "FAILURE", description: "Client did not make a client_credentials token request", errorMessage: "The client never asked the token endpoint for a token." }]);
    }
  });
});
