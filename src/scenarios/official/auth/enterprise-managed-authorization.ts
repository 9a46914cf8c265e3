/**
 * `auth/enterprise-managed-authorization` (official extension
 * `io.modelcontextprotocol/enterprise-managed-authorization`, SEP-990): the client holds an
 * enterprise IdP's ID token (the context: `idp_id_token`, `idp_token_endpoint`, its client ids
 * and secret). It must exchange the ID token at the IdP for an ID-JAG (RFC 8693 token exchange,
 * check `complete-flow-token-exchange`), present the ID-JAG at the MCP server's authorization
 * server with the RFC 7523 JWT bearer grant, authenticated with client_secret_basic
 * (`complete-flow-jwt-bearer`), and call the server with the access token. The IdP is a second
 * mock whose embedded authorization server does the token exchange (`auth.tokenExchange`); the
 * MCP server's takes the ID-JAGs it signs (`auth.jwtBearer`, `assertion: "id-jag"`).
 * @module
 */
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import type { AuthEvent } from "../../../index.js";
import { JWT_BEARER_GRANT } from "../../../auth/jwt-bearer-grant.js";
import { TOKEN_EXCHANGE_GRANT } from "../../../auth/token-exchange-grant.js";
import type { Check } from "../../check.js";
import type { Scenario, ScenarioRun, ScenarioStart } from "../../scenario.js";
import { scenarioMock, tappedRun } from "../../scenario-mock.js";
import { supplyStandardHeaders, type TappedRequest } from "../../wire-tap.js";
import { authScenario, pathOf, type TokenRequest } from "./auth-scenario.js";

const CLIENT_ID = "conformance-test-xaa-client";
const CLIENT_SECRET = "conformance-test-xaa-secret";
const IDP_CLIENT_ID = "conformance-test-idp-client";
const USER = "demo-user@example.com";
const EXCHANGE = "complete-flow-token-exchange";
const BEARER = "complete-flow-jwt-bearer";

/** The suite's check of a token request at the IdP, from what the IdP answered (`event`). */
function exchangeCheck(request: TappedRequest, event: AuthEvent | undefined): Check {
  const grant = new URLSearchParams(request.body).get("grant_type") ?? "";
  if (grant !== TOKEN_EXCHANGE_GRANT) return { id: EXCHANGE, status: "FAILURE", description: `IdP expected token-exchange grant, got ${grant}`, errorMessage: `The client asked the IdP's token endpoint with grant_type ${grant || "(none)"}, not token exchange (RFC 8693).` };
  if (event?.status === 200) return { id: EXCHANGE, status: "SUCCESS", description: "Successfully exchanged IDP ID token for ID-JAG at IdP with all required parameters" };
  const why = event?.description ?? "the IdP did not answer it";
  return { id: EXCHANGE, status: "FAILURE", description: `Token exchange failed: ${why}`, errorMessage: `The client's token exchange at the IdP was refused: ${why}` };
}

/** The suite's check of a JWT-bearer request at the MCP server's authorization server. */
function bearerCheck({ authorization }: TokenRequest, event: AuthEvent | undefined): Check {
  if (!authorization?.startsWith("Basic ")) return { id: BEARER, status: "FAILURE", description: "Missing or invalid Authorization header for client_secret_basic authentication", errorMessage: `The client's JWT-bearer request authenticated ${authorization ? `with ${authorization.split(" ")[0]}` : "with no Authorization header"}, not HTTP Basic (client_secret_basic).`, details: { expected: "Authorization: Basic <base64(client_id:client_secret)>", received: authorization ?? "missing" } };
  if (event?.status === 200) return { id: BEARER, status: "SUCCESS", description: "Successfully verified client auth, ID-JAG claims, and exchanged for access token" };
  const why = event?.description ?? "the authorization server did not answer it";
  return { id: BEARER, status: "FAILURE", description: `JWT bearer grant failed: ${why}`, errorMessage: `The client's JWT-bearer request was refused: ${why}` };
}

export const enterpriseManagedAuthorization: Scenario = {
  name: "auth/enterprise-managed-authorization",
  suite: "official",
  description: "Tests complete SEP-990 flow: token exchange + JWT bearer grant (Enterprise-Managed Authorization)",
  // An extension, off the spec timeline: the suite plays it at 2025-11-25.
  specVersions: ["2025-11-25"],
  extension: "io.modelcontextprotocol/enterprise-managed-authorization",
  async start(options: ScenarioStart): Promise<ScenarioRun> {
    const [idpKeys, jagKeys] = await Promise.all([generateKeyPair("ES256", { extractable: true }), generateKeyPair("ES256", { extractable: true })]);
    const idpMock = await scenarioMock({
      serverInfo: { name: "conformance-idp", version: "1.0.0" },
      auth: { registration: false, clientIdMetadataDocuments: false, tokenEndpointAuthMethods: ["none"], clients: [{ clientId: IDP_CLIENT_ID }], refreshTokens: false, tokenExchange: { subjectKeys: [await exportJWK(idpKeys.publicKey)], signingKey: await exportJWK(jagKeys.privateKey), clientId: CLIENT_ID } },
    });
    // The IdP behind a tap of its own; it spells its issuer with the Host it is asked for: the tap's.
    const idp = await tappedRun(idpMock, () => [], {
      forward: (request, headers) => {
        supplyStandardHeaders(request, headers);
        if (request.headers["host"]) headers["host"] = request.headers["host"];
      },
    });
    try {
      const inner = authScenario({
        name: enterpriseManagedAuthorization.name,
        description: enterpriseManagedAuthorization.description,
        auth: { clientIdMetadataDocuments: false, tokenEndpointAuthMethods: ["client_secret_basic"], clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }], jwtBearer: { keys: [await exportJWK(jagKeys.publicKey)], assertion: "id-jag" } },
        atEnd: ({ tokens, mock }) => {
          const exchanges = idp.tap.requests.filter((r) => r.method === "POST" && pathOf(r) === "/token");
          const idpEvents = idpMock.auth.requests({ endpoint: "token" });
          const events = mock.auth.requests({ endpoint: "token" });
          const checks = [...exchanges.map((r, i) => exchangeCheck(r, idpEvents[i])), ...tokens.flatMap((t, i) => (t.form.get("grant_type") === JWT_BEARER_GRANT ? [bearerCheck(t, events[i])] : []))];
          if (!checks.some((c) => c.id === EXCHANGE)) checks.push({ id: EXCHANGE, status: "FAILURE", description: "Client did not perform token exchange", errorMessage: "The client never asked the IdP's token endpoint to exchange its ID token." });
          if (!checks.some((c) => c.id === BEARER)) checks.push({ id: BEARER, status: "FAILURE", description: "Client did not perform JWT bearer grant exchange", errorMessage: "The client never presented an ID-JAG to the authorization server with the JWT bearer grant." });
          return checks;
        },
      });
      const run = await inner.start(options);
      const issuer = new URL(idp.url).origin;
      const idToken = await new SignJWT({ sub: USER, email: USER, aud: IDP_CLIENT_ID }).setProtectedHeader({ alg: "ES256" }).setIssuer(issuer).setIssuedAt().setExpirationTime("1h").sign(idpKeys.privateKey);
      return {
        ...run,
        context: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, idp_client_id: IDP_CLIENT_ID, idp_id_token: idToken, idp_issuer: issuer, idp_token_endpoint: `${issuer}/token` },
        close: async () => {
          await run.close();
          await idp.close();
        },
      };
    } catch (error) {
      await idp.close();
      throw error;
    }
  },
};
