/**
 * The official client scenarios through `runScenario`, driven by real clients (the SDK's v1
 * Client and the v2 client): a correct client passes, a client broken on purpose fails the
 * check that is about what it broke, with a message that says what it did.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, test } from "vitest";
import { formatVerdict, runScenario, scenarioNames, type ScenarioClientContext } from "../../src/scenarios/index.js";
import { statuses, withV1 } from "./v1-client.js";

const v1 = (url: string, work: (client: Client) => Promise<unknown>, info?: { name: string; version: string }): Promise<void> => withV1(url, undefined, work, info);

describe("official scenarios", () => {
  test("scenarioNames lists the official names and filters by revision", () => {
    expect(scenarioNames({ suite: "official" })).toEqual(expect.arrayContaining(["initialize", "tools_call", "http-standard-headers", "json-schema-ref-no-deref"]));
    expect(scenarioNames({ specVersion: "2026-07-28" })).not.toContain("initialize");
  });

  test("initialize: the v1 client passes; a client without a version fails mcp-client-initialization", async () => {
    const good = await runScenario("initialize", {}, (url) => v1(url, async () => {}));
    expect(statuses(good)).toEqual(["mcp-client-initialization SUCCESS", "server-info INFO"]);
    expect(good.passed).toBe(true);
    const bad = await runScenario("initialize", {}, (url) => v1(url, async () => {}, { name: "nameless", version: "" }));
    expect(bad.passed).toBe(false);
    expect(bad.checks[0]).toMatchObject({ id: "mcp-client-initialization", status: "FAILURE", errorMessage: "Client version missing" });
  });

  test("tools_call: calling add_numbers passes; a client that never calls it fails, saying so", async () => {
    const good = await runScenario("tools_call", {}, (url) =>
      v1(url, async (client) => {
        await client.listTools();
        const result = await client.callTool({ name: "add_numbers", arguments: { a: 5, b: 3 } });
        expect(result.content).toEqual([{ type: "text", text: "The sum of 5 and 3 is 8" }]);
      }),
    );
    expect(good.passed).toBe(true);
    const lazy = await runScenario("tools_call", {}, (url) => v1(url, (client) => client.listTools()));
    expect(lazy.passed).toBe(false);
    expect(formatVerdict(lazy)).toContain("Tool was not called by client");
  });

  test("json-schema-ref-no-deref: listing passes; fetching the $ref's URL fails", async () => {
    const good = await runScenario("json-schema-ref-no-deref", {}, (url) => v1(url, (client) => client.listTools()));
    expect(statuses(good)).toEqual(["sep-2106-no-network-ref-deref SUCCESS"]);
    const deref = await runScenario("json-schema-ref-no-deref", {}, (url) =>
      v1(url, async (client) => {
        const { tools } = await client.listTools();
        const ref = (tools[0]?.inputSchema.properties?.["profile"] as { $ref: string }).$ref;
        await (await fetch(ref)).json();
      }),
    );
    expect(deref.passed).toBe(false);
    expect(deref.checks[0]?.errorMessage).toBe("Canary URL /canary/profile-schema.json was fetched 1 time(s)");
  });

  test.each(["stdio", "memory"] as const)("json-schema-ref-no-deref over %s: the canary has a host of its own; fetching it fails", async (transport) => {
    const connect = (context: ScenarioClientContext, work: (client: Client) => Promise<unknown>) => withV1("", context, work);
    const good = await runScenario("json-schema-ref-no-deref", { transport }, (_url, context) => connect(context, (client) => client.listTools()));
    expect([statuses(good), good.passed]).toEqual([["sep-2106-no-network-ref-deref SUCCESS"], true]);
    const deref = await runScenario("json-schema-ref-no-deref", { transport }, (_url, context) =>
      connect(context, async (client) => {
        const { tools } = await client.listTools();
        const ref = (tools[0]?.inputSchema.properties?.["profile"] as { $ref: string }).$ref;
        expect(ref).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/canary\/profile-schema\.json$/);
        await (await fetch(ref)).json();
      }),
    );
    expect(deref.checks[0]?.errorMessage).toBe("Canary URL /canary/profile-schema.json was fetched 1 time(s)");
  });

  test("a driver that throws fails the verdict with its error", async () => {
    const verdict = await runScenario("tools_call", { timeout: 2_000 }, async () => {
      throw new Error("cannot connect");
    });
    expect(verdict).toMatchObject({ passed: false, clientError: "cannot connect" });
  });

  test.each([Infinity, 3_000_000_000, 0, -1, Number.NaN])("a timeout a timer cannot hold (%s) is refused, not played as 1 ms", async (timeout) => {
    let driven = false;
    await expect(runScenario("tools_call", { timeout }, async () => void (driven = true))).rejects.toThrow(
      `runScenario: timeout takes the milliseconds the client may take, a number above 0 and at most 2147483647 (about 24.8 days, what a timer can hold), like timeout: 30_000; received ${String(timeout)}.`,
    );
    expect(driven).toBe(false);
  });

  test("a revision the scenario does not apply to is refused, not played and labelled with it", async () => {
    let driven = false;
    await expect(runScenario("initialize", { specVersion: "2026-07-28" }, async () => void (driven = true))).rejects.toThrow(
      /^\[mcpmock\] runScenario: scenario initialize applies to 2025-11-25 and 2025-06-18; received specVersion "2026-07-28"\. Leave specVersion out to play it at 2025-11-25; at 2026-07-28: tools_call, /,
    );
    await expect(runScenario("tools_call", { specVersion: "2099-01-01" }, async () => void (driven = true))).rejects.toThrow(
      'runScenario: scenario tools_call applies to 2025-11-25 and 2026-07-28 and 2025-06-18; received specVersion "2099-01-01". Leave specVersion out to play it at 2025-11-25; or give force: true to play it there anyway.',
    );
    // Forced, a revision the mock does not speak is refused still.
    await expect(runScenario("tools_call", { specVersion: "2099-01-01", force: true }, async () => void (driven = true))).rejects.toThrow('received specVersion "2099-01-01". Leave specVersion out to play it at 2025-11-25.');
    expect(driven).toBe(false);
  });

  test("force: true plays a scenario at a revision it does not apply to (the official runner's --force)", async () => {
    let asked: string | undefined;
    const verdict = await runScenario("initialize", { specVersion: "2026-07-28", force: true }, async (_url, context) => void (asked = context.specVersion));
    expect(asked).toBe("2026-07-28");
    expect(verdict.specVersion).toBe("2026-07-28");
  });

  test("an unknown scenario is refused with the names", async () => {
    await expect(runScenario("tools-call", {}, async () => {})).rejects.toThrow(/no scenario is named "tools-call"\. Did you mean "tools_call"\? scenarioNames\(\) lists them: initialize, tools_call, /);
    // A hostile server named without its prefix, or cut short.
    await expect(runScenario("canary-tool", {}, async () => {})).rejects.toThrow('no scenario is named "canary-tool". Did you mean "hostile/canary-tool"?');
    await expect(runScenario("hostile/canary", {}, async () => {})).rejects.toThrow('no scenario is named "hostile/canary". Did you mean "hostile/canary-tool"?');
    // Misspelt: named as the CLI names it.
    await expect(runScenario("hostile/canary-tol", {}, async () => {})).rejects.toThrow('no scenario is named "hostile/canary-tol". Did you mean "hostile/canary-tool"?');
  });
});
