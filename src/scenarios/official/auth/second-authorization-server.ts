/**
 * A second embedded authorization server, for a scenario whose protected resource moves to
 * another one (`auth/authorization-server-migration`): a mock of its own whose MCP endpoint no
 * one uses, with its own issuer (its own origin), behind a wire tap of its own so that its
 * requests are read like the first one's. It issues tokens for the first mock's endpoint (the
 * resource the client authorizes for), and it knows the first server's clients: like the suite's
 * server, which takes any client, it lets a client that carries its old credentials over get
 * through, so the verdict sees everything such a client goes on to do.
 * @module
 */
import type { McpMock } from "../../../index.js";
import { scenarioMock } from "../../scenario-mock.js";
import { startWireTap, type WireTap } from "../../wire-tap.js";

/** What the second authorization server is given. */
export interface SecondAuthorizationServerOptions {
  /** The resource (RFC 8707) its tokens are for: the first mock's MCP endpoint, as the client spells it. */
  readonly resource: string;
  /** Client ids the first authorization server registered: known here too (public clients). */
  readonly knownClients: readonly string[];
}

/** A second authorization server started: its issuer, what reached it, the tokens it issued. */
export interface SecondAuthorizationServer {
  /** Its issuer identifier, `http://127.0.0.1:PORT` (what the moved metadata names). */
  readonly issuer: string;
  /** Every request the client sent it. */
  readonly tap: WireTap;
  /** Whether it issued this access token. */
  issued(token: string): boolean;
  close(): Promise<void>;
}

/**
 * Starts a second authorization server on a free loopback port. It says what the suite's says
 * (no scopes, public clients only, no refresh tokens, no client ID metadata documents) and
 * answers at its root: metadata at `/.well-known/oauth-authorization-server`, `/authorize`,
 * `/token`, `/register`.
 */
export async function startSecondAuthorizationServer(options: SecondAuthorizationServerOptions): Promise<SecondAuthorizationServer> {
  const mock: McpMock = await scenarioMock({
    serverInfo: { name: "auth-server-2", version: "1.0.0" },
    auth: {
      metadataResource: options.resource,
      clientIdMetadataDocuments: false,
      tokenEndpointAuthMethods: ["none"],
      refreshTokens: false,
      ...(options.knownClients.length > 0 ? { clients: options.knownClients.map((clientId) => ({ clientId })) } : {}),
    },
  });
  // Its metadata is spelled with the Host it is asked for: the tap's, so the client stays on the wire.
  const tap = await startWireTap(mock.url, {
    forward: (request, headers) => {
      if (request.headers["host"]) headers["host"] = request.headers["host"];
    },
  });
  return {
    issuer: tap.origin,
    tap,
    issued: (token) => mock.auth.issued().some((t) => t.kind === "access" && t.token === token),
    close: async () => {
      await tap.close();
      await mock.close();
    },
  };
}
