/**
 * Issue 32, recording: `mcpmock check` against a fresh recording of
 * @modelcontextprotocol/server-everything passes with its default capabilities (those the
 * recording saw the client declare: the server lists its elicitation and sampling tools only
 * to such clients), and plays the server's own requests with the recorded answers and its
 * streams; `--capabilities` mistakes are clear; `record` and `checkDefinition` from
 * `mcpmock/recording` do the same from code, with the lines the CLI prints.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { checkDefinition, record } from "../../src/recording/index.js";
import type { MockDefinition } from "../../src/definition/format.js";
import { CLI, mcpmock, stdio } from "../support/recording.js";
import { everythingOverHttp } from "../proxy/everything.js";

const EVERYTHING = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";
const SERVER = [process.execPath, EVERYTHING, "stdio"] as const;
const CAPABILITIES = { elicitation: {}, sampling: {} };
const dir = mkdtempSync(join(tmpdir(), "mcpmock-recording-api-"));

/** The client's answers to the server's own requests: the same every run. */
function answering(client: Client): void {
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name: "Ada Lovelace" } }));
  client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
    model: "test-model",
    role: "assistant",
    content: { type: "text", text: `echo of ${JSON.stringify(request.params.messages[0]?.content)}` },
  }));
}

/** A session that makes the server ask the client (elicitation, sampling) and stream progress. */
async function session(client: Client): Promise<void> {
  answering(client);
  await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
  await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
  await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "hi", maxTokens: 20 } });
  await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 } }, undefined, { onprogress: () => {} });
}

function read(file: string): MockDefinition {
  return JSON.parse(readFileSync(file, "utf8")) as MockDefinition;
}

function write(def: MockDefinition, name: string): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(def));
  return file;
}

const cliFile = join(dir, "cli.json");

beforeAll(async () => {
  // `mcpmock record` over stdio, the client declaring elicitation and sampling.
  const client = new Client({ name: "first-hour", version: "1.0.0" }, { capabilities: CAPABILITIES });
  await client.connect(stdio(process.execPath, [CLI, "record", "--out", cliFile, "--", ...SERVER]));
  await client.listTools();
  await session(client);
  await client.close();
  for (let i = 0; i < 50 && !readFileSync(cliFile, "utf8").includes("trigger-long-running-operation"); i++) await new Promise((r) => setTimeout(r, 100));
}, 30_000);

describe("mcpmock check against a fresh stdio recording of server-everything", () => {
  it("records the client's capabilities and its answers to the server's requests", () => {
    const def = read(cliFile);
    expect(def.recorded).toEqual({ clientCapabilities: CAPABILITIES });
    const elicit = def.responses?.find((r) => r.tool === "trigger-elicitation-request");
    expect(elicit?.stream?.find((s) => "request" in s)).toMatchObject({ request: "elicitation/create", answer: { result: { action: "accept", content: { name: "Ada Lovelace" } } } });
  });

  it("passes with the default capabilities, playing the server's requests and streams", async () => {
    const checked = mcpmock(["check", cliFile, "--", ...SERVER]);
    expect(await checked.exited, checked.stdout() + checked.stderr()).toBe(0);
    const out = checked.stdout();
    expect(out).toMatch(/✓ tools\/list: the \d+ declared tools agree/);
    expect(out).toContain('✓ tools/call "trigger-elicitation-request" {}: agrees');
    expect(out).toContain('✓ tools/call "trigger-sampling-request" {"maxTokens":20,"prompt":"hi"}: agrees');
    expect(out).toContain('✓ tools/call "trigger-long-running-operation" {"duration":0.2,"steps":2}: agrees');
    expect(out).toMatch(/^\d+ agree, 0 differ$/m);
  });

  it("without the recorded capabilities the server lists fewer tools, and check says what to try", async () => {
    const def = read(cliFile);
    delete def.recorded;
    const checked = mcpmock(["check", write(def, "no-capabilities.json"), "--", ...SERVER]);
    expect(await checked.exited).toBe(1);
    expect(checked.stdout()).toContain('tool "trigger-elicitation-request" is declared but the server does not list it');
    expect(checked.stdout()).toContain(`try --capabilities '{"elicitation":{},"sampling":{}}'`);
    const given = mcpmock(["check", write(def, "no-capabilities.json"), "--capabilities", JSON.stringify(CAPABILITIES), "--", ...SERVER]);
    expect(await given.exited, given.stdout()).toBe(0);
  });

  it("reports a stream that differs and a recorded answer the server answers otherwise", async () => {
    const def = read(cliFile);
    const long = def.responses!.find((r) => r.tool === "trigger-long-running-operation")!;
    long.stream = long.stream!.filter((s, i) => !("progress" in s) || i > 0); // the first progress gone
    const elicit = def.responses!.find((r) => r.tool === "trigger-elicitation-request")!;
    const asked = elicit.stream!.find((s) => "request" in s) as { answer: { result: { content: { name: string } } } };
    asked.answer.result.content.name = "Grace Hopper"; // the server echoes the answer: its result now differs
    const checked = mcpmock(["check", write(def, "doctored.json"), "--", ...SERVER]);
    expect(await checked.exited).toBe(1);
    const out = checked.stdout();
    expect(out).toMatch(/✗ tools\/call "trigger-long-running-operation" \{"duration":0\.2,"steps":2\}: differs\n {4}stream message 1 \(notifications\/progress\) params\/progress: expected 2, received 1/);
    expect(out).toMatch(/✗ tools\/call "trigger-elicitation-request" \{\}: differs\n {4}\/content\/1\/text: expected ".*Ada Lovelace.*", received ".*Grace Hopper/);
  });
});

describe("--capabilities mistakes say what to write", () => {
  it.each([
    ["not JSON", "{elicitation}", /--capabilities takes the client capabilities as a JSON object, like --capabilities '\{"elicitation":\{\},"sampling":\{\}\}'; "\{elicitation\}" is not JSON/],
    ["not an object", "[1]", /--capabilities takes a JSON object of client capabilities, like .*; received \[1\]/],
    ["a capability that is not an object", '{"elicitation":true}', /--capabilities: "elicitation" must be an object \(its settings, \{\} for none\), like --capabilities '\{"elicitation":\{\}\}'; received true/],
  ])("%s: exit 2", async (_what, value, message) => {
    for (const command of [["check", cliFile], ["record", "--out", join(dir, "never.json")]]) {
      const run = mcpmock([...command, "--capabilities", value, "--", ...SERVER]);
      expect(await run.exited).toBe(2);
      expect(run.stderr()).toMatch(message);
    }
  });
});

describe("mcpmock/recording from code", () => {
  it("record() drives its own client and returns the definition written; checkDefinition() agrees, then lists the differences the CLI prints", async () => {
    const out = join(dir, "code.json");
    const recorded = await record({ command: SERVER[0], args: SERVER.slice(1), out, capabilities: CAPABILITIES, session });
    expect(recorded.path).toBe(out);
    expect(read(out)).toEqual(recorded.definition);
    expect(recorded.definition.recorded?.clientCapabilities).toEqual(CAPABILITIES);
    expect(recorded.definition.tools?.map((t) => t.name)).toContain("trigger-sampling-request");
    expect(recorded.exchanges).toBeGreaterThan(5);

    const agrees = await checkDefinition(out, { command: SERVER[0], args: SERVER.slice(1) });
    expect(agrees.ok, agrees.lines.join("\n")).toBe(true);
    expect(agrees.differences).toEqual([]);

    const def = structuredClone(recorded.definition);
    const sum = def.responses!.find((r) => r.tool === "get-sum")!;
    sum.result = { content: [{ type: "text", text: "The sum of 2 and 3 is 6." }] };
    const differs = await checkDefinition(def, { command: SERVER[0], args: SERVER.slice(1) });
    expect(differs.ok).toBe(false);
    expect(differs.differences).toEqual([{
      call: 'tools/call "get-sum" {"a":2,"b":3}',
      details: ['/content/0/text: expected "The sum of 2 and 3 is 6.", received "The sum of 2 and 3 is 5."'],
      changes: [{ at: "/content/0/text", expected: "The sum of 2 and 3 is 6.", received: "The sum of 2 and 3 is 5." }],
    }]);
    const cli = mcpmock(["check", write(def, "code-doctored.json"), "--", ...SERVER]);
    expect(await cli.exited).toBe(1);
    expect(cli.stdout()).toBe(`${differs.lines.join("\n")}\n`);
  }, 30_000);

  it("over Streamable HTTP too: record({ target }) through its proxy, checkDefinition({ target })", async () => {
    const upstream = await everythingOverHttp();
    try {
      const out = join(dir, "http.json");
      const recorded = await record({ target: upstream.url, out, capabilities: CAPABILITIES, session });
      expect(recorded.definition.recorded?.clientCapabilities).toEqual(CAPABILITIES);
      const checked = await checkDefinition(out, { target: upstream.url });
      expect(checked.ok, checked.lines.join("\n")).toBe(true);
      expect(checked.lines).toContain('✓ tools/call "trigger-elicitation-request" {}: agrees');
    } finally {
      await upstream.stop();
    }
  }, 30_000);

  it("rejects what it cannot use, saying so", async () => {
    await expect(checkDefinition({ tools: [{ name: "t" }] }, { command: SERVER[0], args: SERVER.slice(1), ignore: ["no-slash"] })).rejects.toThrow(/checkDefinition\(\{ ignore \}\)/);
    await expect(record({ target: "nowhere", out: join(dir, "x.json") })).rejects.toThrow(/record\(\{ target \}\) takes the real server's URL/);
  });
});
