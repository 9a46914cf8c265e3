/**
 * `http-custom-headers` (official, SEP-2243, 2026-07-28): a tool's arguments marked
 * `"x-mcp-header": "Region"` travel also as `Mcp-Param-Region`, numbers and booleans in their
 * plain form, a value that is not plain ASCII (or has edge whitespace or control characters)
 * as `=?base64?...?=`; arguments without the mark, or null, have no header. The client calls
 * the two tools with the arguments `MCP_CONFORMANCE_CONTEXT` gives. Checks
 * `sep-2243-client-supports-custom-headers`, `-mirrors-designated-params`, `-encode-values`,
 * `-base64-unsafe` and `-omit-null`, read from the headers as sent.
 * @module
 */
import type { Check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, tappedRun } from "../scenario-mock.js";
import { messageOf, type TappedRequest } from "../wire-tap.js";

const DRAFT = "2026-07-28";
const EXPECTED = ["sep-2243-client-supports-custom-headers", "sep-2243-client-mirrors-designated-params", "sep-2243-client-encode-values", "sep-2243-client-base64-unsafe", "sep-2243-client-omit-null"] as const;
const string = (description: string, header?: string) => ({ type: "string", description, ...(header ? { "x-mcp-header": header } : {}) });
const TOOLS = [
  {
    name: "test_custom_headers",
    description: "A tool with x-mcp-header annotations to test custom header mirroring and encoding",
    inputSchema: {
      type: "object",
      properties: {
        region: string("Plain ASCII string value", "Region"),
        priority: { type: "integer", description: "Integer numeric value", "x-mcp-header": "Priority" },
        verbose: { type: "boolean", description: "Boolean value", "x-mcp-header": "Verbose" },
        debug: { type: "boolean", description: "Boolean true value", "x-mcp-header": "Debug" },
        empty_val: string("Empty string value", "EmptyVal"),
        method_val: string('Value for header named "Method" — tests that x-mcp-header "Method" produces Mcp-Param-Method (not Mcp-Method)', "Method"),
        float_val: { type: "number", description: "Floating point value — no x-mcp-header annotation, should not be mirrored" },
        non_ascii_val: string("Non-ASCII string value — requires Base64 encoding", "NonAscii"),
        whitespace_val: string("String with leading/trailing whitespace — requires Base64 encoding", "Whitespace"),
        leading_space_val: string("String with leading space only — requires Base64 encoding", "LeadingSpace"),
        trailing_space_val: string("String with trailing space only — requires Base64 encoding", "TrailingSpace"),
        internal_space_val: string("String with internal spaces only — plain ASCII, no Base64", "InternalSpace"),
        control_char_val: string("String with control characters — requires Base64 encoding", "ControlChar"),
        crlf_val: string("String with carriage return and line feed — requires Base64 encoding", "CrLf"),
        tab_val: string("String with leading tab — requires Base64 encoding", "Tab"),
        query: string("No x-mcp-header annotation - should not be mirrored"),
      },
      required: ["region", "priority", "query"],
    },
  },
  {
    name: "test_custom_headers_null",
    description: "A tool for testing null/omitted x-mcp-header parameter handling",
    inputSchema: {
      type: "object",
      properties: {
        region: string("Plain ASCII string value", "Region"),
        priority: { type: "integer", description: "Integer numeric value", "x-mcp-header": "Priority" },
        verbose: { type: "boolean", description: "Boolean value — will be null to test omission", "x-mcp-header": "Verbose" },
        query: string("No x-mcp-header annotation"),
      },
      required: ["region", "priority", "query"],
    },
  },
];
/** What the client is told to call (the official scenario's `MCP_CONFORMANCE_CONTEXT`). */
const TOOL_CALLS = [
  {
    name: "test_custom_headers",
    arguments: {
      region: "us-west1", priority: 42, verbose: false, debug: true, empty_val: "", method_val: "test-method", float_val: 3.14159,
      non_ascii_val: "Hello, 世界", whitespace_val: " padded ", leading_space_val: " us-west1", trailing_space_val: "us-west1 ",
      internal_space_val: "us west 1", control_char_val: "line1\nline2", crlf_val: "line1\r\nline2", tab_val: "\tindented", query: "SELECT * FROM users",
    },
  },
  { name: "test_custom_headers_null", arguments: { region: "us-east1", priority: 1, verbose: null, query: "SELECT 1" } },
];
/** The annotated string arguments checked when present, after `Region` and `Priority` (always). */
const OPTIONAL: readonly [argument: string, header: string, type: string][] = [
  ["verbose", "Verbose", "boolean"], ["debug", "Debug", "boolean"], ["empty_val", "EmptyVal", "string"], ["method_val", "Method", "string"],
];
const OPTIONAL_ENCODED: readonly [argument: string, header: string][] = [
  ["non_ascii_val", "NonAscii"], ["whitespace_val", "Whitespace"], ["leading_space_val", "LeadingSpace"], ["trailing_space_val", "TrailingSpace"],
  ["internal_space_val", "InternalSpace"], ["control_char_val", "ControlChar"], ["crlf_val", "CrLf"], ["tab_val", "Tab"],
];
const WRAPPED = /^=\?base64\?(.*)\?=$/;

/** A value that must travel as base64: control characters, anything past ASCII, edge whitespace. */
function needsBase64(value: string): boolean {
  return [...value].some((c) => (c.codePointAt(0) as number) < 0x20 || (c.codePointAt(0) as number) > 0x7e) || value !== value.trim();
}

function sameNumber(header: string, body: string): string | undefined {
  const [h, b] = [Number(header), Number(body)];
  if (Number.isNaN(h) || Number.isNaN(b)) return `Non-numeric value in number comparison: header='${header}', body='${body}'`;
  if (Number.isInteger(b)) return h !== b ? `Numeric header value ${h} does not match body value ${b}` : undefined;
  return Math.abs(h - b) > 1e-9 ? `Numeric header value ${h} does not match body value ${b} (difference ${Math.abs(h - b)} exceeds tolerance 1e-9)` : undefined;
}

/** What is wrong with a header as sent for a body value, as the official scenario says it. */
function encodingError(raw: string, body: string, type: string): string | undefined {
  const wrapped = WRAPPED.exec(raw);
  const numeric = type === "number" || type === "integer";
  if (needsBase64(body)) {
    if (!wrapped) return `Value '${body}' requires Base64 encoding but header was sent as plain: '${raw}'`;
    const decoded = Buffer.from(wrapped[1] as string, "base64").toString("utf8");
    if (numeric) return sameNumber(decoded, body);
    return decoded !== body ? `Base64-decoded header value '${decoded}' does not match body value '${body}'` : undefined;
  }
  const decoded = wrapped ? Buffer.from(wrapped[1] as string, "base64").toString("utf8") : raw;
  if (numeric) return sameNumber(decoded, body);
  return decoded !== body ? `Header value '${decoded}' (raw: '${raw}') does not match body value '${body}'` : undefined;
}

/** One `Mcp-Param-<header>` check, or none when the argument is null or absent. */
function paramCheck(request: TappedRequest, header: string, value: unknown, type: string): Check | undefined {
  if (value === undefined || value === null) return undefined;
  const raw = request.headers[`mcp-param-${header.toLowerCase()}`];
  const expected = type === "boolean" ? (value ? "true" : "false") : String(value);
  const error = raw === undefined ? `Missing Mcp-Param-${header} header. Client MUST include headers for x-mcp-header parameters.` : encodingError(raw, expected, type);
  const base64 = typeof value === "string" && needsBase64(value);
  const id = base64 ? EXPECTED[3] : type === "number" || type === "integer" || type === "boolean" ? EXPECTED[2] : EXPECTED[1];
  return { id, status: error ? "FAILURE" : "SUCCESS", description: `Client sends correct Mcp-Param-${header} header (${type} value)`, ...(error ? { errorMessage: error } : {}), details: { headerName: `Mcp-Param-${header}`, rawHeaderValue: raw, bodyValue: value, valueType: type, needsBase64: base64 } };
}

function unexpectedHeader(request: TappedRequest, header: string, description: string, what: string): Check {
  const raw = request.headers[`mcp-param-${header.toLowerCase()}`];
  return { id: EXPECTED[1], status: raw === undefined ? "SUCCESS" : "FAILURE", description, ...(raw === undefined ? {} : { errorMessage: `Found unexpected Mcp-Param-${header} header '${raw}' for ${what}` }) };
}

/** The checks of one call of test_custom_headers, in the official order. */
function customHeaderChecks(request: TappedRequest, args: Record<string, unknown>): Check[] {
  const mirrored = Object.keys(request.headers).some((h) => h.startsWith("mcp-param-"));
  const checks: (Check | undefined)[] = [
    { id: EXPECTED[0], status: mirrored ? "SUCCESS" : "FAILURE", description: "Client supports custom headers: calls the x-mcp-header annotated tool and mirrors at least one parameter", ...(mirrored ? {} : { errorMessage: "Client called test_custom_headers but sent no Mcp-Param-* headers." }) },
    paramCheck(request, "Region", args["region"], "string"),
    paramCheck(request, "Priority", args["priority"], "integer"),
    ...OPTIONAL.map(([argument, header, type]) => paramCheck(request, header, args[argument], type)),
    unexpectedHeader(request, "FloatVal", "Client MUST NOT add Mcp-Param headers for parameters without x-mcp-header (number-typed float_val is served unannotated per SEP-2243)", "an unannotated number parameter"),
    ...OPTIONAL_ENCODED.map(([argument, header]) => paramCheck(request, header, args[argument], "string")),
    unexpectedHeader(request, "Query", "Client MUST NOT add Mcp-Param headers for parameters without x-mcp-header", "unannotated parameter"),
  ];
  return checks.filter((c): c is Check => c !== undefined);
}

export const httpCustomHeaders: Scenario = {
  name: "http-custom-headers",
  suite: "official",
  description: "Tests that client mirrors x-mcp-header tool parameters into Mcp-Param headers with correct encoding (SEP-2243)",
  specVersions: [DRAFT],
  async start() {
    const mock = await scenarioMock({ serverInfo: { name: "http-custom-headers-server", version: "1.0.0" } });
    // A stubbed list, not declared tools: the mock would refuse a call whose Mcp-Param-* headers
    // are wrong (as a server should), and this scenario judges them without stopping the client.
    mock.toolsList().respondsWith({ tools: TOOLS });
    mock.toolsCall().withArgsMatching(() => true).respondsWith("Custom headers test completed");
    const run = await tappedRun(mock, (tap) => {
      const checks: Check[] = [];
      let called = false;
      let nullCalled = false;
      for (const request of tap.requests) {
        const { method, params } = messageOf(request);
        if (request.method !== "POST" || method !== "tools/call") continue;
        const args = (params?.["arguments"] as Record<string, unknown> | undefined) ?? {};
        if (params?.["name"] === "test_custom_headers") {
          called = true;
          checks.push(...customHeaderChecks(request, args));
        } else if (params?.["name"] === "test_custom_headers_null") {
          nullCalled = true;
          const raw = request.headers["mcp-param-verbose"];
          checks.push({ id: EXPECTED[4], status: raw === undefined ? "SUCCESS" : "FAILURE", description: "Client MUST omit Mcp-Param header when parameter value is null or not provided", ...(raw === undefined ? {} : { errorMessage: `Mcp-Param-Verbose should be omitted when null/undefined, but got '${raw}'` }) });
        }
      }
      for (const id of EXPECTED) {
        if (checks.some((c) => c.id === id)) continue;
        const errorMessage =
          id === EXPECTED[4] && !nullCalled
            ? "Client did not send a tools/call request for test_custom_headers_null to test null/omitted parameter handling."
            : called
              ? "Check was not observed: no tool call exercised it."
              : "Client did not send a tools/call request for test_custom_headers.";
        checks.push({ id, status: "FAILURE", description: `Declared check ${id} was never emitted`, errorMessage });
      }
      return checks;
    });
    return { ...run, context: { toolCalls: TOOL_CALLS } };
  },
};
