/**
 * The hostile servers against the SDK's v1 Client and the v2 client, each driven as an
 * application would use it (list, call, retry a failed call once), with the client's own
 * defaults for everything else. The verdicts are pinned per client: a change in either the
 * scenario or the client shows here. A table of them is printed for the guide. The scenarios
 * that are not about HTTP run again with the v1 client over stdio and in memory: the same
 * verdicts.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, test } from "vitest";
import { runScenario, scenarioNames, type ScenarioClientContext, type Verdict } from "../../src/scenarios/index.js";
import { readmeVerdicts, WORK, type Driven } from "./hostile-work.js";

type Kind = "v1" | "v2";
type Way = Kind | "v1 over stdio" | "v1 in memory";
async function connect(way: Way, url: string, context: ScenarioClientContext): Promise<Driven> {
  if (way !== "v2") {
    const client = new ClientV1({ name: "hostile-v1", version: "1.0.0" });
    const stdio = context.stdio;
    await client.connect(way === "v1" ? new TransportV1(new URL(url)) : stdio ? new StdioClientTransport({ command: stdio.command, args: [...stdio.args], stderr: "pipe" }) : (context.clientTransport as () => never)());
    return { listTools: () => client.listTools(), call: (name, args = {}, timeout = 5_000) => client.callTool({ name, arguments: args }, undefined, { timeout }), close: () => client.close() };
  }
  const client = new ClientV2({ name: "hostile-v2", version: "1.0.0" });
  await client.connect(new TransportV2(new URL(url)));
  return { listTools: () => client.listTools(), call: (name, args = {}, timeout = 5_000) => client.callTool({ name, arguments: args }, { timeout }), close: () => client.close() };
}

/** The verdicts observed (check id: status), per client; what the table in the guide says. */
const EXPECTED: Readonly<Record<string, Record<Kind, string>>> = {
  "hostile/tool-list-changed": { v1: "FAILURE", v2: "FAILURE" },
  "hostile/canary-tool": { v1: "SUCCESS", v2: "SUCCESS" },
  "hostile/session-expired": { v1: "FAILURE", v2: "FAILURE" },
  "hostile/stream-dropped": { v1: "SUCCESS", v2: "SUCCESS" },
  "hostile/slow-answer": { v1: "SUCCESS", v2: "SUCCESS" },
  "hostile/malformed-json": { v1: "SUCCESS", v2: "SUCCESS" },
  "hostile/endless-cursor": { v1: "SUCCESS", v2: "SUCCESS" },
  "hostile/undeclared-capability": { v1: "SUCCESS", v2: "SUCCESS" },
  "hostile/list-changed-storm": { v1: "SUCCESS", v2: "SUCCESS" },
  "hostile/huge-result": { v1: "SUCCESS", v2: "SUCCESS" },
};

const table: string[] = [];
afterAll(() => {
  if (process.env.SCENARIO_TABLE) console.log(table.sort().join("\n"));
});

test("the README's table says what these tests found", () => {
  const readme = readmeVerdicts();
  const column: Record<Kind, string> = { v1: "SDK v1", v2: "SDK v2" };
  for (const [name, statuses] of Object.entries(EXPECTED)) for (const [kind, status] of Object.entries(statuses)) expect([name, kind, readme.get(name)?.get(column[kind as Kind])]).toEqual([name, kind, status]);
});

const WAYS: readonly Way[] = ["v1", "v2", "v1 over stdio", "v1 in memory"];

describe.each(WAYS)("the SDK %s client against the hostile servers", (way) => {
  const transport = way === "v1 over stdio" ? "stdio" : way === "v1 in memory" ? "memory" : "http";
  const kind: Kind = way === "v2" ? "v2" : "v1";
  test("every hostile scenario has a drive here", () => {
    expect(Object.keys(WORK).sort()).toEqual(scenarioNames({ suite: "hostile" }).sort());
  });
  test.each(scenarioNames({ suite: "hostile", transport }))("%s", async (name) => {
    const verdict: Verdict = await runScenario(name, { timeout: 15_000, transport }, async (url, context) => {
      const client = await connect(way, url, context);
      try {
        await (WORK[name] as (c: Driven) => Promise<void>)(client);
      } finally {
        await client.close();
      }
    });
    const first = verdict.checks[0];
    table.push(`${name} ${way} ${first?.status} ${first?.errorMessage ?? ""} ${verdict.clientError ?? ""}`);
    expect(first?.status).toBe(EXPECTED[name]?.[kind]);
  }, 20_000);
});
