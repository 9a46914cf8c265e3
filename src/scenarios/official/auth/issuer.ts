/**
 * The issuer scenarios (official, 2026-07-28, SEP-2468): the `iss` of the authorization
 * response (RFC 9207) and the `issuer` of the authorization server metadata (RFC 8414 section
 * 3.3), compared by simple string comparison. A right client goes on to the token request when
 * `iss` is the issuer (`iss-supported`) or neither advertised nor sent (`iss-not-advertised`),
 * and stops before it when `iss` is missing although advertised (`iss-supported-missing`),
 * another issuer's (`iss-wrong-issuer`, `iss-unexpected`) or the issuer with a trailing slash
 * (`iss-normalized`); it uses no endpoint of metadata that names another issuer
 * (`metadata-issuer-mismatch`). The embedded authorization server plays each through
 * `issAdvertised`, `issInRedirect` and `metadataIssuer`.
 * @module
 */
import type { AuthOptions } from "../../../index.js";
import type { Check } from "../../check.js";
import type { Scenario } from "../../scenario.js";
import { STATELESS_PROTOCOL_VERSION } from "../../../protocol/revisions.js";
import { authScenario, type AuthSeen } from "./auth-scenario.js";

/** The issuer the scenarios that send another one name. */
export const OTHER_ISSUER = "https://evil.example.com";
/** The issuer the poisoned metadata of `metadata-issuer-mismatch` names. */
export const ATTACKER_ISSUER = "https://attacker.example.com";

/** What every issuer scenario's authorization server does besides: no client ID metadata documents (as the suite's), and the `resource` parameter optional (the suite's iss-checking client sends none). */
const BASE: AuthOptions = { clientIdMetadataDocuments: false, resourceParameter: "optional" };

interface IssVariant {
  readonly name: string;
  readonly description: string;
  readonly auth: AuthOptions;
  readonly check: string;
  /** Whether a right client goes on to the token request. */
  readonly proceeds: boolean;
  readonly success: string;
  readonly failure: string;
  /** What the redirect's iss was, for the message. */
  readonly sent: string;
}

const VARIANTS: readonly IssVariant[] = [
  { name: "iss-supported", description: "Tests that client accepts authorization response when server advertises and sends correct iss parameter", auth: { issAdvertised: true, issInRedirect: "issuer" }, check: "sep-2468-client-compare-iss-supported", proceeds: true, success: "Client compared advertised iss against recorded issuer and proceeded to token exchange", failure: "Client did not proceed to token exchange after receiving a correct iss from a server that advertised support", sent: "the issuer" },
  { name: "iss-not-advertised", description: "Tests that client accepts authorization response when server does not advertise or send iss parameter", auth: { issAdvertised: false, issInRedirect: "none" }, check: "sep-2468-client-proceed-no-iss", proceeds: true, success: "Client proceeded to token exchange when neither metadata advertised iss support nor redirect contained iss", failure: "Client did not proceed to token exchange — should proceed when iss is absent and not advertised", sent: "none" },
  { name: "iss-supported-missing", description: "Tests that client rejects authorization response when server advertised iss support but omitted iss from redirect", auth: { issAdvertised: true, issInRedirect: "none" }, check: "sep-2468-client-reject-missing-iss", proceeds: false, success: "Client correctly rejected authorization response missing required iss parameter", failure: "Client MUST reject authorization response when server advertised iss support but iss is absent from redirect", sent: "none, although the metadata advertised authorization_response_iss_parameter_supported" },
  { name: "iss-wrong-issuer", description: "Tests that client rejects authorization response when iss does not match the authorization server issuer", auth: { issAdvertised: true, issInRedirect: OTHER_ISSUER }, check: "sep-2468-client-compare-iss-supported", proceeds: false, success: "Client correctly rejected authorization response with mismatched iss parameter", failure: "Client MUST reject authorization response when iss does not match the authorization server issuer", sent: `${OTHER_ISSUER}, another issuer` },
  { name: "iss-unexpected", description: "Tests that client compares iss against recorded issuer even when not advertised, and rejects on mismatch", auth: { issAdvertised: false, issInRedirect: OTHER_ISSUER }, check: "sep-2468-client-compare-iss-unadvertised", proceeds: false, success: "Client correctly compared unadvertised iss against recorded issuer and rejected the mismatch", failure: "Client MUST compare a present iss against the recorded issuer regardless of metadata advertisement, and reject on mismatch", sent: `${OTHER_ISSUER}, another issuer (not advertised, compared all the same)` },
  { name: "iss-normalized", description: "Tests that client compares iss using simple string comparison without applying URL normalization", auth: { issAdvertised: true, issInRedirect: "issuer/" }, check: "sep-2468-client-no-normalization", proceeds: false, success: "Client rejected an iss value that only matches the recorded issuer after URL normalization", failure: "Client MUST NOT apply scheme/host case folding, default-port elision, trailing-slash, or percent-encoding normalization to iss before comparison; a trailing-slash variant of the issuer must be treated as a mismatch", sent: "the issuer with a trailing slash (equal only after URL normalization)" },
];

function issVariant(v: IssVariant): Scenario {
  const judge = ({ authorizations, tokens }: AuthSeen): Check[] => {
    const reached = authorizations.length > 0;
    const exchanged = tokens.length > 0;
    const right = v.proceeds ? exchanged : reached && !exchanged;
    if (right) return [{ id: v.check, status: "SUCCESS", description: v.success, details: { authReached: reached, tokenRequestMade: exchanged } }];
    const did = !reached
      ? "The client never made an authorization request."
      : v.proceeds
        ? `The client stopped after the authorization response (its iss: ${v.sent}) and never asked the token endpoint.`
        : `The client exchanged the code for a token although the authorization response's iss was ${v.sent}.`;
    return [{ id: v.check, status: "FAILURE", description: v.failure, errorMessage: did, details: { authReached: reached, tokenRequestMade: exchanged } }];
  };
  return authScenario({
    name: `auth/${v.name}`,
    description: v.description,
    specVersions: [STATELESS_PROTOCOL_VERSION],
    ...(v.proceeds ? {} : { allowClientError: true }),
    auth: { ...BASE, ...v.auth },
    atEnd: judge,
  });
}

const METADATA_CHECK = "sep-2468-client-validate-metadata-issuer";

/** `auth/metadata-issuer-mismatch`: the metadata names another issuer; registering, authorizing or asking a token there is using it. */
export const metadataIssuerMismatch: Scenario = authScenario({
  name: "auth/metadata-issuer-mismatch",
  description: "Tests that client rejects authorization server metadata whose issuer does not match the issuer used to construct the well-known URL",
  specVersions: [STATELESS_PROTOCOL_VERSION],
  allowClientError: true,
  auth: { ...BASE, metadataIssuer: ATTACKER_ISSUER },
  atEnd: ({ checks, registrations, authorizations, tokens }) => {
    const requested = checks.some((c) => c.id === "authorization-server-metadata");
    const used = [...(registrations.length ? ["registered"] : []), ...(authorizations.length ? ["authorized"] : []), ...(tokens.length ? ["asked for a token"] : [])];
    if (requested && used.length === 0) return [{ id: METADATA_CHECK, status: "SUCCESS", description: "Client rejected authorization server metadata whose issuer does not match the issuer identifier used to construct the well-known URL", details: { metadataIssuer: ATTACKER_ISSUER, metadataRequested: true, metadataEndpointsUsed: false } }];
    return [
      {
        id: METADATA_CHECK,
        status: "FAILURE",
        description: requested ? "Client MUST NOT use authorization server metadata whose issuer differs from the issuer identifier used to construct the well-known URL; client used endpoints from the mismatched metadata" : "Client never retrieved the authorization server metadata document, so issuer validation could not be observed",
        errorMessage: requested ? `The client ${used.join(", ")} at the endpoints of metadata whose issuer was ${ATTACKER_ISSUER}, not the authorization server it built the well-known URL from.` : "The client never asked for the authorization server metadata.",
        details: { metadataIssuer: ATTACKER_ISSUER, metadataRequested: requested, metadataEndpointsUsed: used.length > 0 },
      },
    ];
  },
});

export const issuerScenarios: readonly Scenario[] = [...VARIANTS.map(issVariant), metadataIssuerMismatch];
