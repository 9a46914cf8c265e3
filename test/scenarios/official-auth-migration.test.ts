/**
 * `auth/authorization-server-migration` through `runScenario`, driven by the v2 SDK client pinned
 * to 2026-07-28 (the scenario's revision) and its own OAuth code, which keys stored credentials
 * by authorization server (SEP-2352): when the resource moves to the second server it registers
 * there and passes. The same client with a provider that drops the SDK's issuer stamp carries the
 * first server's client_id over, and one that never authorizes again keeps sending the first
 * server's token: each fails the checks about what it did, saying so.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { describe, expect, test, vi } from "vitest";
import { runScenario, type Verdict } from "../../src/scenarios/index.js";
import { TestOAuthProvider } from "../support/oauth-provider.js";

const NAME = "auth/authorization-server-migration";
type Breakage = "" | "forget-issuer" | "cached-discovery";

/**
 * The v2 provider. Right, it keeps the discovery state for one authorization only (the callback
 * leg needs it), so the next one reads the protected resource metadata anew; broken as
 * cached-discovery it keeps it for good (and the SDK goes back to the authorization server it
 * found first), as forget-issuer it keeps the RFC fields only (no issuer stamp).
 */
class Provider extends TestOAuthProvider {
  constructor(readonly breakage: Breakage) {
    super({ application_type: "native" } as never);
  }


  override saveClientInformation(info: Parameters<TestOAuthProvider["saveClientInformation"]>[0]): void {
    super.saveClientInformation(this.breakage === "forget-issuer" ? ({ ...info, issuer: undefined } as never) : info);
  }

  override saveTokens(tokens: Parameters<TestOAuthProvider["saveTokens"]>[0]): void {
    const fresh = tokens.access_token !== this.tokens()?.access_token;
    super.saveTokens(this.breakage === "forget-issuer" ? ({ ...tokens, issuer: undefined } as never) : tokens);
    // A new token ends the authorization (the SDK also saves a token again to stamp it: that ends nothing).
    if (fresh && this.breakage !== "cached-discovery") this.invalidateCredentials("discovery");
  }
}

/** The v2 client's interactive flow: an operation told 401 finishes the authorization with the callback and is tried again. */
async function v2(url: string, breakage: Breakage = ""): Promise<void> {
  const provider = new Provider(breakage);
  const open = (): StreamableHTTPClientTransport => new StreamableHTTPClientTransport(new URL(url), { authProvider: provider as never });
  const finish = async (transport: StreamableHTTPClientTransport, error: unknown): Promise<void> => {
    if (!(error instanceof UnauthorizedError)) throw error;
    await transport.finishAuth(new URLSearchParams(provider.lastRedirect?.search));
  };
  const pinned = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never;
  let transport = open();
  let client = new Client({ name: "v2-auth", version: "1.0.0" }, pinned);
  try {
    await client.connect(transport);
  } catch (error) {
    await finish(transport, error);
    transport = open();
    client = new Client({ name: "v2-auth", version: "1.0.0" }, pinned);
    await client.connect(transport);
  }
  const authorized = async <T>(step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (error) {
      await finish(transport, error);
      return step();
    }
  };
  try {
    await authorized(() => client.listTools());
    await authorized(() => client.callTool({ name: "test-tool", arguments: {} }));
  } finally {
    await client.close();
  }
}

function failed(verdict: Verdict): string[] {
  return verdict.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => `${c.id} ${c.status}`);
}

const count = (verdict: Verdict, id: string): number => verdict.checks.filter((c) => c.id === id).length;

describe("auth/authorization-server-migration", () => {
  test("the v2 client registers with the new authorization server and passes", async () => {
    const verdict = await runScenario(NAME, {}, (url) => v2(url));
    expect(verdict.specVersion).toBe("2026-07-28");
    expect(failed(verdict)).toEqual([]);
    expect(verdict.clientError).toBeUndefined();
    expect(verdict.passed).toBe(true);
    // One registration, authorization and token request at each server; SEP-837 asked of both registrations.
    for (const id of ["client-registration", "authorization-request", "token-request", "sep-837-application-type-present"]) expect({ id, n: count(verdict, id) }).toEqual({ id, n: 2 });
    expect(verdict.checks.slice(-3).map((c) => `${c.id} ${c.status}`)).toEqual(["sep-2352-reregister-on-as-change SUCCESS", "sep-2352-no-reuse-on-as-change SUCCESS", "sep-2352-no-cross-as-credential-reuse SUCCESS"]);
  });

  test("a provider that drops the issuer stamp carries the first server's client_id over: all three SEP-2352 checks fail, naming it", async () => {
    // The SDK notices the missing stamp, and says so (once for each read of the stored credentials).
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    let warned = "";
    const verdict = await runScenario(NAME, {}, (url) => v2(url, "forget-issuer")).finally(() => {
      warned = warn.mock.calls.flat().join("\n");
      warn.mockRestore();
    });
    expect(warned).toMatch(/SEP-2352: stored OAuth credential has no 'issuer' stamp/);
    expect(failed(verdict)).toEqual(["sep-2352-reregister-on-as-change FAILURE", "sep-2352-no-reuse-on-as-change FAILURE", "sep-2352-no-cross-as-credential-reuse FAILURE"]);
    const reuse = verdict.checks.find((c) => c.id === "sep-2352-no-reuse-on-as-change");
    expect(reuse?.errorMessage).toMatch(/^The client presented client_id client-\S+, registered at the first authorization server, at the new one's authorization endpoint and token endpoint \(http:\/\/127\.0\.0\.1:\d+\)\.$/);
    expect(reuse?.details).toMatchObject({ seenAtAuthorize: true, seenAtToken: true });
    expect(verdict.checks.find((c) => c.id === "sep-2352-reregister-on-as-change")?.errorMessage).toMatch(/^The client never registered with the new authorization server \(http:\/\/127\.0\.0\.1:\d+\); it presented the first server's client_id client-\S+ there\.$/);
    // The new server knows the old clients (as the suite's takes any): the client got through, and was caught all the same.
    expect(verdict.clientError).toBeUndefined();
    expect(count(verdict, "client-registration")).toBe(1);
  });

  test("a provider that keeps the discovery state for good sends the client back to the first server: re-registration fails, saying so", async () => {
    const verdict = await runScenario(NAME, {}, (url) => v2(url, "cached-discovery"));
    expect(failed(verdict)).toEqual(["sep-2352-reregister-on-as-change FAILURE"]);
    expect(verdict.checks.find((c) => c.id === "sep-2352-reregister-on-as-change")?.errorMessage).toMatch(/^The client never asked the new authorization server \(http:\/\/127\.0\.0\.1:\d+\) anything: it went back to the first one \(http:\/\/127\.0\.0\.1:\d+\) for another token, which the resource refused \(2 requests refused: authorization server has changed\)\.$/);
    // A second authorization at the first server, none at the new one.
    expect(count(verdict, "client-registration")).toBe(1);
    expect(count(verdict, "token-request")).toBe(2);
    expect(verdict.clientError).toBe("Unauthorized");
    expect(verdict.passed).toBe(false);
  });

  test("a client that never connects: the resource never moved, and re-registration fails saying so", async () => {
    const verdict = await runScenario(NAME, {}, async () => {});
    expect(verdict.checks.map((c) => `${c.id} ${c.status}`)).toEqual(["sep-2352-reregister-on-as-change FAILURE", "sep-2352-no-reuse-on-as-change SUCCESS", "sep-2352-no-cross-as-credential-reuse SUCCESS"]);
    expect(verdict.checks[0]?.errorMessage).toBe("The resource never moved: the client sent no MCP request with a token the resource server knew.");
  });
});
