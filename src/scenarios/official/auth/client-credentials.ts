/**
 * `auth/client-credentials-jwt` and `auth/client-credentials-basic` (official, the client
 * credentials extension `io.modelcontextprotocol/oauth-client-credentials`, SEP-1046): the
 * authorization server takes the `client_credentials` grant only, from the one client
 * `MCP_CONFORMANCE_CONTEXT` names, authenticated one way.
 * - jwt: `private_key_jwt` (RFC 7523). The scenario makes an ES256 key pair for each run and hands
 *   the client the private key (`private_key_pem`, `signing_algorithm`); the server knows the public
 *   key. Check `client-credentials-jwt-verified`: the assertion verifies with jose against that key,
 *   its `aud` is the issuer (with or without a trailing slash), and then its `iss` and `sub` are the
 *   client's id (`client-credentials-jwt-iss`, `-sub` when not); `client-credentials-assertion-type`
 *   when the assertion's type is wrong.
 * - basic: `client_secret_basic` with the context's `client_id` and `client_secret`. Check
 *   `client-credentials-basic-auth`.
 * Either fails `client-credentials-grant-type` at a token request of another grant.
 * @module
 */
import { exportJWK, exportPKCS8, generateKeyPair, jwtVerify, type CryptoKey } from "jose";
import type { Check } from "../../check.js";
import type { Scenario } from "../../scenario.js";
import { authScenario, type TokenRequest } from "./auth-scenario.js";
import { JWT_BEARER_ASSERTION_TYPE } from "../../../auth/client-assertion.js";

/** The client the suite's authorization server knows, and its secret (for basic). */
/** The extension both scenarios belong to (SEP-1046). */
const EXTENSION = "io.modelcontextprotocol/oauth-client-credentials";
const CLIENT_ID = "conformance-test-client";
const CLIENT_SECRET = "conformance-test-secret";
const GRANT = "client-credentials-grant-type";
const JWT = "client-credentials-jwt-verified";
const BASIC = "client-credentials-basic-auth";
const NO_REQUEST = "Client did not make a client_credentials token request";
/** The clock skew the suite's authorization server allows. */
const CLOCK_TOLERANCE_SECONDS = 30;

/** `client-credentials-grant-type` when a token request asks another grant; `undefined` for client_credentials. */
function grantCheck(form: URLSearchParams): Check | undefined {
  const grant = form.get("grant_type");
  if (grant === "client_credentials") return undefined;
  return { id: GRANT, status: "FAILURE", description: `Expected grant_type=client_credentials, got ${grant ?? "undefined"}`, errorMessage: `The client asked the token endpoint for grant_type ${grant ?? "(none)"}; this authorization server takes client_credentials only.` };
}

/** The checks, with the one that none was made when `id` is not among them (as the suite adds it). */
function orNoRequest(id: string, checks: readonly Check[]): Check[] {
  if (checks.some((c) => c.id === id)) return [...checks];
  const asked = checks.some((c) => c.id === "token-request");
  return [...checks, { id, status: "FAILURE", description: NO_REQUEST, errorMessage: asked ? "No token request of the client authenticated it (the checks above say why)." : "The client never asked the token endpoint for a token." }];
}

const DESCRIPTIONS = {
  jwt: "Tests OAuth client_credentials flow with private_key_jwt authentication (SEP-1046)",
  basic: "Tests OAuth client_credentials flow with client_secret_basic authentication",
};

/** The suite's verdict on one assertion, verified with jose against the scenario's public key, `aud` the issuer the client was shown. */
async function verifyAssertion(assertion: string, publicKey: CryptoKey, issuer: string): Promise<Check> {
  try {
    const { payload } = await jwtVerify(assertion, publicKey, { audience: [issuer, `${issuer}/`], clockTolerance: CLOCK_TOLERANCE_SECONDS });
    for (const claim of ["iss", "sub"] as const) {
      if (payload[claim] !== CLIENT_ID) {
        const actual = payload[claim];
        return { id: `client-credentials-jwt-${claim}`, status: "FAILURE", description: `JWT ${claim} claim '${String(actual)}' does not match expected client_id '${CLIENT_ID}'`, errorMessage: `The client's assertion said ${claim} ${JSON.stringify(actual ?? null)}; RFC 7523 section 3 asks the client_id, ${CLIENT_ID}.`, details: { expected: CLIENT_ID, actual } };
      }
    }
    return { id: JWT, status: "SUCCESS", description: "Client successfully authenticated with signed JWT assertion", details: { iss: payload.iss, sub: payload.sub, aud: payload.aud } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const what = /signature/.test(message) ? "was not signed with the private key the scenario gave it" : /"aud"/.test(message) ? `named an aud other than the authorization server's issuer ${issuer}` : "did not verify";
    return { id: JWT, status: "FAILURE", description: `JWT verification failed: ${message}`, errorMessage: `The client's assertion ${what} (jose: ${message}).`, details: { error: message } };
  }
}

/** `auth/client-credentials-jwt`: a key pair for each run, an authorization server that knows its public half. */
export const clientCredentialsJwt: Scenario = {
  name: "auth/client-credentials-jwt",
  suite: "official",
  description: DESCRIPTIONS.jwt,
  specVersions: ["2025-11-25", "2026-07-28"],
  extension: EXTENSION,
  async start(start) {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const privateKeyPem = await exportPKCS8(privateKey);
    /** Each assertion to verify once the client is done, by the placeholder check that stands for it. */
    const pending = new Map<Check, { assertion: string; issuer: string }>();
    const onToken = ({ form, request }: TokenRequest): Check[] => {
      const wrongGrant = grantCheck(form);
      if (wrongGrant) return [wrongGrant];
      const type = form.get("client_assertion_type");
      if (type !== JWT_BEARER_ASSERTION_TYPE) return [{ id: "client-credentials-assertion-type", status: "FAILURE", description: `Invalid client_assertion_type: ${type ?? "undefined"}`, errorMessage: `The client sent client_assertion_type ${type ?? "(none)"}, not ${JWT_BEARER_ASSERTION_TYPE} (RFC 7523 section 2.2).` }];
      const placeholder: Check = { id: JWT, status: "FAILURE", description: "JWT verification pending" };
      pending.set(placeholder, { assertion: form.get("client_assertion") ?? "", issuer: `http://${request.headers["host"] ?? ""}` });
      return [placeholder];
    };
    const scenario = authScenario({
      name: clientCredentialsJwt.name,
      description: DESCRIPTIONS.jwt,
      auth: { grantTypes: ["client_credentials"], tokenEndpointAuthMethods: ["private_key_jwt"], clientIdMetadataDocuments: false, clients: [{ clientId: CLIENT_ID, jwks: { keys: [await exportJWK(publicKey)] } }] },
      context: { client_id: CLIENT_ID, private_key_pem: privateKeyPem, signing_algorithm: "ES256" },
      onToken,
    });
    const run = await scenario.start(start);
    return {
      ...run,
      async checks() {
        const checks = await run.checks();
        const verified = new Map<Check, Check>();
        for (const [placeholder, { assertion, issuer }] of pending) verified.set(placeholder, await verifyAssertion(assertion, publicKey, issuer));
        return orNoRequest(JWT, checks.map((c) => verified.get(c) ?? c));
      },
    };
  },
};

/** `auth/client-credentials-basic`: the client's id and secret in HTTP Basic. */
export const clientCredentialsBasic: Scenario = authScenario({
  name: "auth/client-credentials-basic",
  description: DESCRIPTIONS.basic,
  specVersions: ["2025-11-25", "2026-07-28"],
  extension: EXTENSION,
  auth: { grantTypes: ["client_credentials"], tokenEndpointAuthMethods: ["client_secret_basic"], clientIdMetadataDocuments: false, clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, tokenEndpointAuthMethod: "client_secret_basic" }] },
  context: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
  onToken: ({ form, authorization }): Check[] => {
    const wrongGrant = grantCheck(form);
    if (wrongGrant) return [wrongGrant];
    if (!authorization?.startsWith("Basic ")) {
      const how = form.get("client_secret") ? "sent its secret in the form (client_secret_post)" : form.get("client_assertion") ? "sent a client assertion (private_key_jwt)" : "sent no Authorization header";
      return [{ id: BASIC, status: "FAILURE", description: "Missing or invalid Authorization header for Basic auth", errorMessage: `The token request ${how}; the server takes client_secret_basic only.` }];
    }
    const [clientId, clientSecret] = Buffer.from(authorization.slice(6), "base64").toString("utf8").split(":");
    if (clientId !== CLIENT_ID || clientSecret !== CLIENT_SECRET) {
      return [{ id: BASIC, status: "FAILURE", description: "Invalid client credentials", errorMessage: `The Basic credentials named client ${clientId ?? "(none)"}${clientId === CLIENT_ID ? " with the wrong secret" : `, not ${CLIENT_ID}`}.`, details: { clientId } }];
    }
    return [{ id: BASIC, status: "SUCCESS", description: "Client successfully authenticated with client_secret_basic", details: { clientId } }];
  },
  atEnd: ({ checks }) => orNoRequest(BASIC, checks).slice(checks.length),
});

export const clientCredentialsScenarios: readonly Scenario[] = [clientCredentialsJwt, clientCredentialsBasic];
