/**
 * `http-standard-headers` (official, SEP-2243): every POST carries `Mcp-Method` equal to the
 * body's method, and `tools/call`, `resources/read` and `prompts/get` carry `Mcp-Name` equal to
 * the tool or prompt name or the resource URI. Check `sep-2243-client-includes-standard-headers`
 * (one per method, the first request of each; SKIPPED for a method the client never used).
 * @module
 */
import type { Check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, tappedRun } from "../scenario-mock.js";
import { messageOf } from "../wire-tap.js";

const CHECK_ID = "sep-2243-client-includes-standard-headers";
const EXPECTED_METHODS = ["initialize", "notifications/initialized", "tools/list", "tools/call", "resources/list", "resources/read", "prompts/list", "prompts/get"];
const NAME_FIELDS: Readonly<Record<string, "name" | "uri">> = { "tools/call": "name", "resources/read": "uri", "prompts/get": "name" };
const EMPTY_OBJECT = { type: "object", properties: {}, required: [] } as const;

export const httpStandardHeaders: Scenario = {
  name: "http-standard-headers",
  suite: "official",
  description: "Tests that client includes Mcp-Method and Mcp-Name headers on HTTP POST requests (SEP-2243)",
  specVersions: ["2026-07-28"],
  async start() {
    const mock = await scenarioMock({
      serverInfo: { name: "http-standard-headers-server", version: "1.0.0" },
      tools: [
        { name: "test_headers", description: "A simple tool used to test that HTTP headers are sent correctly", inputSchema: EMPTY_OBJECT },
        { name: "my-hyphenated-tool", description: "Tool with hyphen in name to test special chars in Mcp-Name header", inputSchema: EMPTY_OBJECT },
      ],
      resources: [
        { uri: "file:///path/to/file%20name.txt", name: "File with spaces", description: "Resource URI with percent-encoded spaces", text: "" },
        { uri: "https://example.com/resource?id=123", name: "Resource with query string", description: "Resource URI with query string", text: "" },
      ],
      prompts: [{ name: "test_prompt", description: "A simple prompt for header testing", messages: [] }],
    });
    mock.toolsCall().withArgsMatching(() => true).respondsWith({ content: [{ type: "text", text: "Headers test completed" }] });
    return tappedRun(mock, (tap) => {
      const checks: Check[] = [];
      const methodSeen = new Set<string>();
      const nameSeen = new Set<string>();
      for (const request of tap.requests) {
        if (request.method !== "POST") continue;
        const message = messageOf(request);
        const method = message.method;
        if (!method || method === "server/discover") continue;
        if (!methodSeen.has(method)) {
          methodSeen.add(method);
          const header = request.headers["mcp-method"];
          const error = !header
            ? `Missing Mcp-Method header on ${method} request. Clients MUST include the Mcp-Method header on all POST requests.`
            : header !== method
              ? `Mcp-Method header value '${header}' does not match body method '${method}'. Header values are case-sensitive.`
              : undefined;
          checks.push({ id: CHECK_ID, status: error ? "FAILURE" : "SUCCESS", description: `Client sends correct Mcp-Method header on ${method} request`, ...(error ? { errorMessage: error } : {}), details: { expectedMethod: method, actualHeader: header } });
        }
        const field = NAME_FIELDS[method];
        if (field && !nameSeen.has(method)) {
          nameSeen.add(method);
          const expected = message.params?.[field];
          const header = request.headers["mcp-name"];
          const error = !header
            ? `Missing Mcp-Name header on ${method} request. Clients MUST include the Mcp-Name header for ${method} requests.`
            : header !== expected
              ? `Mcp-Name header value '${header}' does not match body params.${field} '${String(expected)}'.`
              : undefined;
          checks.push({ id: CHECK_ID, status: error ? "FAILURE" : "SUCCESS", description: `Client sends correct Mcp-Name header on ${method} request`, ...(error ? { errorMessage: error } : {}), details: { method, sourceField: `params.${field}`, expectedValue: expected, actualHeader: header } });
        }
      }
      for (const method of EXPECTED_METHODS)
        if (!methodSeen.has(method)) checks.push({ id: CHECK_ID, status: "SKIPPED", description: `Client sends correct Mcp-Method header on ${method} request`, errorMessage: `Client did not send a ${method} request; Mcp-Method header was not exercised for this method.` });
      for (const method of Object.keys(NAME_FIELDS))
        if (!nameSeen.has(method)) checks.push({ id: CHECK_ID, status: "SKIPPED", description: `Client sends correct Mcp-Name header on ${method} request`, errorMessage: `Client did not send a ${method} request; Mcp-Name header was not exercised for this method.` });
      return checks;
    }, {
      // The mock refuses a 2026-07-28 POST without its standard headers; the official server
      // does not. Supplied on the way, so a client that omits them is judged, not stopped.
      forward: (request, headers) => {
        const message = messageOf(request);
        if (request.method !== "POST" || !message.method) return;
        headers["mcp-method"] ??= message.method;
        const field = NAME_FIELDS[message.method];
        if (field && typeof message.params?.[field] === "string") headers["mcp-name"] ??= message.params[field] as string;
      },
    });
  },
};
