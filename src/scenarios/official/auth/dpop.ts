/**
 * `auth/dpop` and `auth/dpop-nonce` (official, the `io.modelcontextprotocol/auth/dpop` extension,
 * SEP-1932 / RFC 9449): the embedded authorization server issues DPoP-bound tokens for token
 * requests that carry a proof, and the MCP endpoint takes them with the `DPoP` scheme and a
 * fresh proof (`auth.dpop`); in `-nonce` both demand a server-provided nonce first. The checks,
 * read from the mock's auth log (what each server made of each proof) and the wire:
 * `sep-1932-client-token-request-proof`, `sep-1932-client-dpop-auth-scheme`,
 * `sep-1932-client-fresh-proof`, and in `-nonce` `sep-1932-client-as-nonce` and
 * `sep-1932-client-rs-nonce`. An extension scenario, off the spec timeline: the suite runs it at
 * 2025-11-25 unless told otherwise, and at 2026-07-28 with `--force`.
 * @module
 */
import { decodeJwt } from "jose";
import type { AuthEvent } from "../../../auth/auth-log.js";
import { DPOP_PROOF_FAILURES, INVALID_PROOF } from "../../../auth/dpop.js";
import { LATEST_PROTOCOL_VERSION, STATELESS_PROTOCOL_VERSION } from "../../../protocol/revisions.js";
import type { Check, CheckStatus } from "../../check.js";
import type { Scenario } from "../../scenario.js";
import { authScenario, MCP_PATH, pathOf, type AuthSeen } from "./auth-scenario.js";

const DESCRIPTIONS = {
  "sep-1932-client-dpop-auth-scheme": "Client presents the access token with the DPoP Authorization scheme (not Bearer)",
  "sep-1932-client-fresh-proof": "Client includes a fresh, well-formed DPoP proof in the DPoP header on each MCP POST request",
  "sep-1932-client-token-request-proof": "Client includes a valid DPoP proof in the DPoP header of its token request — the prerequisite for obtaining a DPoP-bound access token (RFC 9449 §5)",
  "sep-1932-client-as-nonce": "On a use_dpop_nonce challenge from the token endpoint, the client retries the token request with the server-supplied nonce (RFC 9449 §8)",
  "sep-1932-client-rs-nonce": "On a use_dpop_nonce challenge from the MCP server, the client retries the request with the server-supplied nonce (RFC 9449 §9)",
} as const;

type DpopCheckId = keyof typeof DESCRIPTIONS;

function check(id: DpopCheckId, status: CheckStatus, errorMessage: string | undefined, details: Record<string, unknown>): Check {
  return { id, status, description: DESCRIPTIONS[id], ...(errorMessage ? { errorMessage } : {}), details };
}

/** The suite's rule in `-nonce` (two token requests, two of each server check): one check per id, the worst, the last of equals; INFO kept. */
function onePerId(checks: readonly Check[]): Check[] {
  const rank = (s: CheckStatus): number => (s === "FAILURE" ? 3 : s === "WARNING" ? 2 : s === "SUCCESS" ? 1 : 0);
  const kept = new Map<string, number>();
  checks.forEach((c, i) => {
    if (c.status === "INFO") return;
    const at = kept.get(c.id);
    if (at === undefined || rank(c.status) >= rank((checks[at] as Check).status)) kept.set(c.id, i);
  });
  return checks.filter((c, i) => c.status === "INFO" || kept.get(c.id) === i);
}

/** `sep-1932-client-token-request-proof`: every authorization_code token request carried a good proof (a nonce demanded counts as good). */
function tokenRequestProof(tokens: readonly AuthEvent[]): Check {
  const bad = tokens.find((e) => e.outcome === "invalid_dpop_proof" || (e.dpopJkt === undefined && e.outcome !== "use_dpop_nonce" && e.outcome !== "dpop-proof-replayed"));
  const why = bad === undefined ? undefined : bad.outcome === "invalid_dpop_proof" ? `the token request's proof was refused: ${bad.description ?? ""}` : "the token request carried no DPoP proof, so the token issued was a bearer token, not a DPoP-bound one";
  const message = tokens.length === 0 ? "Client never completed an authorization_code token request, so it obtained no DPoP-bound token" : why ? `Client did not present a valid DPoP proof at the token endpoint: ${why}` : undefined;
  return check("sep-1932-client-token-request-proof", message ? "FAILURE" : "SUCCESS", message, { tokenRequestObserved: tokens.length > 0, validProofPresented: tokens.length > 0 && bad === undefined });
}

/** A nonce check: was a `use_dpop_nonce` challenge sent, and did a later request pass with the nonce? */
function nonceCheck(id: "sep-1932-client-as-nonce" | "sep-1932-client-rs-nonce", events: readonly AuthEvent[], where: string): Check {
  const challenged = events.findIndex((e) => e.outcome === "use_dpop_nonce");
  const honored = challenged >= 0 && events.slice(challenged + 1).some((e) => e.dpopJkt !== undefined);
  const message = challenged < 0 ? `Client never ${where === "token" ? "presented a valid proof at the token endpoint" : "made an MCP request with a valid proof"} that was answered with a use_dpop_nonce challenge` : honored ? undefined : `Client did not complete the ${where === "token" ? "token request" : "MCP request"} with the server-supplied nonce after a use_dpop_nonce challenge: the ${where === "token" ? "authorization server" : "MCP server"} saw no later proof that carried it`;
  return check(id, message ? "FAILURE" : "SUCCESS", message, { challengeIssued: challenged >= 0, nonceHonored: honored });
}

/** The checks of the MCP requests that carried a token: the scheme, and each proof's form and freshness. */
function resourceChecks(seen: AuthSeen): Check[] {
  const presented = seen.tap.requests.filter((r) => r.method === "POST" && pathOf(r) === MCP_PATH && r.headers["authorization"] !== undefined);
  const schemes = [...new Set(presented.map((r) => (r.headers["authorization"] as string).split(" ")[0] as string))];
  const others = schemes.filter((s) => s.toLowerCase() !== "dpop");
  const never = presented.length === 0 ? "Client never presented an access token to the MCP server" : undefined;
  const schemeMessage = never ?? (others.length > 0 ? `Client presented the token with a non-DPoP Authorization scheme (${schemes.join(", ")})` : undefined);
  const events = seen.mock.auth.requests({ endpoint: "mcp" });
  const malformed = events.find((e) => DPOP_PROOF_FAILURES.includes(e.outcome));
  const replayed = events.some((e) => e.outcome === "dpop-proof-replayed");
  const proofMessage = never ?? (malformed ? `DPoP proof was missing or malformed: ${(malformed.description ?? malformed.outcome).replace(INVALID_PROOF, "")}` : replayed ? "Client reused a DPoP proof (duplicate jti) across requests instead of sending a fresh one" : undefined);
  return [
    check("sep-1932-client-dpop-auth-scheme", schemeMessage ? "FAILURE" : "SUCCESS", schemeMessage, { authenticatedRequests: presented.length, observedSchemes: schemes }),
    check("sep-1932-client-fresh-proof", proofMessage ? "FAILURE" : "SUCCESS", proofMessage, { authenticatedRequests: presented.length, distinctJtis: new Set(presented.map((r) => proofJti(r.headers["dpop"])).filter((jti) => jti !== undefined)).size, replayDetected: replayed }),
  ];
}

function dpopScenario(nonce: boolean): Scenario {
  return authScenario({
    name: nonce ? "auth/dpop-nonce" : "auth/dpop",
    description: nonce
      ? "Tests that an MCP client, when the authorization server and MCP server require a DPoP nonce, retries the token request and the MCP request with the server-supplied nonce (RFC 9449 §8/§9) — on top of requesting a DPoP-bound token and presenting it with the DPoP Authorization scheme and a fresh proof per request (SEP-1932 / RFC 9449 §5, §7.1, §4.2–4.3)."
      : "Tests that an MCP client requests a DPoP-bound access token (a valid DPoP proof at the token request) and presents it using the DPoP Authorization scheme (not Bearer) with a fresh, well-formed DPoP proof on each POST /mcp request, when the server does not require a nonce (SEP-1932 / RFC 9449 §5, §7.1, §4.2–4.3).",
    specVersions: [LATEST_PROTOCOL_VERSION, STATELESS_PROTOCOL_VERSION],
    extension: "io.modelcontextprotocol/auth/dpop",
    // The suite's server: ES256 proofs, public clients, no resource parameter demanded, no metadata documents.
    auth: { dpop: { algorithms: ["ES256"], nonce }, resourceParameter: "optional", tokenEndpointAuthMethods: ["none"], clientIdMetadataDocuments: false },
    // Its MCP server judges proofs, not tokens: no valid-bearer-token checks.
    verifies: "none",
    ...(nonce ? { reviseServerChecks: onePerId } : {}),
    atEnd: (seen) => {
      const tokens = seen.mock.auth.requests({ endpoint: "token", grantType: "authorization_code" });
      return [tokenRequestProof(tokens), ...resourceChecks(seen), ...(nonce ? [nonceCheck("sep-1932-client-as-nonce", tokens, "token"), nonceCheck("sep-1932-client-rs-nonce", seen.mock.auth.requests({ endpoint: "mcp" }), "resource")] : [])];
    },
  });
}

export const dpopScenarios: readonly Scenario[] = [dpopScenario(false), dpopScenario(true)];

/** A proof's `jti`, read without checking it (the verdict counts distinct proofs); `undefined` when it has none. */
function proofJti(proof: string | undefined): string | undefined {
  try {
    const jti = proof ? decodeJwt(proof).jti : undefined;
    return typeof jti === "string" ? jti : undefined;
  } catch {
    return undefined;
  }
}
