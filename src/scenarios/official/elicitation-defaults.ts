/**
 * `elicitation-sep1034-client-defaults` (official, SEP-1034): a tool asks the client for a form
 * whose optional fields all have defaults; the client accepts and its answer holds each
 * default it did not change. Checks `client-elicitation-sep1034-*` from the client's answer.
 * @module
 */
import type { Check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { scenarioMock, servedRun } from "../scenario-mock.js";

const TOOL = "test_client_elicitation_defaults";
const SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", description: "User name", default: "John Doe" },
    age: { type: "integer", description: "User age", default: 30 },
    score: { type: "number", description: "User score", default: 95.5 },
    status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", description: "Verification status", default: true },
  },
  required: [],
};
/** field, check id suffix, the type the value must have, what the message calls the default. */
const FIELDS: readonly [string, string, string, string][] = [
  ["name", "string", "string", '"John Doe"'],
  ["age", "integer", "number", "30"],
  ["score", "number", "number", "95.5"],
  ["status", "enum", "string", '"active"'],
  ["verified", "boolean", "boolean", "true"],
];

function fieldCheck(content: Record<string, unknown>, [field, kind, type, fallback]: (typeof FIELDS)[number]): Check {
  let error: string | undefined;
  if (!(field in content)) error = `Field "${field}" missing - should have default ${fallback}`;
  else if (typeof content[field] !== type) error = `Expected ${type} for "${field}", got ${typeof content[field]}`;
  else if (kind === "enum" && !["active", "inactive", "pending"].includes(content[field] as string)) error = `Value "${String(content[field])}" is not a valid enum member`;
  const description = `Client applies ${kind} default value for elicitation`;
  return { id: `client-elicitation-sep1034-${kind}-default`, status: error ? "FAILURE" : "SUCCESS", description, ...(error ? { errorMessage: error } : {}), details: { field, receivedValue: content[field] } };
}

export const elicitationDefaults: Scenario = {
  name: "elicitation-sep1034-client-defaults",
  suite: "official",
  description: "Tests that the client applies default values for omitted elicitation fields (SEP-1034)",
  specVersions: ["2025-11-25"],
  transports: ["http", "stdio", "memory"],
  async start(start) {
    const mock = await scenarioMock({
      serverInfo: { name: "elicitation-defaults-test-server", version: "1.0.0" },
      tools: [{ name: TOOL, description: "Tests that client applies defaults for omitted elicitation fields", inputSchema: { type: "object", properties: {}, required: [] } }],
    }, start);
    mock.toolsCall(TOOL).withArgsMatching(() => true).streams((s) =>
      s.request("elicitation/create", { message: "Test client default value handling - please accept with defaults", requestedSchema: SCHEMA }).result((call) => ({ content: [{ type: "text", text: `Elicitation completed: ${JSON.stringify((call.answer as { content?: unknown } | undefined)?.content ?? {})}` }] })),
    );
    return servedRun(mock, start, () => {
      const answer = mock.requests().find((e) => e.kind === "response" && e.method === "elicitation/create");
      if (!answer) return mock.requests().some((e) => e.method === "tools/call") ? [{ id: "client-elicitation-sep1034-general", status: "FAILURE", description: "Client handles elicitation with defaults", errorMessage: "Elicitation failed: the client did not answer elicitation/create" }] : [];
      const body = answer.params as { result?: { action?: string; content?: Record<string, unknown> }; error?: { message?: string }; action?: string; content?: Record<string, unknown> } | undefined;
      const result = body?.result ?? body;
      if (body?.error) return [{ id: "client-elicitation-sep1034-general", status: "FAILURE", description: "Client handles elicitation with defaults", errorMessage: `Elicitation failed: ${body.error.message ?? "an error"}` }];
      if (result?.action !== "accept") return [{ id: "client-elicitation-sep1034-general", status: "FAILURE", description: "Client accepts elicitation request", errorMessage: `Expected action 'accept', got '${String(result?.action)}'` }];
      return FIELDS.map((f) => fieldCheck(result.content ?? {}, f));
    }, { tap: false });
  },
};
