/**
 * `auth/wif-jwt-bearer` (official extension `io.modelcontextprotocol/auth/wif`, SEP-1933):
 * workload identity federation. The context hands the client a workload JWT (`valid_jwt`, and
 * for negative tests `wrong_audience_jwt` and `expired_jwt`); the client must exchange it at the
 * token endpoint with the RFC 7523 JWT bearer grant (`grant_type=...:jwt-bearer`,
 * `assertion=<JWT>`), and surface a refusal without retrying or switching grant types. The
 * embedded authorization server verifies the assertion (`auth.jwtBearer`); the scenario's own
 * token gate plays the suite's refusals: `unauthorized_client` for the scope
 * `wif.trigger-unauthorized`, and every request after a refusal. Checks: `wif-assertion-verified`,
 * `wif-assertion-missing`, `wif-assertion-expired`, `wif-assertion-audience`,
 * `wif-assertion-malformed`, `wif-grant-type`, and the WARNINGs `wif-no-retry`, `wif-grant-fallback`.
 * @module
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { AuthEvent } from "../../../index.js";
import { JWT_BEARER_GRANT } from "../../../auth/jwt-bearer-grant.js";
import type { Check } from "../../check.js";
import type { Scenario, ScenarioRun, ScenarioStart } from "../../scenario.js";
import type { TappedRequest } from "../../wire-tap.js";
import { authScenario, type TokenRequest } from "./auth-scenario.js";

const CLIENT_ID = "conformance-wif-workload";
const ISSUER = "https://idp.conformance-test.local";
const SUBJECT = "conformance-workload";
/** The scope the suite's authorization server answers `unauthorized_client` for. */
const TRIGGER_UNAUTHORIZED = "wif.trigger-unauthorized";
/** The one scope the authorization server knows: another (`wif.rejected`) is `invalid_scope`. */
const SCOPE = "mcp:basic";

function workloadJwt(key: CryptoKey, audience: string, expiresIn: string): Promise<string> {
  return new SignJWT({}).setProtectedHeader({ alg: "ES256" }).setIssuer(ISSUER).setSubject(SUBJECT).setAudience(audience).setExpirationTime(expiresIn).setJti(randomUUID()).setIssuedAt().sign(key);
}

function refuse(response: ServerResponse, error: string, description: string): true {
  response.writeHead(400, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify({ error, error_description: description }));
  return true;
}

const VERIFIED: Check = { id: "wif-assertion-verified", status: "SUCCESS", description: "Workload JWT assertion verified — signature, audience, and expiry are valid (iss not validated; keypair is run-scoped)" };

/** The suite's check of a JWT-bearer request the authorization server answered (`event`). */
function judged({ form }: TokenRequest, event: AuthEvent | undefined): Check {
  if (!form.get("assertion")) return { id: "wif-assertion-missing", status: "FAILURE", description: "Missing assertion parameter in JWT-bearer token request", errorMessage: "The client's JWT-bearer token request had no assertion parameter." };
  if (event?.status === 200 || event?.outcome === "invalid_scope") return VERIFIED;
  const why = event?.description ?? "the authorization server did not answer it";
  const said = `The client presented an assertion the authorization server refused: ${why}`;
  if (event?.outcome === "invalid_grant" && /has expired/.test(why)) return { id: "wif-assertion-expired", status: "FAILURE", description: `JWT-bearer assertion is expired: ${why}`, errorMessage: said };
  if (event?.outcome === "invalid_grant" && /does not name this authorization server/.test(why)) return { id: "wif-assertion-audience", status: "FAILURE", description: `JWT-bearer assertion audience claim is invalid: ${why}`, errorMessage: said };
  return { id: "wif-assertion-malformed", status: "FAILURE", description: `JWT-bearer assertion is malformed or has an invalid signature: ${why}`, errorMessage: said };
}

export const wifJwtBearer: Scenario = {
  name: "auth/wif-jwt-bearer",
  suite: "official",
  description:
    "Tests the RFC 7523 JWT-bearer grant for workload identity federation (SEP-1933). The client must: use grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer, include the workload JWT as the assertion parameter, and surface errors (invalid_grant, invalid_scope, unauthorized_client) without retrying or switching grant types.",
  // An extension, off the spec timeline: the suite plays it at 2025-11-25.
  specVersions: ["2025-11-25"],
  extension: "io.modelcontextprotocol/auth/wif",
  async start(options: ScenarioStart): Promise<ScenarioRun> {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    /** The token requests the gate answered itself, with the check each made. */
    const answered = new Map<TappedRequest, Check>();
    let received = false;
    let valid = "";
    const inner = authScenario({
      name: wifJwtBearer.name,
      description: wifJwtBearer.description,
      auth: { registration: false, clientIdMetadataDocuments: false, tokenEndpointAuthMethods: ["none"], clients: [{ clientId: CLIENT_ID }], scopes: [SCOPE], jwtBearer: { keys: [await exportJWK(publicKey)] } },
      tokenGate: (request, response, { mock }) => {
        const form = new URLSearchParams(request.body);
        const grant = form.get("grant_type") ?? "";
        const failedOnce = answered.size > 0 || mock.auth.requests({ endpoint: "token" }).some((e) => e.status !== 200);
        if (received && failedOnce) {
          if (grant === JWT_BEARER_GRANT) {
            answered.set(request, { id: "wif-no-retry", status: "WARNING", description: "Client retried JWT-bearer token request after a failure instead of giving up", errorMessage: "After its JWT-bearer token request was refused, the client sent another one instead of surfacing the error." });
            return refuse(response, "invalid_request", "Retry not allowed for JWT-bearer grant");
          }
          answered.set(request, { id: "wif-grant-fallback", status: "WARNING", description: `Client fell back to ${grant} grant after a JWT-bearer token request was rejected; clients should not switch grant types after a JWT-bearer failure`, errorMessage: `After its JWT-bearer token request was refused, the client switched to grant_type ${grant || "(none)"}.` });
          return refuse(response, "unsupported_grant_type", "Only JWT-bearer grant is supported");
        }
        received = true;
        if (grant !== JWT_BEARER_GRANT) {
          answered.set(request, { id: "wif-grant-type", status: "FAILURE", description: `Expected grant_type=${JWT_BEARER_GRANT}, got ${grant}`, errorMessage: `The client asked a token with grant_type ${grant || "(none)"}, not the JWT bearer grant.` });
          return refuse(response, "unsupported_grant_type", `Only ${JWT_BEARER_GRANT} grant is supported`);
        }
        // Only the scenario's key signs: the one assertion that verifies is the valid one.
        if ((form.get("scope") ?? "").split(" ").includes(TRIGGER_UNAUTHORIZED) && form.get("assertion") === valid) {
          answered.set(request, VERIFIED);
          return refuse(response, "unauthorized_client", "Client not authorized for JWT-bearer grant");
        }
        return false;
      },
      atEnd: ({ tokens, mock }) => {
        const events = mock.auth.requests({ endpoint: "token" });
        let next = 0;
        const checks = tokens.map((token) => answered.get(token.request) ?? judged(token, events[next++]));
        if (tokens.length === 0) checks.push({ id: "wif-assertion-verified", status: "FAILURE", description: "Client did not make a JWT-bearer token request", errorMessage: "The client never asked the token endpoint for a token." });
        return checks;
      },
    });
    const run = await inner.start(options);
    const authServer = new URL(run.url).origin;
    const [validJwt, wrongAudience, expired] = await Promise.all([workloadJwt(privateKey, authServer, "5m"), workloadJwt(privateKey, "https://wrong.example", "5m"), workloadJwt(privateKey, authServer, "-60s")]);
    valid = validJwt;
    return { ...run, context: { client_id: CLIENT_ID, valid_jwt: validJwt, wrong_audience_jwt: wrongAudience, expired_jwt: expired } };
  },
};
