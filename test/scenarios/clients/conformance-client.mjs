// A client written for the official conformance runner's client mode, its handlers copied from
// the suite's examples/clients/typescript/everything-client.ts (the revision the project pins):
// MCP_CONFORMANCE_SCENARIO names the scenario, the URL is the last argument. The suite's
// everything-client has no handler for the SEP-2243 header scenarios (http-standard-headers,
// http-custom-headers, http-invalid-tool-headers): those below use the v2 SDK client pinned to
// 2026-07-28, which implements them. BROKEN=<what> breaks it on purpose: no-call (lists tools,
// calls none), deref (fetches the network $ref), no-defaults (answers elicitation without the
// defaults), no-client-version, no-retry (gives up on -32022), strip-defs and strip-anchor
// (echo the 2020-12 schema without $defs, or without $defs.address.$anchor), same-id (retries a
// round with the first call's id), alter-state (retries with a changed requestState),
// leak-state (sends the state on the unrelated call too), retry-untyped (retries a result that
// has no resultType), no-mcp-method (drops Mcp-Method),
// plain-unsafe (sends a value past ASCII in Mcp-Param-NonAscii without base64), no-param-headers
// (drops every Mcp-Param-*), call-invalid (also calls a tool whose x-mcp-header is invalid).
// The Skills scenarios (sep-2640-*), which the everything-client has no handler for, use a host
// of our own: it lists the skills, loads each by reading its SKILL.md, verifies it against the
// entry (size, digest, frontmatter) and only then reads its other files. prefetch (reads every
// listed file at once), size-only (verifies the size alone), digest-only (size and digest, not
// the frontmatter), no-verify (uses what it reads).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createHash } from "node:crypto";
import { ElicitRequestSchema, ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";

const DRAFT = "2026-07-28";
const PROTOCOL_VERSION = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
const STATELESS = PROTOCOL_VERSION === DRAFT;
const BROKEN = process.env.BROKEN ?? "";
const SCENARIO = process.env.MCP_CONFORMANCE_SCENARIO;
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

// The suite's examples/clients/typescript/sse-retry-test.ts, reduced: call the tool, whose stream closes at once.
async function sseRetry(url) {
  const { client, transport } = await connected(url);
  await client.callTool({ name: "test_reconnection", arguments: {} }, undefined, { timeout: 10_000 });
  await transport.close();
}

// The everything-client's runJsonSchema2020_12PreservationClient: list, then echo the focal
// tool's inputSchema as held.
async function jsonSchemaPreservation(url) {
  const echo = async (schema) => {
    const copy = structuredClone(schema);
    if (BROKEN === "strip-defs") delete copy.$defs;
    if (BROKEN === "strip-anchor") delete copy.$defs.address.$anchor;
    return copy;
  };
  if (STATELESS) {
    const list = await statelessRequest(url, "tools/list");
    const focal = list?.tools?.find((t) => t.name === "json_schema_2020_12_tool");
    if (!focal) throw new Error("Focal tool 'json_schema_2020_12_tool' not advertised");
    await statelessRequest(url, "tools/call", { name: "json_schema_echo", arguments: { schema: await echo(focal.inputSchema) } });
    return;
  }
  const { client, transport } = await connected(url);
  const list = await client.listTools();
  const focal = list.tools.find((t) => t.name === "json_schema_2020_12_tool");
  if (!focal) throw new Error("Focal tool 'json_schema_2020_12_tool' not advertised");
  await client.callTool({ name: "json_schema_echo", arguments: { schema: await echo(focal.inputSchema) } });
  await transport.close();
}

// The everything-client's runMRTRClient: bare JSON-RPC over fetch, each round answered and retried.
async function mrtr(url) {
  let id = 1;
  const rpc = async (method, params, reuse) => {
    const body = { jsonrpc: "2.0", id: reuse ?? id++, method, ...(params ? { params } : {}) };
    const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    return response.status === 204 ? { id: body.id, result: {} } : { ...(await response.json()), id: body.id };
  };
  const accept = (inputRequests) =>
    Object.fromEntries(Object.entries(inputRequests).filter(([, r]) => r.method === "elicitation/create").map(([key]) => [key, { action: "accept", content: { confirmed: true } }]));
  await rpc("tools/list");
  const r1 = await rpc("tools/call", { name: "test_mrtr_echo_state", arguments: {} });
  if (r1.result?.resultType === "input_required") {
    const state = r1.result.requestState;
    await rpc("tools/call", { name: "test_mrtr_unrelated", arguments: {}, ...(BROKEN === "leak-state" && state !== undefined ? { requestState: state } : {}) });
    const retry = { name: "test_mrtr_echo_state", arguments: {}, inputResponses: accept(r1.result.inputRequests) };
    if (state !== undefined) retry.requestState = BROKEN === "alter-state" ? JSON.stringify({ altered: state }) : state;
    await rpc("tools/call", retry, BROKEN === "same-id" ? r1.id : undefined);
  }
  const r2 = await rpc("tools/call", { name: "test_mrtr_no_state", arguments: {} });
  if (r2.result?.resultType === "input_required") await rpc("tools/call", { name: "test_mrtr_no_state", arguments: {}, inputResponses: accept(r2.result.inputRequests) });
  const r3 = await rpc("tools/call", { name: "test_mrtr_no_result_type", arguments: {} });
  // No resultType is "complete": only a broken client asks again.
  if (BROKEN === "retry-untyped" && r3.result && !r3.result.resultType) await rpc("tools/call", { name: "test_mrtr_no_result_type", arguments: {}, inputResponses: {} });
}

/** The v2 client pinned to 2026-07-28, its requests' headers changed by `change`. */
async function v2(url, change = () => {}) {
  const rewriting = (input, init) => {
    const headers = new Headers(init?.headers);
    change(headers);
    return fetch(input, { ...init, headers });
  };
  const client = new ClientV2({ name: "conformance-v2-client", version: "1.0.0" }, { versionNegotiation: { mode: { pin: DRAFT } } });
  await client.connect(new TransportV2(new URL(url), { fetch: rewriting }));
  return client;
}

async function standardHeaders(url) {
  const client = await v2(url, (headers) => BROKEN === "no-mcp-method" && headers.delete("mcp-method"));
  const { tools } = await client.listTools();
  for (const tool of tools) await client.callTool({ name: tool.name, arguments: {} });
  const { resources } = await client.listResources();
  for (const resource of resources) await client.readResource({ uri: resource.uri });
  const { prompts } = await client.listPrompts();
  for (const prompt of prompts) await client.getPrompt({ name: prompt.name });
  await client.close();
}

async function customHeaders(url) {
  const client = await v2(url, (headers) => {
    if (BROKEN === "plain-unsafe" && headers.has("mcp-param-nonascii")) headers.set("mcp-param-nonascii", encodeURIComponent("Hello, 世界"));
    if (BROKEN === "no-param-headers") for (const name of [...headers.keys()]) if (name.startsWith("mcp-param-")) headers.delete(name);
  });
  await client.listTools();
  const { toolCalls } = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
  for (const call of toolCalls ?? []) await client.callTool(call);
  await client.close();
}

async function invalidToolHeaders(url) {
  const client = await v2(url);
  const { tools } = await client.listTools();
  for (const tool of tools) await client.callTool({ name: tool.name, arguments: { region: "us-west1" } });
  await client.close();
  if (BROKEN === "call-invalid") await statelessRequest(url, "tools/call", { name: "invalid_space_in_name", arguments: { value: "x" } });
}

/** The frontmatter of a SKILL.md: `key: value` lines between `---`, each value JSON or a plain string. */
function frontmatterOf(text) {
  const block = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1];
  if (block === undefined) return undefined;
  const fields = {};
  for (const line of block.split(/\r?\n/)) {
    const at = line.indexOf(":");
    if (at <= 0) continue;
    const value = line.slice(at + 1).trim();
    try {
      fields[line.slice(0, at).trim()] = JSON.parse(value);
    } catch {
      fields[line.slice(0, at).trim()] = value;
    }
  }
  return fields;
}

/** Why a SKILL.md read does not verify against its entry (undefined when it does), as far as this host checks. */
function unverified(entry, text) {
  const file = Array.isArray(entry.resources) ? entry.resources.find((r) => r.uri === entry.uri) : undefined;
  if (BROKEN === "no-verify" || !file) return undefined;
  if (Buffer.byteLength(text, "utf8") !== file.size) return "size";
  if (BROKEN === "size-only") return undefined;
  if (`sha256:${createHash("sha256").update(text, "utf8").digest("hex")}` !== file.digest) return "digest";
  if (BROKEN === "digest-only") return undefined;
  const held = frontmatterOf(text) ?? {};
  const keys = new Set([...Object.keys(held), ...Object.keys(entry.frontmatter ?? {})]);
  return [...keys].some((k) => JSON.stringify(held[k]) !== JSON.stringify(entry.frontmatter?.[k])) ? "frontmatter" : undefined;
}

async function skillsHost(url) {
  let rpc = (method, params) => statelessRequest(url, method, params);
  let done = async () => {};
  if (!STATELESS) {
    const { client, transport } = await connected(url);
    rpc = (method, params) => client.request({ method, params }, ResultSchema);
    done = () => transport.close();
  }
  const { skills } = await rpc("skills/list", {});
  const files = (skill) => (Array.isArray(skill.resources) ? skill.resources.map((r) => r.uri) : [skill.uri]);
  const read = async (uri) => (await rpc("resources/read", { uri })).contents?.find((c) => typeof c.text === "string")?.text ?? "";
  if (BROKEN === "prefetch") for (const skill of skills) for (const uri of files(skill)) await read(uri);
  // Loading a skill is this host's task in the verify scenarios; after a listing alone it reads nothing.
  if (SCENARIO !== "sep-2640-client-no-prefetch") {
    for (const skill of skills) {
      const problem = unverified(skill, await read(skill.uri));
      if (problem) {
        console.error(`rejected ${skill.uri}: its ${problem} does not match the entry`);
        continue;
      }
      for (const uri of files(skill).filter((u) => u !== skill.uri)) await read(uri);
    }
  }
  await done();
}

const HANDLERS = {
  "sep-2640-client-no-prefetch": skillsHost,
  "sep-2640-client-verify-digest": skillsHost,
  "sep-2640-client-verify-size": skillsHost,
  "sep-2640-client-verify-frontmatter": skillsHost,
  "json-schema-2020-12-preservation": jsonSchemaPreservation,
  "sep-2322-client-request-state": mrtr,
  "http-standard-headers": standardHeaders,
  "http-custom-headers": customHeaders,
  "http-invalid-tool-headers": invalidToolHeaders,
  "sse-retry": sseRetry,
  initialize: basic,
  tools_call: basic,
  "json-schema-ref-no-deref": listOnly,
  "request-metadata": requestMetadata,
  "elicitation-sep1034-client-defaults": elicitationDefaults,
};

const url = process.argv[process.argv.length - 1];
const handler = HANDLERS[SCENARIO];
if (!handler) {
  console.error(`Unknown scenario: ${SCENARIO}`);
  process.exit(1);
}
try {
  await handler(url);
  process.exit(0);
} catch (error) {
  console.error("Error:", error);
  process.exit(1);
}
