/**
 * `request-metadata` (official, SEP-2575): on every 2026-07-28 request the client sends the
 * `MCP-Protocol-Version` header, `_meta` with the protocol version and its capabilities (and
 * its `clientInfo`), the header equal to `_meta`'s version, well-formed optional capabilities,
 * and after the first request is refused (-32022, unsupported version) it retries with a
 * supported one. Eight checks, the suite's ids; each is the worst seen over the requests.
 * @module
 */
import type { Check, CheckStatus } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, tappedRun } from "../scenario-mock.js";
import { messageOf, type TappedRequest } from "../wire-tap.js";

const DRAFT = "2026-07-28";
const SEVERITY: Readonly<Record<CheckStatus, number>> = { FAILURE: 3, WARNING: 2, SUCCESS: 1, INFO: 1, SKIPPED: 0 };
const DECLARED = [
  "sep-2575-http-client-sends-version-header",
  "sep-2575-client-populates-meta",
  "sep-2575-client-sends-client-info",
  "sep-2575-http-version-header-matches-meta",
  "sep-2575-client-declares-roots-capability",
  "sep-2575-client-declares-sampling-capability",
  "sep-2575-client-declares-elicitation-capability",
  "sep-2575-client-retry-supported-version",
] as const;

function checksOf(posts: readonly TappedRequest[]): Check[] {
  const checks = new Map<string, Check>();
  const put = (c: Check): void => {
    const old = checks.get(c.id);
    if (!old || SEVERITY[c.status] >= SEVERITY[old.status]) checks.set(c.id, c);
  };
  posts.forEach((post, index) => {
    const message = messageOf(post);
    const meta = message.params?.["_meta"] as Record<string, unknown> | undefined;
    const metaVersion = meta?.["io.modelcontextprotocol/protocolVersion"];
    const header = post.headers["mcp-protocol-version"];
    const capabilities = meta?.["io.modelcontextprotocol/clientCapabilities"] as Record<string, unknown> | undefined;
    const on = `on ${message.method ?? "a message"}`;
    put({ id: DECLARED[0], status: header !== undefined ? "SUCCESS" : "FAILURE", description: "Client sends MCP-Protocol-Version header on every POST", ...(header === undefined ? { errorMessage: `no MCP-Protocol-Version header ${on}` } : {}), details: { method: message.method, headerVersion: header } });
    const metaOk = Boolean(metaVersion && capabilities);
    put({ id: DECLARED[1], status: metaOk ? "SUCCESS" : "FAILURE", description: "Client populates _meta on every request with the required fields (protocolVersion, clientCapabilities)", ...(metaOk ? {} : { errorMessage: `_meta ${on} was ${JSON.stringify(meta ?? null)}` }), details: { method: message.method, meta } });
    const info = Boolean(meta?.["io.modelcontextprotocol/clientInfo"]);
    put({ id: DECLARED[2], status: info ? "SUCCESS" : "WARNING", description: "Client SHOULD include io.modelcontextprotocol/clientInfo in every request's _meta (spec PR #3002)", ...(info ? {} : { errorMessage: `no io.modelcontextprotocol/clientInfo in _meta ${on}` }), details: { method: message.method } });
    const both = header !== undefined && metaVersion !== undefined;
    put({ id: DECLARED[3], status: !both ? "SKIPPED" : header === metaVersion ? "SUCCESS" : "FAILURE", description: "MCP-Protocol-Version header matches _meta.protocolVersion", ...(both && header !== metaVersion ? { errorMessage: `header ${header} but _meta says ${String(metaVersion)} ${on}` } : {}), details: { headerVersion: header, metaVersion } });
    DECLARED.slice(4, 7).forEach((id, at) => {
      const name = ["roots", "sampling", "elicitation"][at] as string;
      const value = capabilities?.[name];
      const present = capabilities !== undefined && name in capabilities;
      const ok = typeof value === "object" && value !== null && !Array.isArray(value);
      put({ id, status: !present ? "SKIPPED" : ok ? "SUCCESS" : "FAILURE", description: `Client declares valid ${name} capability if present`, ...(present && !ok ? { errorMessage: `${name} capability is ${JSON.stringify(value)}, not an object` } : {}), details: { capabilityValue: value } });
    });
    if (index === 0) put({ id: DECLARED[7], status: "WARNING", description: "Client retries with a supported version when first choice is rejected", errorMessage: "the client did not retry after its first request was refused with -32022", details: { headerVersion: header } });
    else {
      const retried = header === DRAFT && metaVersion === DRAFT;
      checks.set(DECLARED[7], { id: DECLARED[7], status: retried ? "SUCCESS" : "WARNING", description: "Client retries with a supported version when first choice is rejected", ...(retried ? {} : { errorMessage: `the retry ${on} named ${String(header)} (header) and ${String(metaVersion)} (_meta), not ${DRAFT}` }), details: { retryHeaderVersion: header, retryMetaVersion: metaVersion } });
    }
  });
  for (const id of DECLARED)
    if (!checks.has(id))
      checks.set(id, { id, status: "FAILURE", description: `Declared check ${id} was never emitted`, errorMessage: posts.length === 0 ? "Check was not observed: the client never sent a request to the scenario server (no handler registered for this scenario?)" : "Check was not observed: no request exercised it" });
  return [...checks.values()];
}

export const requestMetadata: Scenario = {
  name: "request-metadata",
  suite: "official",
  description: "Per-request _meta and MCP-Protocol-Version header obligations (SEP-2575)",
  specVersions: [DRAFT],
  async start() {
    const mock = await scenarioMock({ protocolVersions: [DRAFT], serverInfo: { name: "test", version: "1.0" } });
    let refused = false;
    return tappedRun(
      mock,
      (tap) => checksOf(tap.requests.filter((r) => r.method === "POST" && r.json !== undefined)),
      { intercept: (request, response) => {
        if (request.method !== "POST" || refused || request.json === undefined) return false;
        refused = true;
        const header = request.headers["mcp-protocol-version"];
        const meta = messageOf(request).params?.["_meta"] as Record<string, unknown> | undefined;
        response.writeHead(400, { "content-type": "application/json" }).end(
          JSON.stringify({ jsonrpc: "2.0", id: messageOf(request).id ?? null, error: { code: -32022, message: "Unsupported protocol version", data: { supported: [DRAFT], requested: String(header ?? meta?.["io.modelcontextprotocol/protocolVersion"] ?? "") } } }),
        );
        return true;
      } },
    );
  },
};
