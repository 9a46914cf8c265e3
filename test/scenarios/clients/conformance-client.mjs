// A client written for the official conformance runner's client mode, its handlers copied from
// the suite's examples/clients/typescript/everything-client.ts (the revision the project pins):
// MCP_CONFORMANCE_SCENARIO names the scenario, the URL is the last argument. BROKEN=<what>
// breaks it on purpose: no-call (lists tools, calls none), deref (fetches the network $ref),
// no-defaults (answers elicitation without the defaults), no-client-version, no-retry (gives up
// on -32022).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const DRAFT = "2026-07-28";
const PROTOCOL_VERSION = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
const STATELESS = PROTOCOL_VERSION === DRAFT;
const BROKEN = process.env.BROKEN ?? "";
const META_BASE = {
  "io.modelcontextprotocol/clientInfo": { name: "conformance-test-client", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": { tools: {}, roots: {}, sampling: {}, elicitation: {} },
};
let nextId = 1;

async function statelessRequest(url, method, params = {}) {
  const _meta = { "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION ?? DRAFT, ...META_BASE };
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": PROTOCOL_VERSION ?? DRAFT },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta } }),
  });
  // A server may answer in an SSE stream: the message is its data line.
  const text = await response.text();
  const body = JSON.parse(response.headers.get("content-type")?.includes("text/event-stream") ? text.split("\n").find((l) => l.startsWith("data: ") && l.length > 6).slice(6) : text);
  if (body.error) throw new Error(`${method} failed: ${body.error.code} ${body.error.message}`);
  return body.result;
}

async function connected(url, capabilities = {}, setup = () => {}) {
  const client = new Client({ name: "test-client", version: BROKEN === "no-client-version" ? "" : "1.0.0" }, { capabilities });
  setup(client);
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

async function basic(url) {
  if (STATELESS) {
    const list = await statelessRequest(url, "tools/list");
    const tool = list?.tools?.[0];
    if (tool && BROKEN !== "no-call") await statelessRequest(url, "tools/call", { name: tool.name, arguments: { a: 2, b: 3 } });
    return;
  }
  const { client, transport } = await connected(url);
  const list = await client.listTools();
  const tool = list.tools[0];
  if (tool && BROKEN !== "no-call") await client.callTool({ name: tool.name, arguments: { a: 2, b: 3 } });
  await transport.close();
}

async function listOnly(url) {
  const tools = STATELESS ? (await statelessRequest(url, "tools/list")).tools : await (async () => {
    const { client, transport } = await connected(url);
    const list = await client.listTools();
    await transport.close();
    return list.tools;
  })();
  if (BROKEN === "deref") await (await fetch(tools[0].inputSchema.properties.profile.$ref)).json();
}

async function requestMetadata(url) {
  let active = PROTOCOL_VERSION ?? DRAFT;
  const send = (method, id, version) =>
    fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "MCP-Protocol-Version": version }, body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { _meta: { ...META_BASE, "io.modelcontextprotocol/protocolVersion": version } } }) });
  const negotiated = async (method, id) => {
    let response = await send(method, id, active);
    if (response.status === 400 && BROKEN !== "no-retry") {
      const error = (await response.clone().json()).error;
      if (error?.code === -32022) {
        const mutual = [...new Set([PROTOCOL_VERSION ?? DRAFT, DRAFT])].filter((v) => (error.data?.supported ?? []).includes(v));
        if (mutual.length) {
          active = mutual[0];
          response = await send(method, id, active);
        }
      }
    }
    if (!response.ok) throw new Error(`${method} failed: ${response.status}`);
    return response.json();
  };
  await negotiated("server/discover", "discover-1");
  await negotiated("tools/list", 2);
}

async function elicitationDefaults(url) {
  const { client, transport } = await connected(url, { elicitation: { applyDefaults: BROKEN !== "no-defaults" } }, (c) =>
    c.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: {} })),
  );
  const tools = await client.listTools();
  if (!tools.tools.some((t) => t.name === "test_client_elicitation_defaults")) throw new Error("Test tool not found: test_client_elicitation_defaults");
  await client.callTool({ name: "test_client_elicitation_defaults", arguments: {} });
  await transport.close();
}

const HANDLERS = {
  initialize: basic,
  tools_call: basic,
  "json-schema-ref-no-deref": listOnly,
  "request-metadata": requestMetadata,
  "elicitation-sep1034-client-defaults": elicitationDefaults,
};

const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
const url = process.argv[process.argv.length - 1];
const handler = HANDLERS[scenario];
if (!handler) {
  console.error(`Unknown scenario: ${scenario}`);
  process.exit(1);
}
try {
  await handler(url);
  process.exit(0);
} catch (error) {
  console.error("Error:", error);
  process.exit(1);
}
