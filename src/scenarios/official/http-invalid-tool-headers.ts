/**
 * `http-invalid-tool-headers` (official, SEP-2243, 2026-07-28): the tool list holds one valid
 * tool with an `x-mcp-header` and eleven whose `x-mcp-header` breaks a rule (empty, on an
 * object, array, null or number, the same name twice, a space, a colon, a character past ASCII,
 * a control character). The client must exclude the invalid ones and still use the valid one.
 * Checks `sep-2243-client-reject-invalid-tool` and, per invalid tool, the rule it breaks
 * (`sep-2243-x-mcp-header-not-empty`, `-primitive-only`, `-unique`, `-charset`); a client that
 * never lists fails `sep-2243-invalid-tool-tools-list-gate`. A client may end in an error.
 * @module
 */
import type { Check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, tappedRun } from "../scenario-mock.js";
import { messageOf } from "../wire-tap.js";

const DRAFT = "2026-07-28";

/** One tool whose single property (or two, for the duplicates) carries the header. */
function tool(name: string, description: string, properties: Record<string, Record<string, unknown>>): Record<string, unknown> {
  return { name, description, inputSchema: { type: "object", properties, required: Object.keys(properties) } };
}
const TOOLS = [
  tool("valid_tool", "A valid tool with correct x-mcp-header", { region: { type: "string", "x-mcp-header": "Region" } }),
  tool("invalid_empty_header", "x-mcp-header MUST NOT be empty (MUST be rejected by client)", { value: { type: "string", "x-mcp-header": "" } }),
  tool("invalid_object_header", "x-mcp-header MUST only be on primitive types (MUST be rejected)", { data: { type: "object", "x-mcp-header": "Data" } }),
  tool("invalid_array_header", "x-mcp-header MUST only be on primitive types (MUST be rejected)", { items: { type: "array", items: { type: "string" }, "x-mcp-header": "Items" } }),
  tool("invalid_null_header", "x-mcp-header MUST only be on primitive types (MUST be rejected)", { nil: { type: "null", "x-mcp-header": "Nil" } }),
  tool("invalid_number_header", "x-mcp-header MUST NOT be on number type (MUST be rejected)", { score: { type: "number", "x-mcp-header": "Score" } }),
  tool("invalid_duplicate_same_case", 'Duplicate x-mcp-header "Region" on two properties (MUST be rejected)', { field1: { type: "string", "x-mcp-header": "Region" }, field2: { type: "string", "x-mcp-header": "Region" } }),
  tool("invalid_duplicate_diff_case", 'Duplicate case-insensitive x-mcp-header "MyField"/"myfield" (MUST be rejected)', { field1: { type: "string", "x-mcp-header": "MyField" }, field2: { type: "string", "x-mcp-header": "myfield" } }),
  tool("invalid_space_in_name", "x-mcp-header MUST NOT contain space (MUST be rejected)", { value: { type: "string", "x-mcp-header": "My Region" } }),
  tool("invalid_colon_in_name", "x-mcp-header MUST NOT contain colon (MUST be rejected)", { value: { type: "string", "x-mcp-header": "Region:Primary" } }),
  tool("invalid_non_ascii_name", "x-mcp-header MUST contain only ASCII chars (MUST be rejected)", { value: { type: "string", "x-mcp-header": "Région" } }),
  tool("invalid_control_char_name", "x-mcp-header MUST NOT contain control chars (MUST be rejected)", { value: { type: "string", "x-mcp-header": "Region\t1" } }),
];
/** Each invalid tool, and the rule of SEP-2243 it breaks (the check its exclusion answers). */
const RULE_BROKEN: Readonly<Record<string, string>> = {
  invalid_empty_header: "sep-2243-x-mcp-header-not-empty",
  invalid_object_header: "sep-2243-x-mcp-header-primitive-only",
  invalid_array_header: "sep-2243-x-mcp-header-primitive-only",
  invalid_null_header: "sep-2243-x-mcp-header-primitive-only",
  invalid_number_header: "sep-2243-x-mcp-header-primitive-only",
  invalid_duplicate_same_case: "sep-2243-x-mcp-header-unique",
  invalid_duplicate_diff_case: "sep-2243-x-mcp-header-unique",
  invalid_space_in_name: "sep-2243-x-mcp-header-charset",
  invalid_colon_in_name: "sep-2243-x-mcp-header-charset",
  invalid_non_ascii_name: "sep-2243-x-mcp-header-charset",
  invalid_control_char_name: "sep-2243-x-mcp-header-charset",
};

export const httpInvalidToolHeaders: Scenario = {
  name: "http-invalid-tool-headers",
  suite: "official",
  description: "Tests that client rejects tools with invalid x-mcp-header annotations (SEP-2243)",
  specVersions: [DRAFT],
  allowClientError: true,
  async start() {
    const mock = await scenarioMock({ serverInfo: { name: "http-invalid-tool-headers-server", version: "1.0.0" } });
    // A stubbed list: the mock refuses to declare such tools (rightly), and here they must reach the client.
    mock.toolsList().respondsWith({ tools: TOOLS });
    mock.toolsCall().withArgsMatching(() => true).respondsWith("Tool call received");
    // Read from the wire: a call counts even when its headers are wrong (the official server takes every POST).
    return tappedRun(mock, (tap) => {
      const messages = tap.requests.filter((r) => r.method === "POST").map(messageOf);
      const called = new Set(messages.filter((m) => m.method === "tools/call").map((m) => m.params?.["name"]));
      const checks: Check[] = [];
      if (!messages.some((m) => m.method === "tools/list"))
        checks.push({ id: "sep-2243-invalid-tool-tools-list-gate", status: "FAILURE", description: "Client requests tools/list", errorMessage: "Client did not send a tools/list request." });
      const keptValid = called.has("valid_tool");
      checks.push({ id: "sep-2243-client-reject-invalid-tool", status: keptValid ? "SUCCESS" : "FAILURE", description: "Client MUST keep valid tools while excluding invalid ones", ...(keptValid ? {} : { errorMessage: "Client did not call 'valid_tool'. A single malformed tool definition must not prevent other valid tools from being used." }) });
      for (const [name, id] of Object.entries(RULE_BROKEN)) {
        const wrong = called.has(name);
        checks.push({ id, status: wrong ? "FAILURE" : "SUCCESS", description: `Client MUST NOT call tool '${name}' with invalid x-mcp-header`, ...(wrong ? { errorMessage: `Client called '${name}' which has an invalid x-mcp-header. Clients MUST reject (exclude) such tools.` } : {}) });
      }
      return checks;
    });
  },
};
