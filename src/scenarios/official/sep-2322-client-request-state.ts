/**
 * `sep-2322-client-request-state` (official, SEP-2322, 2026-07-28): multi round-trip requests.
 * `test_mrtr_echo_state` answers `input_required` with an elicitation and a `requestState` (the
 * mock's own sealed state: a stream script's request step); the client retries with
 * `inputResponses`, the state byte for byte and a new JSON-RPC id. `test_mrtr_no_state` asks
 * without a state: the retry must carry none. `test_mrtr_unrelated`, called between rounds,
 * must carry neither. `test_mrtr_no_result_type` answers with no `resultType` (the wire tap
 * answers it, as the mock would add one): the client must take it as complete and not retry.
 * Over HTTP the wire tap records the calls and answers that tool; over stdio and in memory the
 * message tap does.
 * Checks `sep-2322-client-request-state-echoed`, `-jsonrpc-id-different`, `-no-state-omitted`,
 * `-parallel-isolation` and `sep-2322-default-result-type-complete`.
 * @module
 */
import type { Check } from "../check.js";
import type { Scenario } from "../scenario.js";
import { MessageTap, type TappedMessage } from "../message-tap.js";
import { scenarioMock, servedRun, tappedRun } from "../scenario-mock.js";
import { messageOf, supplyStandardHeaders, type TappedRequest } from "../wire-tap.js";

const DRAFT = "2026-07-28";
const EMPTY = { type: "object", properties: {}, required: [] } as const;
const TOOLS = [
  { name: "test_mrtr_echo_state", description: "Test tool: triggers MRTR flow with requestState. Client must echo state back unchanged.", inputSchema: EMPTY },
  { name: "test_mrtr_no_state", description: "Test tool: triggers MRTR flow WITHOUT requestState. Client must NOT include requestState in retry.", inputSchema: EMPTY },
  { name: "test_mrtr_unrelated", description: "Test tool: simple tool called between MRTR rounds. Must NOT carry inputResponses or requestState from another tool.", inputSchema: EMPTY },
  { name: "test_mrtr_no_result_type", description: "Test tool: returns a result without resultType. Client must treat it as complete (default).", inputSchema: EMPTY },
];
const CONFIRM_SCHEMA = { type: "object", properties: { confirmed: { type: "boolean", description: "Confirm?" } } };
const EXPECTED = ["sep-2322-client-request-state-echoed", "sep-2322-client-jsonrpc-id-different", "sep-2322-client-no-state-omitted", "sep-2322-client-parallel-isolation", "sep-2322-default-result-type-complete"];
const META_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

/**
 * The official scenario's server takes any POST as a 2026-07-28 request; the mock, as a server
 * must, reads the era from `MCP-Protocol-Version` or `_meta`. For a client that sends neither
 * (the suite's own example client sends bare JSON-RPC here), the tap supplies them on the way
 * to the mock: the record keeps what the client sent.
 */
function supplyStatelessMeta(request: TappedRequest, headers: Record<string, string | string[] | undefined>): string | void {
  supplyStandardHeaders(request, headers);
  const message = messageOf(request);
  if (request.method !== "POST" || !message.method || Array.isArray(request.json) || headers["mcp-session-id"] !== undefined) return;
  headers["mcp-protocol-version"] ??= DRAFT;
  const params = message.params ?? {};
  const meta = (params["_meta"] as Record<string, unknown> | undefined) ?? {};
  if (meta[META_VERSION] !== undefined && meta[META_CAPABILITIES] !== undefined) return;
  const supplied = { ...meta, [META_VERSION]: meta[META_VERSION] ?? headers["mcp-protocol-version"], [META_CAPABILITIES]: meta[META_CAPABILITIES] ?? { elicitation: {} } };
  return JSON.stringify({ ...message, params: { ...params, _meta: supplied } });
}

/** The tools/call requests the client sent, in order, with what the verdict reads of each. */
function callsOf(messages: readonly TappedMessage[]): { name: unknown; id: unknown; inputResponses: unknown; requestState: unknown }[] {
  return messages
    .filter((m) => m.method === "tools/call")
    .map(({ id, params }) => ({ name: params?.["name"], id, inputResponses: params?.["inputResponses"], requestState: params?.["requestState"] }));
}

/** A result with no resultType, which the mock (rightly) never sends: the tap answers this one tool. */
function withoutResultType({ method, id, params }: TappedMessage): Record<string, unknown> | undefined {
  if (method !== "tools/call" || params?.["name"] !== "test_mrtr_no_result_type") return undefined;
  const result = params["inputResponses"] === undefined ? { content: [{ type: "text", text: "no-result-type-test-ok" }] } : { resultType: "complete", content: [{ type: "text", text: "unexpected-retry" }] };
  return { jsonrpc: "2.0", id, result };
}

export const clientRequestState: Scenario = {
  name: "sep-2322-client-request-state",
  suite: "official",
  description: "Tests client MRTR behavior: requestState echo, no-state omission, and JSON-RPC id uniqueness (SEP-2322)",
  specVersions: [DRAFT],
  transports: ["http", "stdio", "memory"],
  async start(start) {
    const mock = await scenarioMock({ protocolVersions: [DRAFT], serverInfo: { name: "mrtr-mock-server", version: "1.0.0" }, tools: TOOLS }, start);
    mock.toolsCall("test_mrtr_echo_state").withArgsMatching(() => true).streams((s) =>
      s.request("elicitation/create", { message: "Please confirm to continue", requestedSchema: CONFIRM_SCHEMA }, { key: "confirm" }).result("echo-state-ok"),
    );
    // A round without a state: a raw result (the mock's own rounds always carry one).
    mock.method("tools/call").withParamsMatching({ name: "test_mrtr_no_state" }).respondsWith((call) =>
      call.params?.["inputResponses"] === undefined
        ? { resultType: "input_required", inputRequests: { confirm: { method: "elicitation/create", params: { message: "Please confirm to continue (no state test)", requestedSchema: CONFIRM_SCHEMA } } } }
        : { content: [{ type: "text", text: "no-state-ok" }] },
    );
    mock.toolsCall("test_mrtr_unrelated").withArgsMatching(() => true).respondsWith("unrelated-ok");
    const verdict = (messages: readonly TappedMessage[]): Check[] => {
      // The states the mock sent, from its answers to the first rounds.
      const sentStates = mock
        .requests()
        .filter((e) => e.kind === "request" && e.method === "tools/call" && e.params?.["name"] === "test_mrtr_echo_state" && e.params?.["inputResponses"] === undefined)
        .map((e) => ((e.answer as { result?: { requestState?: unknown } } | undefined)?.result?.requestState as string | undefined));
      const checks: Check[] = [];
      let originalId: unknown;
      let sentState: string | undefined;
      let firstRounds = 0;
      for (const call of callsOf(messages)) {
        if (call.name === "test_mrtr_echo_state") {
          if (call.inputResponses === undefined) {
            originalId = call.id;
            sentState = sentStates[firstRounds++];
            continue;
          }
          const stateError = call.requestState === undefined || call.requestState === "" ? "Client did not include requestState in retry" : call.requestState !== sentState ? "requestState was not echoed back exactly — clients MUST NOT inspect, parse, or modify it" : undefined;
          checks.push({ id: EXPECTED[0] as string, status: stateError ? "FAILURE" : "SUCCESS", description: "Client MUST echo back the exact value of requestState when retrying", ...(stateError ? { errorMessage: stateError } : {}), details: { requestStateSent: sentState, requestStateReceived: call.requestState, originalId } });
          const sameId = call.id === originalId;
          checks.push({ id: EXPECTED[1] as string, status: sameId ? "FAILURE" : "SUCCESS", description: "The JSON-RPC id MUST be different between the initial request and the retry", ...(sameId ? { errorMessage: `JSON-RPC id is the same on retry (${String(call.id)}) — MUST be different` } : {}), details: { originalId, retryId: call.id } });
        } else if (call.name === "test_mrtr_no_state" && call.inputResponses !== undefined) {
          const included = call.requestState !== undefined;
          checks.push({ id: EXPECTED[2] as string, status: included ? "FAILURE" : "SUCCESS", description: "If InputRequiredResult does not contain requestState, client MUST NOT include one in the retry", ...(included ? { errorMessage: `Client included requestState ("${String(call.requestState)}") but server did not send one — MUST NOT include it` } : {}), details: { requestStateReceived: call.requestState } });
        } else if (call.name === "test_mrtr_unrelated") {
          const errors = [
            ...(call.inputResponses !== undefined ? ["Unrelated tool call included inputResponses from another tool's MRTR flow"] : []),
            ...(call.requestState !== undefined ? ["Unrelated tool call included requestState from another tool's MRTR flow"] : []),
          ];
          checks.push({ id: EXPECTED[3] as string, status: errors.length ? "FAILURE" : "SUCCESS", description: "inputRequests and requestState MUST NOT be used for any other request the client may be sending", ...(errors.length ? { errorMessage: errors.join("; ") } : {}) });
        } else if (call.name === "test_mrtr_no_result_type") {
          const description = 'Client MUST assume resultType "complete" when not specified';
          if (call.inputResponses === undefined) checks.push({ id: EXPECTED[4] as string, status: "SUCCESS", description });
          else {
            const earlier = checks.findIndex((c) => c.id === EXPECTED[4]);
            if (earlier !== -1) checks.splice(earlier, 1);
            checks.push({ id: EXPECTED[4] as string, status: "FAILURE", description, errorMessage: "Client retried with inputResponses even though the result had no resultType (should default to complete)" });
          }
        }
      }
      for (const id of EXPECTED)
        if (!checks.some((c) => c.id === id)) checks.push({ id, status: "FAILURE", description: `MRTR client check: ${id}`, errorMessage: "Tool was not called by client or MRTR flow not completed" });
      return checks;
    };
    if (start.transport !== "http") {
      const tap = new MessageTap(withoutResultType);
      return servedRun(mock, start, () => verdict(tap.messages), undefined, tap);
    }
    return tappedRun(mock, (tap) => verdict(tap.requests.filter((r) => r.method === "POST").map(messageOf)), {
      forward: supplyStatelessMeta,
      // The mock plays a round as a stream; a client that takes no SSE gets it as JSON, as from the official server.
      answerAsJson: (request) => !(request.headers["accept"] ?? "").includes("text/event-stream"),
      intercept: (request, response) => {
        const own = request.method === "POST" ? withoutResultType(messageOf(request)) : undefined;
        if (!own) return false;
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(own));
        return true;
      },
    });
  },
};
