/**
 * The official auth/* scenarios through `runScenario`, driven by the v1 SDK client and its own
 * OAuth code (an `authProvider` whose "browser" follows the authorization URL): it passes the
 * scenarios it should, and clients broken on purpose (no PKCE, no resource parameter, a scope of
 * their own, registering where a metadata document would do) fail the checks about what they
 * broke, with a message that says what they did.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { describe, expect, test } from "vitest";
import { runScenario, scenarioNames, type ScenarioClientContext, type Verdict } from "../../src/scenarios/index.js";
import { REDIRECT_URL, TestOAuthProvider } from "../support/oauth-provider.js";
import { connectAuthorized } from "./v1-client.js";

type Breakage = "" | "no-pkce" | "no-resource" | "own-scope";

/** The v1 provider, broken as asked: the authorization URL loses its PKCE challenge or its resource, or asks a scope of its own. */
class Provider extends TestOAuthProvider {
  constructor(
    readonly breakage: Breakage,
    readonly metadataUrl?: string,
  ) {
    super();
  }

  get clientMetadataUrl(): string | undefined {
    return this.metadataUrl;
  }

  override async redirectToAuthorization(url: URL): Promise<void> {
    if (this.breakage === "no-pkce") ["code_challenge", "code_challenge_method"].forEach((p) => url.searchParams.delete(p));
    if (this.breakage === "no-resource") url.searchParams.delete("resource");
    if (this.breakage === "own-scope") url.searchParams.set("scope", "everything");
    await super.redirectToAuthorization(url);
  }
}

/** The token request, broken the same way (the SDK sends it through the transport's fetch). */
function breaking(breakage: Breakage): FetchLike {
  return async (input, init) => {
    if (init?.body instanceof URLSearchParams && init.body.has("grant_type")) {
      const form = new URLSearchParams(init.body);
      if (breakage === "no-pkce") form.delete("code_verifier");
      if (breakage === "no-resource") form.delete("resource");
      return fetch(input, { ...init, body: form });
    }
    return fetch(input, init);
  };
}

/** The v1 client's interactive flow: an operation told 401/403 finishes the authorization with the code and is tried again. */
async function v1(url: string, context: ScenarioClientContext, options: { breakage?: Breakage; metadataUrl?: string; work?: (client: Client) => Promise<unknown> } = {}): Promise<void> {
  const provider = new Provider(options.breakage ?? "", options.metadataUrl);
  const pre = context.context as { client_id?: string; client_secret?: string } | undefined;
  if (pre?.client_id) provider.saveClientInformation({ client_id: pre.client_id, client_secret: pre.client_secret, redirect_uris: [REDIRECT_URL] });
  const open = (): StreamableHTTPClientTransport => new StreamableHTTPClientTransport(new URL(url), { authProvider: provider, fetch: breaking(options.breakage ?? "") });
  const { client, transport } = await connectAuthorized(open, provider, "v1-auth");
  const authorized = async <T>(step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
      await transport.finishAuth(provider.code());
      return step();
    }
  };
  try {
    await (options.work ?? (async (c) => {
      await authorized(() => c.listTools());
      await authorized(() => c.callTool({ name: "test-tool", arguments: {} }));
    }))(client);
  } finally {
    await client.close();
  }
}

function failed(verdict: Verdict): string[] {
  return verdict.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => `${c.id} ${c.status}`);
}

const AUTH = scenarioNames({ suite: "official" }).filter((n) => n.startsWith("auth/"));
const AUTH_2025 = scenarioNames({ suite: "official", specVersion: "2025-11-25" }).filter((n) => n.startsWith("auth/"));

describe("official auth scenarios", () => {
  test("the catalogue holds the auth scenarios of the 2025-11-25 set, and those only 2026-07-28 has, under the suite's names", () => {
    expect(AUTH_2025).toEqual([
      "auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3", "auth/basic-cimd",
      "auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported", "auth/scope-omitted-when-undefined", "auth/scope-step-up", "auth/scope-retry-limit",
      "auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none", "auth/pre-registration",
    ]);
    expect(AUTH.filter((n) => !AUTH_2025.includes(n))).toEqual([
      "auth/resource-mismatch", "auth/offline-access-scope", "auth/offline-access-not-supported", "auth/authorization-server-migration",
      "auth/iss-supported", "auth/iss-not-advertised", "auth/iss-supported-missing", "auth/iss-wrong-issuer", "auth/iss-unexpected", "auth/iss-normalized", "auth/metadata-issuer-mismatch",
      // The extensions' (off the spec timeline: no listing by revision holds them; their own tests drive them).
      "auth/client-credentials-jwt", "auth/client-credentials-basic", "auth/enterprise-managed-authorization", "auth/wif-jwt-bearer", "auth/dpop", "auth/dpop-nonce",
    ]);
  });

  // The v1 client registers (no metadata document URL): basic-cimd is the one it should not pass.
  test.each(AUTH_2025.filter((n) => n !== "auth/basic-cimd"))("the v1 client passes %s", async (name) => {
    const verdict = await runScenario(name, {}, (url, context) => v1(url, context, name === "auth/pre-registration" ? { work: (c) => c.listTools() } : {}));
    expect(failed(verdict)).toEqual([]);
    // retry-limit's server says 403 for ever: the client gives up with an error, which that scenario expects.
    if (name === "auth/scope-retry-limit") expect(verdict.clientError).toBe("Unauthorized");
    else expect(verdict.clientError).toBeUndefined();
    expect(verdict.passed).toBe(true);
    expect(verdict.checks.some((c) => c.id === "token-request" && c.status === "SUCCESS")).toBe(true);
  });

  test("basic-cimd: registering warns (SHOULD use the document URL); the same client with a client ID metadata document URL passes", async () => {
    const registers = await runScenario("auth/basic-cimd", {}, (url, context) => v1(url, context));
    expect(failed(registers)).toEqual(["cimd-client-id-used WARNING"]);
    expect(registers.checks.find((c) => c.id === "cimd-client-id-used")?.errorMessage).toMatch(/^The client authorized as client-\S+ \(registered, or pre-set\) instead of its client ID metadata document URL\.$/);
    const cimd = await runScenario("auth/basic-cimd", {}, (url, context) => v1(url, context, { metadataUrl: "https://conformance-test.local/client-metadata.json" }));
    expect(cimd.passed).toBe(true);
    expect(cimd.checks.some((c) => c.id === "client-registration")).toBe(false);
  });

  test("a client without PKCE fails the PKCE checks, saying what it sent", async () => {
    const verdict = await runScenario("auth/metadata-default", {}, (url, context) => v1(url, context, { breakage: "no-pkce" }));
    expect(verdict.passed).toBe(false);
    expect(failed(verdict)).toEqual(expect.arrayContaining(["pkce-code-challenge-sent FAILURE", "pkce-s256-method-used FAILURE"]));
    expect(verdict.checks.find((c) => c.id === "pkce-code-challenge-sent")?.errorMessage).toBe("The authorization request had no code_challenge (PKCE).");
    expect(verdict.checks.find((c) => c.id === "pkce-s256-method-used")?.errorMessage).toBe("The authorization request's code_challenge_method was not specified, not S256.");
    // The mock's authorization server refused it (PKCE is required), so the flow ended there.
    expect(verdict.clientError).toMatch(/error=invalid_request&error_description=%5Bmcpmock%5D\+PKCE\+is\+required/);
  });

  test("a client without the resource parameter fails resource-parameter-in-authorization", async () => {
    const verdict = await runScenario("auth/token-endpoint-auth-none", {}, (url, context) => v1(url, context, { breakage: "no-resource" }));
    expect(verdict.passed).toBe(false);
    expect(verdict.checks.find((c) => c.id === "resource-parameter-in-authorization")).toMatchObject({ status: "FAILURE", errorMessage: "The authorization request had no resource parameter." });
    expect(verdict.clientError).toMatch(/error=invalid_target&error_description=%5Bmcpmock%5D\+The\+resource\+parameter/);
  });

  test("a client that asks a scope of its own fails scope-from-www-authenticate with the scope it asked", async () => {
    const verdict = await runScenario("auth/scope-from-www-authenticate", {}, (url, context) => v1(url, context, { breakage: "own-scope" }));
    expect(verdict.passed).toBe(false);
    expect(verdict.checks.find((c) => c.id === "scope-from-www-authenticate")).toMatchObject({ status: "WARNING", errorMessage: 'The 401 named scope "mcp:basic"; the client asked for everything.' });
  });

  test("step-up on 2026-07-28 also asks the client to keep the scopes it had (sep-2350-scope-union-on-reauth)", async () => {
    const verdict = await runScenario("auth/scope-step-up", { specVersion: "2026-07-28" }, async () => {});
    expect(verdict.checks.map((c) => `${c.id} ${c.status}`)).toEqual(["scope-step-up-initial FAILURE", "scope-step-up-escalation FAILURE", "sep-2350-scope-union-on-reauth FAILURE"]);
  });

  test("a client that never connects fails each scenario's own check, not silently", async () => {
    const verdict = await runScenario("auth/pre-registration", {}, async () => {});
    expect(verdict.checks).toEqual([{ id: "pre-registration-auth", status: "FAILURE", description: "Client did not make a token request", errorMessage: "The client never asked the token endpoint for a token." }]);
  });
});
