/**
 * `auth/authorization-server-migration` (official, 2026-07-28, SEP-2352): partway through, the
 * protected resource moves to another authorization server. The resource server lets
 * `initialize` and notifications pass without a token, and the first request that carries one
 * (any token it knows) through; from then on its metadata names a second authorization server
 * (another origin) and it takes only that server's tokens: the old ones get a 401 saying the
 * authorization server has changed. A right client reads the metadata again, registers with the
 * new server (`sep-2352-reregister-on-as-change`) and never presents the first server's client
 * id there, at `/authorize` or `/token` (`sep-2352-no-reuse-on-as-change`,
 * `sep-2352-no-cross-as-credential-reuse`). The checks of both authorization servers are the
 * suite's (`authorization-server-metadata`, `client-registration`, the PKCE checks...), once
 * for each server the client used; every request with a token the servers issued is
 * `valid-bearer-token`.
 * @module
 */
import type { ServerResponse } from "node:http";
import type { McpMock, ProtocolVersion } from "../../../index.js";
import { basicCredentials } from "../../../auth/clients.js";
import { revisionOf, STATELESS_PROTOCOL_VERSION } from "../../../protocol/revisions.js";
import type { Check } from "../../check.js";
import type { Scenario, ScenarioRun } from "../../scenario.js";
import { scenarioMock } from "../../scenario-mock.js";
import { startWireTap, supplyStandardHeaders, type TappedRequest, type WireTap } from "../../wire-tap.js";
import { bearerOf, challenge, isLifecycle, MCP_PATH, PATH_PRM, pathOf, serverChecks, TEST_TOOL, type AuthScenarioConfig } from "./auth-scenario.js";
import { startSecondAuthorizationServer, type SecondAuthorizationServer } from "./second-authorization-server.js";

const NAME = "auth/authorization-server-migration";
const REREGISTER = "sep-2352-reregister-on-as-change";
const NO_REUSE = "sep-2352-no-reuse-on-as-change";
const NO_CROSS = "sep-2352-no-cross-as-credential-reuse";
/** What the resource server's 401 says once the old server's token is refused. */
const CHANGED = "authorization server has changed";

/** The first authorization server: what the suite's says (no scopes, public clients, no refresh tokens, no metadata documents). */
const CONFIG: AuthScenarioConfig = {
  name: NAME,
  description: "Tests that a client, when the PRM authorization_servers changes to a new issuer, re-registers with the new authorization server and does not reuse credentials from the previous one (SEP-2352).",
  auth: { clientIdMetadataDocuments: false, tokenEndpointAuthMethods: ["none"], refreshTokens: false },
  verifies: "none",
};

/** The client id of an HTTP Basic `Authorization` header, if it is one. */
function basicClientId(header: string | undefined): string | undefined {
  const basic = basicCredentials(header);
  return typeof basic === "object" ? basic.id : undefined;
}

/** The client ids the first authorization server registered. */
function registeredClients(mock: McpMock): string[] {
  return mock.auth.requests({ endpoint: "register" }).flatMap((e) => (e.status === 201 && e.clientId && e.outcome === "ok" ? [e.clientId] : []));
}

/** One run's state: whether the resource has moved, and the second server once it has. */
class Migration {
  moved = false;
  /** When it moved (`performance.now()`, the tap's clock). */
  movedAt = Number.POSITIVE_INFINITY;
  /** Requests refused with the old server's token after the move. */
  refusedOld = 0;
  second: Promise<SecondAuthorizationServer> | undefined;
  /** The second server once started (a token of its can only come after: the client learnt of it from the moved metadata). */
  started: SecondAuthorizationServer | undefined;
  readonly #mock: McpMock;

  constructor(mock: McpMock) {
    this.#mock = mock;
  }

  /** Moves the resource: starts the second server, which knows the first one's clients and issues tokens for `resource`. */
  move(resource: string): void {
    this.moved = true;
    this.movedAt = performance.now();
    this.second = startSecondAuthorizationServer({ resource, knownClients: registeredClients(this.#mock) });
    // A failure to start is answered where the metadata is asked for; never an unhandled rejection.
    this.second.then((second) => (this.started = second), () => undefined);
  }

  /** Whether the first (`"first"`) or the second server (`"second"`) issued the access token, if either did. */
  issuer(token: string): "first" | "second" | undefined {
    if (this.#mock.auth.issued().some((t) => t.kind === "access" && t.token === token)) return "first";
    return this.started?.issued(token) ? "second" : undefined;
  }
}

/** The moved protected resource metadata: the same resource, the second server. */
function movedMetadata(migration: Migration, request: TappedRequest, response: ServerResponse): true {
  void (migration.second as Promise<SecondAuthorizationServer>).then(
    (second) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ resource: `http://${request.headers["host"] ?? ""}${MCP_PATH}`, authorization_servers: [second.issuer] })),
    (error: unknown) => response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "server_error", error_description: `[mcpmock] the second authorization server did not start: ${String(error)}` })),
  );
  return true;
}

/** The resource server's gate: what the suite's does with an MCP POST; `false` lets it pass (with the scenario's own token). */
function gate(migration: Migration, request: TappedRequest, response: ServerResponse): boolean {
  if (isLifecycle(request)) return false;
  const at = `http://${request.headers["host"] ?? "127.0.0.1"}${PATH_PRM}`;
  const bearer = bearerOf(request);
  if (bearer === undefined) return challenge(response, 401, `scope="mcp:basic", resource_metadata="${at}"`, { error: "invalid_token" });
  const issuer = migration.issuer(bearer);
  if (issuer === undefined) return challenge(response, 401, `error="invalid_token", resource_metadata="${at}"`, { error: "invalid_token", error_description: "Invalid token" });
  // The first request with a token it knows passes, and moves the resource; from then on only the new server's tokens pass.
  if (!migration.moved) {
    migration.move(`http://${request.headers["host"] ?? ""}${MCP_PATH}`);
    return false;
  }
  if (issuer === "second") return false;
  migration.refusedOld += 1;
  return challenge(response, 401, `scope="mcp:basic", resource_metadata="${at}"`, { error: "invalid_token", error_description: CHANGED });
}

/** The three SEP-2352 checks, from what reached the second server. */
function migrationChecks(migration: Migration, mock: McpMock, first: WireTap, second: SecondAuthorizationServer | undefined): Check[] {
  const previous = new Set(registeredClients(mock));
  const at = second?.tap.requests ?? [];
  const registered = at.some((r) => r.method === "POST" && pathOf(r) === "/register");
  const authorizeIds = at.filter((r) => r.method === "GET" && pathOf(r) === "/authorize").map((r) => new URL(r.path, "http://x").searchParams.get("client_id") ?? "");
  const tokenIds = at.filter((r) => r.method === "POST" && pathOf(r) === "/token").map((r) => new URLSearchParams(r.body).get("client_id") ?? basicClientId(r.headers["authorization"]) ?? "");
  const atAuthorize = authorizeIds.find((id) => previous.has(id));
  const atToken = tokenIds.find((id) => previous.has(id));
  const reused = atAuthorize ?? atToken;
  /** Authorization and token requests at the first server after the move: the client went back there. */
  const back = first.requests.filter((r) => r.at > migration.movedAt && ((r.method === "GET" && pathOf(r) === "/authorize") || (r.method === "POST" && pathOf(r) === "/token"))).length;
  const refused = migration.refusedOld > 0 ? ` (${migration.refusedOld} request${migration.refusedOld > 1 ? "s" : ""} refused: ${CHANGED})` : "";
  const where = [...(atAuthorize ? ["authorization endpoint"] : []), ...(atToken ? ["token endpoint"] : [])].join(" and ");
  const didInstead = !migration.moved
    ? "The resource never moved: the client sent no MCP request with a token the resource server knew."
    : second === undefined
      ? "The second authorization server did not start."
      : reused
        ? `The client never registered with the new authorization server (${second.issuer}); it presented the first server's client_id ${reused} there.`
        : at.length > 0
          ? `The client asked the new authorization server (${second.issuer}) without registering there first.`
          : back > 0
            ? `The client never asked the new authorization server (${second.issuer}) anything: it went back to the first one (${first.origin}) for another token, which the resource refused${refused}.`
            : `The client never asked the new authorization server (${second.issuer}) anything; it kept sending the first server's token${refused}.`;
  const reuseMessage = reused ? `The client presented client_id ${reused}, registered at the first authorization server, at the new one's ${where} (${second?.issuer ?? ""}).` : undefined;
  return [
    registered
      ? { id: REREGISTER, status: "SUCCESS", description: "Client performed Dynamic Client Registration with the new authorization server after PRM authorization_servers changed" }
      : { id: REREGISTER, status: "FAILURE", description: "Client MUST re-register with the new authorization server when PRM authorization_servers changes (SEP-2352); no registration request was observed at the new AS", errorMessage: didInstead },
    {
      id: NO_REUSE,
      status: reused ? "FAILURE" : "SUCCESS",
      description: reused ? "Client MUST NOT reuse client credentials from a different authorization server (SEP-2352); the previous AS client_id was observed at the new AS" : "Client did not present the previous AS client_id at the new authorization server",
      ...(reuseMessage ? { errorMessage: reuseMessage } : {}),
      details: { previousClientId: [...previous].join(" ") || "none", seenAtAuthorize: atAuthorize !== undefined, seenAtToken: atToken !== undefined },
    },
    {
      id: NO_CROSS,
      status: reused ? "FAILURE" : "SUCCESS",
      description: reused ? "Client MUST NOT assume that credentials valid for one authorization server will be accepted by another (SEP-2352)" : "Client treated credentials as bound to the issuing authorization server",
      ...(reuseMessage ? { errorMessage: reuseMessage } : {}),
    },
  ];
}

/** `valid-bearer-token` for each MCP request past the lifecycle with a token either server issued; `invalid-bearer-token` for another token. */
function bearerChecks(tap: WireTap, known: (token: string) => boolean): Check[] {
  return tap.requests.flatMap((request): Check[] => {
    const bearer = bearerOf(request);
    if (request.method !== "POST" || pathOf(request) !== MCP_PATH || bearer === undefined || isLifecycle(request)) return [];
    return known(bearer) ? [{ id: "valid-bearer-token", status: "SUCCESS", description: "Client provided valid bearer token" }] : [{ id: "invalid-bearer-token", status: "FAILURE", description: "Client provided invalid bearer token", errorMessage: `The client sent a bearer token neither authorization server issued (${bearer.slice(0, 10)}...).` }];
  });
}

export const authorizationServerMigration: Scenario = {
  name: NAME,
  suite: "official",
  description: CONFIG.description,
  specVersions: [STATELESS_PROTOCOL_VERSION],
  async start({ specVersion }): Promise<ScenarioRun> {
    // At a stateless revision the suite's resource server is stateless too: it refuses a session-era initialize.
    const stateless = revisionOf(specVersion)?.stateless === true;
    const mock = await scenarioMock({ serverInfo: { name: "auth-prm-pathbased-server", version: "1.0.0" }, tools: [TEST_TOOL], auth: CONFIG.auth, ...(stateless ? { protocolVersions: [specVersion as ProtocolVersion] } : {}) });
    mock.toolsCall("test-tool").withArgsMatching(() => true).respondsWith("test");
    // The gate judged the client's token; the mock sees one of the scenario's throughout.
    const own = mock.auth.issueToken({ scopes: [] });
    const migration = new Migration(mock);
    const tap = await startWireTap(mock.url, {
      forward: (request, headers) => {
        supplyStandardHeaders(request, headers);
        if (request.headers["host"]) headers["host"] = request.headers["host"];
        if (pathOf(request) === MCP_PATH) headers["authorization"] = `Bearer ${own}`;
      },
      intercept: (request, response) => {
        const path = pathOf(request);
        if (request.method === "GET" && path === PATH_PRM && migration.moved) return movedMetadata(migration, request, response);
        if (path !== MCP_PATH) return false;
        // The suite's resource server has no GET stream: a client opens none (and asks no token for one).
        if (request.method === "GET") {
          response.writeHead(405, { allow: "POST" }).end();
          return true;
        }
        return request.method === "POST" && gate(migration, request, response);
      },
    });
    return {
      url: tap.url,
      checks: async () => {
        const second = migration.second ? await migration.second.catch(() => undefined) : undefined;
        // Both servers' requests, in arrival order, read as the suite's servers read them.
        const requests = [...tap.requests, ...(second?.tap.requests ?? [])].sort((a, b) => a.at - b.at);
        const seen = serverChecks(CONFIG, mock, { ...tap, requests }, specVersion);
        const own = new Set(mock.auth.issued().filter((t) => t.kind === "access").map((t) => t.token));
        return [...seen.checks, ...bearerChecks(tap, (token) => own.has(token) || second?.issued(token) === true), ...migrationChecks(migration, mock, tap, second)];
      },
      close: async () => {
        await tap.close();
        await mock.close();
        const second = migration.second ? await migration.second.catch(() => undefined) : undefined;
        await second?.close();
      },
    };
  },
};
