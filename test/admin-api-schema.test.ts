/**
 * Issue 43, item 4: admin-api.schema.json (shipped beside schema.json) describes what the admin
 * API really answers: every route's answer from a live mock, matched and unmatched calls, a
 * held and a failed verify, refusals, is valid against its $defs (additionalProperties off, so a
 * new field must be described there too).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { McpMock } from "../src/index.js";

interface Validate {
  (value: unknown): boolean;
  errors?: unknown;
}
const Ajv2020 = (createRequire(import.meta.url)("ajv/dist/2020") as { default: new (o: object) => { addSchema(s: object): void; getSchema(ref: string): Validate | undefined } }).default;
const schema = JSON.parse(readFileSync(new URL("../admin-api.schema.json", import.meta.url), "utf8")) as { $id: string };
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
ajv.addSchema(schema);

/** Expects the value to be valid against one of the schema's $defs. */
function expectValid(def: string, value: unknown): void {
  const validate = ajv.getSchema(`${schema.$id}#/$defs/${def}`);
  if (!validate) throw new Error(`no $defs/${def}`);
  expect(validate(value), `${def}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(value)}`).toBe(true);
}

let mock: McpMock;
let client: Client;
let admin: string;
const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> => {
  const response = await fetch(`${admin}${path}`, { method, ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }) });
  return { status: response.status, json: response.status === 204 ? undefined : await response.json() };
};

beforeAll(async () => {
  mock = await McpMock.start({ tools: [{ name: "search", inputSchema: { type: "object" } }], admin: true, onUnmatched: "silent" });
  admin = mock.url.replace(/\/mcp$/, "/__admin");
  client = new Client({ name: "schema", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
});

afterAll(async () => {
  await client?.close();
  await mock?.close();
});

test("every admin answer is valid against admin-api.schema.json", async () => {
  const added = await call("POST", "/stubs", { responses: [{ tool: "search", args: { q: "mcp" }, result: { hits: 2 } }] });
  expect(added.status).toBe(201);
  expectValid("stubsAdded", added.json);
  await client.callTool({ name: "search", arguments: { q: "mcp" } });
  await client.callTool({ name: "search", arguments: { q: "other" } });
  await client.ping();

  const requests = await call("GET", "/requests");
  const entries = requests.json as Array<Record<string, unknown>>;
  expect(entries.map((e) => e.method)).toEqual(expect.arrayContaining(["initialize", "notifications/initialized", "tools/call", "ping"]));
  expect(entries.some((e) => e.unmatched === true && e.suggestion !== undefined && typeof e.missReport === "string")).toBe(true);
  for (const entry of entries) expectValid("journalEntry", entry);
  const unmatched = (await call("GET", "/requests/unmatched")).json as unknown[];
  expect(unmatched).toHaveLength(1);
  for (const entry of unmatched) expectValid("journalEntry", entry);

  const stubs = (await call("GET", "/stubs")).json as unknown[];
  expect(stubs.length).toBeGreaterThan(1);
  for (const stub of stubs) expectValid("stubListing", stub);
  const sessions = (await call("GET", "/sessions")).json as unknown[];
  expect(sessions).toHaveLength(1);
  for (const session of sessions) expectValid("session", session);

  const held = await call("POST", "/verify", { pattern: { tool: "search", args: { q: "mcp" } }, count: { atMost: 1 } });
  expect(held.status).toBe(200);
  expectValid("verifyAnswer", held.json);
  const failed = await call("POST", "/verify", { pattern: { tool: "search" }, count: "never" });
  expect(failed.status).toBe(422);
  expectValid("verifyAnswer", failed.json);

  const notified = await call("POST", "/notify", { method: "notifications/tools/list_changed" });
  expectValid("notifyAnswer", notified.json);
  for (const refused of [await call("POST", "/verify", {}), await call("POST", "/verify", { pattern: { tool: "serch" } }), await call("GET", "/nowhere")]) {
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expectValid("problem", refused.json);
  }
});

test("the package ships it beside schema.json", () => {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { files: string[]; exports: Record<string, unknown> };
  expect(pkg.files).toContain("admin-api.schema.json");
  expect(pkg.exports["./admin-api.schema.json"]).toBe("./admin-api.schema.json");
});
