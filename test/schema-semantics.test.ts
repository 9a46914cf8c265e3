/**
 * What a definition's tool schemas mean, checked where the file is read (validate, serve,
 * fromDefinition, the admin API): a `required` naming an undeclared property, `args` the
 * inputSchema refuses, a `result` that breaks the outputSchema, all reported at once with the
 * fix; `validate --proxy` reads a file as `serve --proxy` does; and in proxy mode a stub's
 * object answer for an upstream tool with an outputSchema goes out as `structuredContent`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpMock } from "../src/index.js";
import { runCli } from "./support/cli-run.js";

/** The stubs a test added (not the built-in answers). */
const own = (mock: McpMock) => mock.stubs().filter((s) => s.source !== "default");

/** The message of what an async `run` rejects with. */
async function refusal(run: () => Promise<unknown>): Promise<string> {
  return run().then(
    () => "nothing was thrown",
    (error: unknown) => (error as Error).message,
  );
}

const dir = mkdtempSync(join(tmpdir(), "mcpmock-semantics-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, definition: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(definition));
  return path;
}

const FORECAST = {
  name: "forecast",
  inputSchema: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] },
  outputSchema: { type: "object", properties: { temp: { type: "number" } }, required: ["temp"] },
} as const;

const BROKEN = {
  tools: [
    FORECAST,
    { name: "book", inputSchema: { type: "object", properties: { seat: { type: "string" } }, required: ["seats"] } },
  ],
  responses: [
    { tool: "forecast", args: { city: "Paris", days: "three" }, result: { temp: 3 } },
    { tool: "forecast", args: { city: "Rome" }, result: { temp: "warm" } },
    { tool: "forecast", argsMatching: { city: "Oslo" }, result: "cold" },
  ],
};

describe("schema-semantic mistakes", () => {
  it("validate lists every one, with the path and the fix", { timeout: 30_000 }, async () => {
    const r = await runCli(["validate", file("broken.json", BROKEN)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("4 problems, all listed here");
    expect(r.stderr).toContain(`- tools[1].inputSchema.required[0]: names "seats", which "properties" does not declare (it declares "seat"). Did you mean "seat"? Add "seats" to "properties", or take it out of "required".`);
    expect(r.stderr).toContain(`- responses[0].args: no call can match: tool "forecast"'s inputSchema refuses these arguments (args.days must be integer (rule: type), received "three" (string)).`);
    expect(r.stderr).toContain(`as { "$literal": ... }`);
    expect(r.stderr).toContain(`- responses[1].result: breaks tool "forecast"'s outputSchema (result.temp must be number (rule: type), received "warm" (string))`);
    expect(r.stderr).toContain(`- responses[2].result: tool "forecast" declares an outputSchema, and this answer is not an object`);
    expect(r.stderr).toContain(`"options": { "strict": false }`);
  });

  it("fromDefinition and the admin API refuse the same entries", async () => {
    const message = await refusal(() => McpMock.fromDefinition(BROKEN));
    expect(message).toContain("4 problems");
    expect(message).toContain("responses[0].args: no call can match");
    await using mock = await McpMock.start({ admin: true });
    const answer = await fetch(mock.url.replace(/\/mcp$/, "/__admin/stubs"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(BROKEN) });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("responses[1].result: breaks tool");
    expect(own(mock)).toEqual([]);
  });

  it("a matcher-valued or $literal argument is not checked, and strict: false keeps a mistake on purpose", async () => {
    const matched = { tools: [FORECAST], responses: [{ tool: "forecast", args: { city: { $regex: "^P" }, days: { $any: true } }, result: { temp: 1 } }] };
    await using mock = await McpMock.fromDefinition(matched);
    expect(own(mock)).toHaveLength(1);
    // A $literal value is matched as written, unchecked: the escape for one field.
    await using literal = await McpMock.fromDefinition({ tools: [FORECAST], responses: [{ tool: "forecast", args: { city: { $literal: 7 } }, result: { temp: 1 } }] });
    expect(own(literal)).toHaveLength(1);
    const bare = { tools: [FORECAST], responses: [{ tool: "forecast", args: { city: 7 }, result: { temp: 1 } }] };
    expect(await refusal(() => McpMock.fromDefinition(bare))).toContain("args.city must be string (rule: type), received 7 (number)");
    // argsMatching names some fields: a required one left out is no mistake.
    await using partial = await McpMock.fromDefinition({ tools: [FORECAST], responses: [{ tool: "forecast", argsMatching: { days: 2 }, result: { temp: 1 } }] });
    expect(own(partial)).toHaveLength(1);
    await using onPurpose = await McpMock.fromDefinition({ ...BROKEN, tools: [FORECAST], options: { strict: false } });
    expect(own(onPurpose)).toHaveLength(3);
  });
});

describe("validate --proxy", () => {
  const undeclared = { tools: [], responses: [{ tool: "get-sum", result: "stubbed" }] };

  it("accepts a tool stubbed without a declaration, as serve --proxy does; without it, says how", async () => {
    const path = file("proxied.json", undeclared);
    const plain = await runCli(["validate", path]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain(`responses[0].tool: tool "get-sum" is not in tools.`);
    for (const proxy of [["--proxy"], ["--proxy", "http://127.0.0.1:9/mcp"], ["--proxy", "--", "node", "server.js"]]) {
      const r = await runCli(["validate", path, ...proxy]);
      expect(r.stderr).toBe("");
      expect(r.stdout).toContain("is a valid mcpmock definition for proxy mode.");
      expect(r.code).toBe(0);
    }
  }, 60_000);
});

describe("proxy mode wraps a stub's answer as the upstream declares the tool", () => {
  it.each(["listed first", "never listed"])("an object answer gets structuredContent (%s)", async (order) => {
    await using upstream = await McpMock.start({ tools: [FORECAST] });
    upstream.toolsCall("forecast").respondsWith({ temp: 20 });
    await using mock = await McpMock.start({ proxy: { target: upstream.url } });
    mock.toolsCall("forecast").withArgs({ city: "Paris" }).respondsWith({ temp: 3 });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
    try {
      if (order === "listed first") expect((await client.listTools()).tools[0]?.outputSchema).toEqual(FORECAST.outputSchema);
      const stubbed = await client.callTool({ name: "forecast", arguments: { city: "Paris" } });
      expect(stubbed.structuredContent).toEqual({ temp: 3 });
      expect(stubbed.content).toEqual([{ type: "text", text: '{"temp":3}' }]);
      const real = await client.callTool({ name: "forecast", arguments: { city: "Rome" } });
      expect(real.structuredContent).toEqual({ temp: 20 });
    } finally {
      await client.close();
    }
  });
});
