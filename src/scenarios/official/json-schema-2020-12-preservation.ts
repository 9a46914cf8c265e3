/**
 * `json-schema-2020-12-preservation` (official, SEP-1613 and SEP-2106): a tool's `inputSchema`
 * uses the JSON Schema 2020-12 vocabulary (`$schema`, `$defs` with an `$anchor`, `allOf`/`anyOf`,
 * `if`/`then`/`else`, `additionalProperties: false`); the client lists it and sends it back as
 * it holds it to `json_schema_echo`, and the echo shows which keywords it kept. Checks
 * `json-schema-2020-12-client-*` and `sep-2106-client-*` (the SEP-2106 ones SKIPPED, not failed,
 * below 2026-07-28).
 * @module
 */
import type { Check, CheckStatus } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, servedRun } from "../scenario-mock.js";

const DRAFT = "2026-07-28";
const FOCAL_TOOL = "json_schema_2020_12_tool";
const ECHO_TOOL = "json_schema_echo";
const DIALECT = "https://json-schema.org/draft/2020-12/schema";
const FIXTURE = {
  $schema: DIALECT,
  type: "object",
  $defs: { address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};
const TOOLS = [
  { name: FOCAL_TOOL, description: "Tool with JSON Schema 2020-12 features", inputSchema: FIXTURE },
  {
    name: ECHO_TOOL,
    description: "Echoes back an arbitrary JSON Schema object so the harness can observe what the client preserved.",
    inputSchema: { type: "object", properties: { schema: { type: "object", description: `The inputSchema the client observed for ${FOCAL_TOOL}, passed back verbatim.` } }, required: ["schema"] },
  },
];
const NOT_ECHOED = "Skipped because the client did not complete the schema echo";
const SKIPPED_WHEN_NOT_ECHOED: readonly [string, string][] = [
  ["json-schema-2020-12-client-$schema-preserved", "Client preserved the $schema field of the focal tool inputSchema"],
  ["json-schema-2020-12-client-$defs-preserved", "Client preserved the $defs field of the focal tool inputSchema"],
  ["json-schema-2020-12-client-additionalProperties-preserved", "Client preserved the additionalProperties field of the focal tool inputSchema"],
  ["sep-2106-client-composition-keywords-preserved", "Client preserved composition keywords (allOf/anyOf) on the focal tool inputSchema"],
  ["sep-2106-client-conditional-keywords-preserved", "Client preserved conditional keywords (if/then/else) on the focal tool inputSchema"],
  ["sep-2106-client-anchor-keyword-preserved", "Client preserved the $anchor keyword inside $defs.address"],
];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A check that passes when `problem` is undefined; its failure is `failure` (SEP-2106's are SKIPPED below 2026-07-28). */
function kept(id: string, description: string, problem: string | undefined, details: Record<string, unknown>, failure: CheckStatus = "FAILURE"): Check {
  return problem === undefined ? { id, status: "SUCCESS", description, details } : { id, status: failure, description, errorMessage: problem, details };
}

/** The checks of the echoed schema, as the official scenario makes them. */
function echoChecks(echo: Record<string, unknown>, specVersion: string): Check[] {
  const sep2106Failure: CheckStatus = specVersion === DRAFT ? "FAILURE" : "SKIPPED";
  const skipped = specVersion === DRAFT ? "" : ` (run targets protocol version ${specVersion}; SEP-2106 applies from ${DRAFT})`;
  const defs = isObject(echo["$defs"]) ? echo["$defs"] : undefined;
  const allOf = echo["allOf"];
  const hasAllOf = Array.isArray(allOf) && allOf.length > 0;
  const hasNestedAnyOf = Array.isArray(allOf) && allOf.some((sub) => isObject(sub) && Array.isArray(sub["anyOf"]));
  const [hasIf, hasThen, hasElse] = ["if", "then", "else"].map((k) => k in echo) as [boolean, boolean, boolean];
  const address = isObject(defs?.["address"]) ? (defs["address"] as Record<string, unknown>) : undefined;
  const hasAnchor = address !== undefined && "$anchor" in address;
  return [
    kept(
      "json-schema-2020-12-client-$schema-preserved",
      `Client preserved $schema = '${DIALECT}'`,
      !("$schema" in echo) ? "$schema missing from echoed inputSchema — client likely stripped it during parsing" : echo["$schema"] !== DIALECT ? `$schema has unexpected value: ${JSON.stringify(echo["$schema"])}` : undefined,
      { schemaValue: echo["$schema"] },
    ),
    kept(
      "json-schema-2020-12-client-$defs-preserved",
      "Client preserved $defs with the expected nested definitions",
      !("$defs" in echo) ? "$defs missing from echoed inputSchema — client likely stripped it during parsing" : !(defs && "address" in defs) ? '$defs exists but missing expected "address" definition' : undefined,
      { defsKeys: defs ? Object.keys(defs) : [] },
    ),
    kept(
      "json-schema-2020-12-client-additionalProperties-preserved",
      "Client preserved additionalProperties = false on the focal inputSchema",
      !("additionalProperties" in echo) ? "additionalProperties missing from echoed inputSchema — client likely stripped it during parsing" : echo["additionalProperties"] !== false ? `additionalProperties has unexpected value: ${JSON.stringify(echo["additionalProperties"])}` : undefined,
      { value: echo["additionalProperties"] },
    ),
    kept(
      "sep-2106-client-composition-keywords-preserved",
      "Client preserved composition keywords (allOf/anyOf) on the focal inputSchema",
      hasAllOf && hasNestedAnyOf ? undefined : (!hasAllOf ? "allOf missing from echoed inputSchema — composition keyword was likely stripped" : "nested anyOf missing from echoed allOf — composition keyword was likely stripped") + skipped,
      { hasAllOf, hasNestedAnyOf, targetProtocolVersion: specVersion },
      sep2106Failure,
    ),
    kept(
      "sep-2106-client-conditional-keywords-preserved",
      "Client preserved conditional keywords (if/then/else) on the focal inputSchema",
      hasIf && hasThen && hasElse ? undefined : `Conditional keywords missing (if=${hasIf}, then=${hasThen}, else=${hasElse}) — likely stripped${skipped}`,
      { hasIf, hasThen, hasElse, targetProtocolVersion: specVersion },
      sep2106Failure,
    ),
    kept(
      "sep-2106-client-anchor-keyword-preserved",
      "Client preserved $anchor inside $defs.address",
      hasAnchor ? undefined : `$anchor missing from echoed $defs.address — reference keyword was likely stripped${skipped}`,
      { hasAnchor, anchorValue: address?.["$anchor"] },
      sep2106Failure,
    ),
  ];
}

export const jsonSchema202012Preservation: Scenario = {
  name: "json-schema-2020-12-preservation",
  suite: "official",
  description: "Validates client-side preservation of JSON Schema 2020-12 keywords (SEP-1613, SEP-2106)",
  specVersions: ["2025-11-25", DRAFT],
  transports: ["http", "stdio", "memory"],
  async start(start) {
    // Declared loosely, listed exactly: the stubbed list reaches the client as written.
    const mock = await scenarioMock({ serverInfo: { name: "json-schema-2020-12-preservation-server", version: "1.0.0" }, tools: TOOLS.map(({ name }) => ({ name, inputSchema: { type: "object" } })) }, start);
    mock.toolsList().respondsWith({ tools: TOOLS });
    mock.toolsCall(ECHO_TOOL).withArgsMatching(() => true).respondsWith("echoed");
    mock.toolsCall(FOCAL_TOOL).withArgsMatching(() => true).respondsWith("ok");
    return servedRun(mock, start, () => {
      const requests = mock.requests().filter((e) => e.kind === "request");
      const listed = requests.some((e) => e.method === "tools/list");
      // The official scenario keeps the schema of the last echo that carried one.
      const echo = requests
        .filter((e) => e.method === "tools/call" && e.params?.["name"] === ECHO_TOOL)
        .map((e) => (e.params?.["arguments"] as { schema?: unknown } | undefined)?.schema)
        .filter(isObject)
        .at(-1);
      const checks: Check[] = [
        kept("json-schema-2020-12-client-tool-found", `Client called tools/list and the mock server advertised '${FOCAL_TOOL}'`, listed ? undefined : "Client never called tools/list; the scenario cannot observe schema preservation", { toolsListCalled: listed }),
        kept("json-schema-2020-12-client-echo-completed", `Client called tools/call '${ECHO_TOOL}' with a 'schema' object argument`, echo ? undefined : "Client did not echo back the inputSchema; downstream preservation checks are SKIPPED", { echoCompleted: echo !== undefined }),
      ];
      if (!echo) return [...checks, ...SKIPPED_WHEN_NOT_ECHOED.map(([id, description]): Check => ({ id, status: "SKIPPED", description, errorMessage: NOT_ECHOED }))];
      return [...checks, ...echoChecks(echo, start.specVersion)];
    });
  },
};
