/**
 * The official client scenarios that need a client's answers or the 2026-07-28 wire:
 * elicitation defaults (the v1 client), request metadata and standard headers (the v2 client).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { describe, expect, test } from "vitest";
import { runScenario } from "../../src/scenarios/index.js";
import { statuses } from "./v1-client.js";

async function elicitingClient(url: string, answer: (schema: { properties: Record<string, { default?: unknown }> }) => Record<string, unknown>): Promise<void> {
  const client = new Client({ name: "elicit", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => ({ action: "accept", content: answer((request.params as { requestedSchema?: unknown }).requestedSchema as never) as never }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await client.callTool({ name: "test_client_elicitation_defaults", arguments: {} });
  await client.close();
}

describe("official scenarios with answers and the 2026 wire", () => {
  test("elicitation-sep1034-client-defaults: defaults applied pass; a dropped default fails its check", async () => {
    const fill = (schema: { properties: Record<string, { default?: unknown }> }) => Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, v.default]));
    const good = await runScenario("elicitation-sep1034-client-defaults", {}, (url) => elicitingClient(url, fill));
    expect(good.passed).toBe(true);
    expect(good.checks.map((c) => c.id)).toEqual(["string", "integer", "number", "enum", "boolean"].map((k) => `client-elicitation-sep1034-${k}-default`));
    const bad = await runScenario("elicitation-sep1034-client-defaults", {}, (url) => elicitingClient(url, (schema) => { const { age: _dropped, ...rest } = fill(schema); return rest; }));
    expect(bad.passed).toBe(false);
    expect(bad.checks.filter((c) => c.status === "FAILURE")).toEqual([expect.objectContaining({ id: "client-elicitation-sep1034-integer-default", errorMessage: 'Field "age" missing - should have default 30' })]);
  });

  test("request-metadata: the v2 client pinned to 2026-07-28", async () => {
    const verdict = await runScenario("request-metadata", {}, async (url) => {
      const client = new ClientV2({ name: "v2", version: "1" }, { versionNegotiation: { mode: "auto" } } as never);
      await client.connect(new TransportV2(new URL(url)));
      // A request after the handshake (the scenario's server declares no tools, and the v2 client
      // answers listTools() itself then, with a line on stdout, sending nothing).
      await client.ping();
      await client.close();
    });
    expect(statuses(verdict)).toMatchInlineSnapshot(`
      [
        "sep-2575-http-client-sends-version-header SUCCESS",
        "sep-2575-client-populates-meta SUCCESS",
        "sep-2575-client-sends-client-info SUCCESS",
        "sep-2575-http-version-header-matches-meta SUCCESS",
        "sep-2575-client-declares-roots-capability SKIPPED",
        "sep-2575-client-declares-sampling-capability SKIPPED",
        "sep-2575-client-declares-elicitation-capability SKIPPED",
        "sep-2575-client-retry-supported-version SUCCESS",
      ]
    `);
  });

  test("http-standard-headers: the v2 client pinned to 2026-07-28", async () => {
    const verdict = await runScenario("http-standard-headers", {}, async (url) => {
      const client = new ClientV2({ name: "v2", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
      await client.connect(new TransportV2(new URL(url)));
      await client.listTools();
      await client.callTool({ name: "my-hyphenated-tool", arguments: {} });
      await client.listResources();
      await client.readResource({ uri: "file:///path/to/file%20name.txt" });
      await client.listPrompts();
      await client.getPrompt({ name: "test_prompt" });
      await client.close();
    });
    expect(statuses(verdict)).toMatchInlineSnapshot(`
      [
        "sep-2243-client-includes-standard-headers SUCCESS",
        "sep-2243-client-includes-standard-headers SUCCESS",
        "sep-2243-client-includes-standard-headers SUCCESS",
        "sep-2243-client-includes-standard-headers SUCCESS",
        "sep-2243-client-includes-standard-headers SUCCESS",
        "sep-2243-client-includes-standard-headers SUCCESS",
        "sep-2243-client-includes-standard-headers SUCCESS",
        "sep-2243-client-includes-standard-headers SUCCESS",
        "sep-2243-client-includes-standard-headers SUCCESS",
        "sep-2243-client-includes-standard-headers SKIPPED",
        "sep-2243-client-includes-standard-headers SKIPPED",
      ]
    `);
  });

  test("http-standard-headers: a client that drops Mcp-Method fails, naming the request", async () => {
    const dropping: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.delete("mcp-method");
      return fetch(input, { ...init, headers });
    };
    const verdict = await runScenario("http-standard-headers", {}, async (url) => {
      const client = new ClientV2({ name: "v2", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
      await client.connect(new TransportV2(new URL(url), { fetch: dropping }));
      await client.listTools();
      await client.close();
    });
    expect(verdict.passed).toBe(false);
    expect(verdict.checks.find((c) => c.status === "FAILURE")?.errorMessage).toBe("Missing Mcp-Method header on tools/list request. Clients MUST include the Mcp-Method header on all POST requests.");
  });
});
