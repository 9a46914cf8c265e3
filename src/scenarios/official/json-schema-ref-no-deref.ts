/**
 * `json-schema-ref-no-deref` (official, SEP-2106): a tool's `inputSchema` holds a `$ref` to a
 * network URL (a canary served beside the endpoint); the client may list tools but must not
 * fetch the canary. Check `sep-2106-no-network-ref-deref`. Over stdio and in memory the canary
 * is served by a wire tap of its own (a host with that one file).
 * @module
 */
import type { Check } from "../check.js";
import type { Scenario, ScenarioRun } from "../scenario.js";
import { scenarioMock, servedRun, tappedRun } from "../scenario-mock.js";
import { startWireTap, type Intercept, type WireTap } from "../wire-tap.js";

const CANARY_PATH = "/canary/profile-schema.json";
const CHECK_ID = "sep-2106-no-network-ref-deref";
const CANARY_SCHEMA = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { displayName: { type: "string" } } };

export const jsonSchemaRefNoDeref: Scenario = {
  name: "json-schema-ref-no-deref",
  suite: "official",
  description: "Tests that a client does not automatically dereference a network-URI `$ref` in a tool's inputSchema (SEP-2106)",
  specVersions: ["2026-07-28"],
  transports: ["http", "stdio", "memory"],
  async start(start) {
    const mock = await scenarioMock({ tools: [], responseMode: "sse", serverInfo: { name: "json-schema-ref-deref-server", version: "1.0.0" } }, start);
    const verdict = (tap: WireTap): Check[] => {
      const listed = mock.requests().some((e) => e.kind === "request" && e.method === "tools/list");
      const fetched = tap.requests.filter((r) => r.path.split("?")[0] === CANARY_PATH);
      if (!listed)
        return [{ id: CHECK_ID, status: "FAILURE", description: "Client never requested tools/list, so $ref handling could not be evaluated", errorMessage: "Client did not call tools/list against a server advertising a tool with a network $ref", details: { toolsListed: false } }];
      return [
        fetched.length
          ? { id: CHECK_ID, status: "FAILURE", description: "Client automatically dereferenced a network-URI $ref in a tool inputSchema. Implementations MUST NOT automatically dereference $ref values that resolve to a network URI (SEP-2106).", errorMessage: `Canary URL ${CANARY_PATH} was fetched ${fetched.length} time(s)`, details: { toolsListed: true, canaryRequests: fetched.map((r) => ({ method: r.method, userAgent: r.headers["user-agent"] })) } }
          : { id: CHECK_ID, status: "SUCCESS", description: "Client did not dereference the network-URI $ref in the tool inputSchema", details: { toolsListed: true, canaryRequests: [] } },
      ];
    };
    const canary: Intercept = (request, response) => {
      if (request.path.split("?")[0] !== CANARY_PATH) return false;
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(CANARY_SCHEMA));
      return true;
    };
    let tap: WireTap;
    let run: ScenarioRun;
    if (start.transport === "http") {
      const tapped = await tappedRun(mock, verdict, { intercept: canary });
      [tap, run] = [tapped.tap, tapped];
    } else {
      const host = await startWireTap(undefined, { intercept: canary });
      const served = await servedRun(mock, start, () => verdict(host));
      [tap, run] = [host, { ...served, close: async () => { await served.close(); await host.close(); } }];
    }
    mock.toolsList().respondsWith({ tools: [{
      name: "lookup_user",
      description: "Look up a user profile by id",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        $defs: { userId: { type: "string", pattern: "^[a-z0-9-]+$" } },
        properties: { id: { $ref: "#/$defs/userId" }, profile: { $ref: `${tap.origin}${CANARY_PATH}` } },
        required: ["id"],
      },
    }] });
    return run;
  },
};
