/**
 * The official `auth/*` client scenarios, in the suite's order (its 2025-11-25 requirement set):
 * metadata discovery, client ID metadata documents, scopes, token endpoint authentication,
 * pre-registration; then those only the 2026-07-28 set has: resource mismatch, offline access
 * (SEP-2207), authorization server migration (SEP-2352, with a second authorization server), the
 * issuer checks (SEP-2468); then the auth extensions': client credentials (SEP-1046),
 * enterprise-managed authorization (SEP-990), workload identity federation (SEP-1933) and DPoP
 * (SEP-1932). Each is played by the mock's embedded authorization server.
 * @module
 */
import type { Scenario } from "../../scenario.js";
import { authorizationServerMigration } from "./authorization-server-migration.js";
import { basicCimd } from "./basic-cimd.js";
import { metadataScenarios } from "./metadata.js";
import { preRegistration } from "./pre-registration.js";
import { scopeScenarios } from "./scopes.js";
import { issuerScenarios } from "./issuer.js";
import { offlineAccessScenarios } from "./offline-access.js";
import { resourceMismatch } from "./resource-mismatch.js";
import { tokenEndpointAuthScenarios } from "./token-endpoint-auth.js";
import { clientCredentialsScenarios } from "./client-credentials.js";
import { enterpriseManagedAuthorization } from "./enterprise-managed-authorization.js";
import { wifJwtBearer } from "./wif-jwt-bearer.js";
import { dpopScenarios } from "./dpop.js";

export const authScenarios: readonly Scenario[] = [...metadataScenarios, basicCimd, ...scopeScenarios, ...tokenEndpointAuthScenarios, preRegistration, resourceMismatch, ...offlineAccessScenarios, authorizationServerMigration, ...issuerScenarios, ...clientCredentialsScenarios, enterpriseManagedAuthorization, wifJwtBearer, ...dpopScenarios];
