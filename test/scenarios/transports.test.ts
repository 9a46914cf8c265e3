/**
 * The official scenarios that are not about HTTP, over stdio (the SDK's StdioClientTransport
 * spawns the command the scenario gives) and in memory (the scenario's SDK transport), with the
 * SDK's v1 Client: the same checks as over HTTP, and a client broken on purpose fails them the
 * same way. A scenario that is about HTTP refuses the other transports, naming those it has.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { runScenario, type ScenarioClientContext } from "../../src/scenarios/index.js";
import { statuses, withV1 } from "./v1-client.js";

type Transport = "stdio" | "memory";

/** Connects the v1 client over the scenario's transport and lets `work` use it. */
const v1 = (context: ScenarioClientContext, work: (client: Client) => Promise<unknown>, info = { name: "transport-test", version: "1.0.0" }, capabilities = {}): Promise<void> =>
  withV1("", context, work, info, capabilities);

describe.each<Transport>(["stdio", "memory"])("official scenarios over %s", (transport) => {
  test("initialize: the v1 client passes; one without a version fails, saying so", async () => {
    const good = await runScenario("initialize", { transport }, (url, context) => {
      expect(url).toBe("");
      expect(context.transport).toBe(transport);
      return v1(context, async () => {});
    });
    expect(statuses(good)).toEqual(["mcp-client-initialization SUCCESS", "server-info INFO"]);
    expect(good.passed).toBe(true);
    const bad = await runScenario("initialize", { transport }, (_url, context) => v1(context, async () => {}, { name: "nameless", version: "" }));
    expect(bad.passed).toBe(false);
    expect(bad.checks[0]).toMatchObject({ id: "mcp-client-initialization", status: "FAILURE", errorMessage: "Client version missing" });
  });

  test("tools_call: calling add_numbers passes and gets the sum; a client that only lists fails", async () => {
    let answer: unknown;
    const good = await runScenario("tools_call", { transport }, (_url, context) =>
      v1(context, async (client) => {
        await client.listTools();
        answer = (await client.callTool({ name: "add_numbers", arguments: { a: 5, b: 3 } })).content;
      }),
    );
    expect(answer).toEqual([{ type: "text", text: "The sum of 5 and 3 is 8" }]);
    expect(statuses(good)).toEqual(["tool-add-numbers SUCCESS"]);
    const lazy = await runScenario("tools_call", { transport }, (_url, context) => v1(context, (client) => client.listTools()));
    expect(lazy.passed).toBe(false);
    expect(lazy.checks[0]?.errorMessage).toBe("Tool was not called by client");
  });

  test("elicitation-sep1034-client-defaults: a client that fills in the defaults passes", async () => {
    const verdict = await runScenario("elicitation-sep1034-client-defaults", { transport }, (_url, context) =>
      v1(
        context,
        async (client) => {
          client.setRequestHandler(ElicitRequestSchema, async (request) => {
            const schema = (request.params as { requestedSchema: { properties: Record<string, { default?: unknown }> } }).requestedSchema;
            return { action: "accept", content: Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, v.default])) as never };
          });
          await client.callTool({ name: "test_client_elicitation_defaults", arguments: {} });
        },
        undefined,
        { elicitation: {} },
      ),
    );
    expect(verdict.passed).toBe(true);
    expect(verdict.checks).toHaveLength(5);
  });

  test("json-schema-2020-12-preservation: echoing the schema as listed passes; a client that strips keywords fails", async () => {
    const echo = (strip: boolean) => (_url: string, context: ScenarioClientContext) =>
      v1(context, async (client) => {
        const { tools } = await client.listTools();
        const schema = { ...(tools.find((t) => t.name === "json_schema_2020_12_tool")?.inputSchema as Record<string, unknown>) };
        if (strip) delete schema["$defs"];
        await client.callTool({ name: "json_schema_echo", arguments: { schema } });
      });
    const good = await runScenario("json-schema-2020-12-preservation", { transport }, echo(false));
    expect(good.passed).toBe(true);
    const stripped = await runScenario("json-schema-2020-12-preservation", { transport }, echo(true));
    expect(stripped.checks.filter((c) => c.status === "FAILURE")).toEqual([
      expect.objectContaining({ id: "json-schema-2020-12-client-$defs-preserved", errorMessage: "$defs missing from echoed inputSchema — client likely stripped it during parsing" }),
    ]);
  });
});

describe("scenarios about HTTP", () => {
  test("refuse stdio and memory, naming the scenarios that can be played so", async () => {
    await expect(runScenario("sse-retry", { transport: "stdio" }, async () => {})).rejects.toThrow(/sse-retry is played over http only .*over stdio: initialize, tools_call/);
    await expect(runScenario("tools_call", { transport: "carrier-pigeon" as never }, async () => {})).rejects.toThrow(/transport must be "http", "stdio" or "memory"; received "carrier-pigeon"/);
  });
});
