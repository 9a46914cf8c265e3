/**
 * The official DPoP scenarios (`auth/dpop`, `auth/dpop-nonce`) through `runScenario`, driven by
 * the v1 SDK client and its own OAuth code with a DPoP layer on its fetch (the way an
 * application adds DPoP to that SDK, which has none): a proof of one ES256 key on the token
 * request and on every MCP request, the token presented with the `DPoP` scheme, a
 * `use_dpop_nonce` challenge answered once. The right client passes both; one broken on purpose
 * (the bound token sent as Bearer, one proof reused, no proof at the token endpoint or on the
 * MCP requests, nonces ignored) fails exactly the checks about what it broke, with a message that says what it did.
 */
import { createHash, randomBytes } from "node:crypto";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { describe, expect, test } from "vitest";
import { runScenario, scenarioNames, type Verdict } from "../../src/scenarios/index.js";
import { TestOAuthProvider } from "../support/oauth-provider.js";
import { connectAuthorized } from "./v1-client.js";

type Breakage = "" | "bearer" | "replay" | "no-token-proof" | "no-nonce" | "no-request-proof";

interface Key {
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

async function proof(key: Key, method: string, url: URL, extra: { token?: string; nonce?: string }): Promise<string> {
  const claims: Record<string, unknown> = { jti: randomBytes(12).toString("base64url"), htm: method, htu: `${url.origin}${url.pathname}`, iat: Math.floor(Date.now() / 1000) };
  if (extra.token !== undefined) claims["ath"] = createHash("sha256").update(extra.token, "ascii").digest("base64url");
  if (extra.nonce !== undefined) claims["nonce"] = extra.nonce;
  return new SignJWT(claims).setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: key.jwk }).sign(key.privateKey);
}

/** The DPoP layer on the SDK's fetch, broken as asked. */
async function dpopFetch(breakage: Breakage): Promise<FetchLike> {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const key = { privateKey, jwk: await exportJWK(publicKey) };
  let resourceNonce: string | undefined;
  const reused = new Map<string, string>();
  const nonceOf = async (res: Response): Promise<string | undefined> => {
    const nonce = res.headers.get("dpop-nonce");
    if (nonce === null || breakage === "no-nonce") return undefined;
    if (res.status === 400) return ((await res.clone().json()) as { error?: string }).error === "use_dpop_nonce" ? nonce : undefined;
    return res.status === 401 && (res.headers.get("www-authenticate") ?? "").includes("use_dpop_nonce") ? nonce : undefined;
  };
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? "GET").toUpperCase();
    // The SDK's token request: a form with a grant_type.
    if (init?.body instanceof URLSearchParams && init.body.has("grant_type")) {
      const send = async (nonce?: string): Promise<Response> => {
        const headers = new Headers(init.headers);
        if (breakage !== "no-token-proof") headers.set("dpop", await proof(key, "POST", url, { ...(nonce ? { nonce } : {}) }));
        return fetch(input, { ...init, headers });
      };
      const first = await send();
      const nonce = await nonceOf(first);
      return nonce ? send(nonce) : first;
    }
    const bearer = /^Bearer (\S+)$/.exec(new Headers(init?.headers).get("authorization") ?? "");
    if (!bearer) return fetch(input, init);
    const token = bearer[1] as string;
    const send = async (): Promise<Response> => {
      const headers = new Headers(init?.headers);
      headers.set("authorization", `${breakage === "bearer" ? "Bearer" : "DPoP"} ${token}`);
      // Reused: one proof per token, for every request (a nonce asked for makes a new one).
      let value = breakage === "replay" ? reused.get(`${token} ${resourceNonce}`) : undefined;
      value ??= await proof(key, method, url, { token, ...(resourceNonce ? { nonce: resourceNonce } : {}) });
      if (breakage === "replay") reused.set(`${token} ${resourceNonce}`, value);
      if (breakage !== "no-request-proof") headers.set("dpop", value);
      return fetch(input, { ...init, headers });
    };
    const first = await send();
    const nonce = await nonceOf(first);
    if (nonce === undefined) return first;
    resourceNonce = nonce;
    return send();
  };
}

/** The v1 client's interactive flow with the DPoP layer: told 401, it finishes the authorization and connects anew; then lists and calls. */
async function v1(url: string, breakage: Breakage): Promise<void> {
  const provider = new TestOAuthProvider();
  const fetchFn = await dpopFetch(breakage);
  const open = (): StreamableHTTPClientTransport => new StreamableHTTPClientTransport(new URL(url), { authProvider: provider, fetch: fetchFn });
  const { client } = await connectAuthorized(open, provider, "v1-dpop");
  try {
    await client.listTools();
    await client.callTool({ name: "test-tool", arguments: {} });
  } finally {
    await client.close();
  }
}

function failed(verdict: Verdict): string[] {
  return verdict.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => c.id);
}

function message(verdict: Verdict, id: string): string | undefined {
  return verdict.checks.find((c) => c.id === id)?.errorMessage;
}

describe("the DPoP scenarios (SEP-1932) with the v1 client and a DPoP layer on its fetch", () => {
  test("an extension's scenarios: named, they play at 2025-11-25; no listing by revision holds them", () => {
    expect(scenarioNames({ suite: "official" })).toEqual(expect.arrayContaining(["auth/dpop", "auth/dpop-nonce"]));
    for (const specVersion of ["2025-11-25", "2026-07-28"]) expect(scenarioNames({ specVersion }).filter((n) => n.startsWith("auth/dpop"))).toEqual([]);
  });

  test.each(["auth/dpop", "auth/dpop-nonce"])("the right client passes %s, every check of the suite's", async (name) => {
    const verdict = await runScenario(name, {}, (url) => v1(url, ""));
    expect([verdict.specVersion, verdict.clientError, failed(verdict)]).toEqual(["2025-11-25", undefined, []]);
    const own = ["sep-1932-client-token-request-proof", "sep-1932-client-dpop-auth-scheme", "sep-1932-client-fresh-proof", ...(name === "auth/dpop-nonce" ? ["sep-1932-client-as-nonce", "sep-1932-client-rs-nonce"] : [])];
    expect(verdict.checks.map((c) => c.id)).toEqual(expect.arrayContaining(["token-request", "pkce-verifier-matches-challenge", ...own]));
    // One check per id in -nonce, as the suite keeps them (the token request was made twice).
    expect(verdict.checks.filter((c) => c.id === "token-request")).toHaveLength(1);
    expect(verdict.passed).toBe(true);
  });

  test("presenting the bound token as Bearer fails sep-1932-client-dpop-auth-scheme, naming the scheme", async () => {
    const verdict = await runScenario("auth/dpop", {}, (url) => v1(url, "bearer"));
    expect(failed(verdict)).toEqual(["sep-1932-client-dpop-auth-scheme"]);
    expect(message(verdict, "sep-1932-client-dpop-auth-scheme")).toBe("Client presented the token with a non-DPoP Authorization scheme (Bearer)");
    expect(verdict.clientError).toBe("Unauthorized");
  });

  test("one proof for every request fails sep-1932-client-fresh-proof: the MCP server saw its jti again", async () => {
    const verdict = await runScenario("auth/dpop", {}, (url) => v1(url, "replay"));
    expect(failed(verdict)).toEqual(["sep-1932-client-fresh-proof"]);
    expect(message(verdict, "sep-1932-client-fresh-proof")).toBe("Client reused a DPoP proof (duplicate jti) across requests instead of sending a fresh one");
  });

  test("no proof at the token endpoint fails the token request check, and the bearer token it got is no DPoP token", async () => {
    const verdict = await runScenario("auth/dpop", {}, (url) => v1(url, "no-token-proof"));
    expect(failed(verdict)).toEqual(["sep-1932-client-token-request-proof", "sep-1932-client-fresh-proof"]);
    expect(message(verdict, "sep-1932-client-token-request-proof")).toBe("Client did not present a valid DPoP proof at the token endpoint: the token request carried no DPoP proof, so the token issued was a bearer token, not a DPoP-bound one");
    expect(message(verdict, "sep-1932-client-fresh-proof")).toMatch(/^DPoP proof was missing or malformed: The access token is not DPoP-bound/);
  });

  test("the DPoP scheme without a proof fails sep-1932-client-fresh-proof: the proof was missing", async () => {
    const verdict = await runScenario("auth/dpop", {}, (url) => v1(url, "no-request-proof"));
    expect(failed(verdict)).toEqual(["sep-1932-client-fresh-proof"]);
    expect(message(verdict, "sep-1932-client-fresh-proof")).toBe("DPoP proof was missing or malformed: missing DPoP proof header.");
  });

  test("ignoring the nonces fails sep-1932-client-as-nonce, and the client never reaches the MCP server", async () => {
    const verdict = await runScenario("auth/dpop-nonce", {}, (url) => v1(url, "no-nonce"));
    expect(failed(verdict)).toEqual(["sep-1932-client-dpop-auth-scheme", "sep-1932-client-fresh-proof", "sep-1932-client-as-nonce", "sep-1932-client-rs-nonce"]);
    expect(message(verdict, "sep-1932-client-as-nonce")).toBe("Client did not complete the token request with the server-supplied nonce after a use_dpop_nonce challenge: the authorization server saw no later proof that carried it");
    expect(message(verdict, "sep-1932-client-dpop-auth-scheme")).toBe("Client never presented an access token to the MCP server");
    // Without the nonce, auth/dpop (no nonce demanded) is all this client passes.
    expect((await runScenario("auth/dpop", {}, (url) => v1(url, "no-nonce"))).passed).toBe(true);
  });

  test("a client that never connects fails every DPoP check, saying so", async () => {
    const verdict = await runScenario("auth/dpop-nonce", {}, async () => {});
    expect(verdict.checks.map((c) => `${c.id} ${c.status}`)).toEqual(["sep-1932-client-token-request-proof FAILURE", "sep-1932-client-dpop-auth-scheme FAILURE", "sep-1932-client-fresh-proof FAILURE", "sep-1932-client-as-nonce FAILURE", "sep-1932-client-rs-nonce FAILURE"]);
    expect(message(verdict, "sep-1932-client-token-request-proof")).toBe("Client never completed an authorization_code token request, so it obtained no DPoP-bound token");
  });
});
