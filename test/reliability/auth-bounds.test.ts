/**
 * The authorization server's memory, bounded by bytes whatever clients send, over real HTTP:
 * tokens granted with a form's worth of scopes each, and DPoP proofs with `jti`s of most of a
 * header's size. Before, each store was bounded by count alone (10,000 tokens, 10,000 auth events,
 * 10,000 `jti`s), which a client filling each with 60 KiB turned into gigabytes.
 */
import { randomBytes } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";
import { heapAfterGc } from "../support/heap.js";

const BASIC = `Basic ${Buffer.from("svc:s3cret").toString("base64")}`;

function grant(mock: McpMock, scope: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL("/token", mock.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: BASIC, ...headers }, body: new URLSearchParams({ grant_type: "client_credentials", scope }) });
}

describe("the authorization server's stores are bounded by bytes", () => {
  test("800 tokens asked with 60 KiB of scopes each: the oldest go past 32 MiB of tokens and 16 MiB of auth events; the newest works", async () => {
    await using mock = await McpMock.start({ auth: { grantTypes: ["client_credentials"], registration: false, clients: [{ clientId: "svc", clientSecret: "s3cret" }] }, onUnmatched: "silent" });
    let last = "";
    for (let i = 0; i < 800; i++) {
      // 30 distinct scope tokens of 2,000 characters, kept with the token and its auth event.
      const scope = Array.from({ length: 30 }, (_, n) => `${i}.${n}.`.padEnd(2_000, "x")).join(" ");
      const res = await grant(mock, scope);
      expect(res.status).toBe(200);
      last = ((await res.json()) as { access_token: string }).access_token;
    }
    const issued = mock.auth.issued();
    // Every token holds 60 KB of scopes: 32 MiB keeps about 550 of them, 16 MiB about 275 events.
    expect(issued.length).toBeGreaterThan(400);
    expect(issued.length).toBeLessThan(700);
    expect(issued.at(-1)?.id).toBe("token-800");
    expect(mock.auth.requests().length).toBeLessThan(400);
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    const res = await fetch(mock.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${last}` }, body: JSON.stringify(initialize) });
    expect(res.status).toBe(200);
    expect(mock.auth.requests({ endpoint: "mcp" }).at(-1)).toMatchObject({ status: 200, tokenId: "token-800" });
  }, 60_000);

  test("400 registrations with 60 KB of metadata each: the oldest clients are dropped past 16 MiB, saying so", async () => {
    await using mock = await McpMock.start({ auth: true, onUnmatched: "silent" });
    const ids: string[] = [];
    for (let i = 0; i < 400; i++) {
      const res = await fetch(new URL("/register", mock.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: ["http://127.0.0.1:9/cb"], client_name: `client ${i} `.padEnd(60_000, "x") }) });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { client_id: string }).client_id);
    }
    // 16 MiB keeps about 280 of them (the count alone, 1,000, would keep all 400).
    const dropped = mock.auth.requests({ outcome: "client-dropped" });
    expect(dropped.length).toBeGreaterThan(50);
    expect(dropped.length).toBeLessThan(200);
    expect(dropped[0]).toMatchObject({ clientId: ids[0], description: expect.stringContaining("at most 16 MiB of their metadata") });
    const url = new URL("/authorize", mock.url);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: ids[0] as string, redirect_uri: "http://127.0.0.1:9/cb", code_challenge: "x".repeat(43), code_challenge_method: "S256" })) url.searchParams.set(k, v);
    const refused = await fetch(url, { redirect: "manual" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("was registered, then dropped");
  }, 60_000);

  test("DPoP proofs with 10 KB jtis: the replay check keeps a digest of each, not the jti", async () => {
    await using mock = await McpMock.start({ auth: { dpop: true, grantTypes: ["client_credentials"], registration: false, clients: [{ clientId: "svc", clientSecret: "s3cret" }] }, onUnmatched: "silent" });
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    const jwk = await exportJWK(publicKey);
    const htu = new URL("/token", mock.url).href;
    const proof = (jti: string): Promise<string> => new SignJWT({ jti, htm: "POST", htu, iat: Math.floor(Date.now() / 1000) }).setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk }).sign(privateKey);
    const first = await proof(randomBytes(5_000).toString("hex"));
    expect((await grant(mock, "read", { dpop: first })).status).toBe(200);
    const before = heapAfterGc();
    for (let i = 0; i < 400; i++) {
      const res = await grant(mock, "read", { dpop: await proof(randomBytes(5_000).toString("hex")) });
      expect(res.status).toBe(200);
    }
    const grown = heapAfterGc() - before;
    // 400 jtis of 10 KB kept whole were 4 MB; a digest, a token and an auth event a request are
    // well under 1 MB.
    expect(grown).toBeLessThan(2 * 1024 * 1024);
    // The replay check still works on what it keeps.
    const replayed = await grant(mock, "read", { dpop: first });
    expect(replayed.status).toBe(400);
    expect(((await replayed.json()) as { error: string }).error).toBe("invalid_dpop_proof");
    expect(mock.auth.issued().at(-1)?.jkt).toBe(await calculateJwkThumbprint(jwk, "sha256"));
  }, 60_000);
});
