/**
 * `auth/metadata-default`, `auth/metadata-var1`, `-var2`, `-var3` (official): the client finds
 * the protected resource metadata and the authorization server metadata wherever the server
 * puts them, then registers, authorizes with PKCE and asks for a token. Each must show
 * `authorization-server-metadata`, `client-registration`, `authorization-request` and
 * `token-request` (and `prm-pathbased-requested` where the document is path-based), then the
 * RFC 8707 checks of the `resource` parameter.
 *
 * | scenario | PRM | named in the 401 | authorization server metadata |
 * | --- | --- | --- | --- |
 * | metadata-default | /.well-known/oauth-protected-resource/mcp | yes | /.well-known/oauth-authorization-server |
 * | metadata-var1 | /.well-known/oauth-protected-resource/mcp | no | /.well-known/openid-configuration |
 * | metadata-var2 | /.well-known/oauth-protected-resource | no | /.well-known/oauth-authorization-server/tenant1 |
 * | metadata-var3 | /custom/metadata/location.json | yes | /tenant1/.well-known/openid-configuration |
 * @module
 */
import type { AuthOptions } from "../../../index.js";
import type { Check } from "../../check.js";
import type { Scenario } from "../../scenario.js";
import { authScenario, PATH_PRM, resourceChecks, ROOT_PRM } from "./auth-scenario.js";

interface Variant {
  readonly name: string;
  readonly prmPath: string;
  readonly auth: AuthOptions;
  readonly trapRootPrm?: boolean;
}

const VARIANTS: readonly Variant[] = [
  { name: "metadata-default", prmPath: PATH_PRM, auth: {}, trapRootPrm: true },
  { name: "metadata-var1", prmPath: PATH_PRM, auth: { challengeMetadata: false, serverMetadata: "openid" } },
  { name: "metadata-var2", prmPath: ROOT_PRM, auth: { metadataAt: "root", challengeMetadata: false, issuerPath: "/tenant1" } },
  { name: "metadata-var3", prmPath: "/custom/metadata/location.json", auth: { metadataAt: "/custom/metadata/location.json", serverMetadata: "openid", issuerPath: "/tenant1" } },
];

function variant(v: Variant): Scenario {
  const asMetadata = v.auth.serverMetadata === "openid" ? `${v.auth.issuerPath ?? ""}/.well-known/openid-configuration` : `/.well-known/oauth-authorization-server${v.auth.issuerPath ?? ""}`;
  const expected = [...(v.prmPath === PATH_PRM ? ["prm-pathbased-requested"] : []), "authorization-server-metadata", "client-registration", "authorization-request", "token-request"];
  return authScenario({
    name: `auth/${v.name}`,
    description: `Tests Basic OAuth metadata discovery flow.\n\n**PRM:** ${v.prmPath}${v.auth.challengeMetadata === false ? " (not in WWW-Authenticate)" : ""}\n**OAuth metadata:** ${asMetadata}\n`,
    prmPath: v.prmPath,
    auth: { clientIdMetadataDocuments: false, ...v.auth },
    ...(v.trapRootPrm ? { trapRootPrm: true } : {}),
    atEnd: (seen) => [
      ...expected
        .filter((id) => !seen.checks.some((c) => c.id === id))
        .map((id): Check => ({ id, status: "FAILURE", description: `Expected Check Missing: ${id}`, errorMessage: `The client never made the request ${id} stands for (the flow stopped before it).` })),
      ...resourceChecks(seen),
    ],
  });
}

export const metadataScenarios: readonly Scenario[] = VARIANTS.map(variant);
