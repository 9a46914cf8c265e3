/**
 * Real servers nobody here wrote, from npm, offline, over stdio: server-memory (stateful),
 * server-filesystem, server-sequential-thinking and the official MCP App example
 * server-basic-vanillajs. Each is recorded with a scripted session (`record()`), the recording
 * replays to the same transcript (`McpMock.fromDefinition`), `checkDefinition` agrees with the
 * server and catches a doctored answer (whole, with its changes), and proxy mode with one tool
 * stubbed answers the rest as the server does.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpMock, type MockDefinition } from "../../src/index.js";
import { checkDefinition, record } from "../../src/recording/index.js";

/** A package's file in node_modules (the servers' exports maps do not name their entry files). */
const installed = (file: string): string => join(import.meta.dirname, "../../node_modules/@modelcontextprotocol", file);
const dir = mkdtempSync(join(tmpdir(), "mcpmock-real-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files = join(dir, "files");
mkdirSync(files);
writeFileSync(join(files, "notes.txt"), "first line\nsecond line\n");
writeFileSync(join(files, "data.json"), JSON.stringify({ a: 1, b: [1, 2, 3] }, null, 2));

type Call = [tool: string, args: Record<string, unknown>];

interface RealServer {
  readonly name: string;
  readonly command: string;
  readonly args: string[];
  /** The calls of the scripted session, in order. */
  readonly calls: readonly Call[];
  /** The tool proxy mode stubs, and the answer. */
  readonly stub: { tool: string; answer: Record<string, unknown> };
  /** What varies from run to run, per entry: pointers into a tool's results. */
  readonly vary?: Readonly<Record<string, readonly string[]>>;
}

const node = process.execPath;
const SERVERS: readonly RealServer[] = [
  {
    name: "server-memory",
    command: node,
    args: [join(import.meta.dirname, "memory-server.mjs"), join(dir, "memory.jsonl")],
    calls: [
      ["read_graph", {}],
      ["create_entities", { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] }],
      ["read_graph", {}],
      ["search_nodes", { query: "Ada" }],
    ],
    stub: { tool: "search_nodes", answer: { entities: [], relations: [] } },
  },
  {
    name: "server-filesystem",
    command: node,
    args: [installed("server-filesystem/dist/index.js"), files],
    calls: [
      ["list_directory", { path: files }],
      ["read_text_file", { path: join(files, "notes.txt") }],
      ["read_text_file", { path: join(files, "data.json"), head: 2 }],
    ],
    stub: { tool: "list_directory", answer: { content: "[FILE] stubbed.txt" } },
  },
  {
    name: "server-sequential-thinking",
    command: node,
    args: [installed("server-sequential-thinking/dist/index.js")],
    calls: [
      ["sequentialthinking", { thought: "First, read the question.", thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true }],
      ["sequentialthinking", { thought: "Then answer it.", thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: false }],
    ],
    stub: { tool: "sequentialthinking", answer: { thoughtNumber: 9, totalThoughts: 9, nextThoughtNeeded: false, branches: [], thoughtHistoryLength: 0 } },
  },
  {
    name: "server-basic-vanillajs (an MCP App)",
    command: node,
    args: [installed("server-basic-vanillajs/dist/index.js"), "--stdio"],
    calls: [["get-time", {}]],
    stub: { tool: "get-time", answer: { time: "2026-01-01T00:00:00.000Z" } },
    vary: { "get-time": ["/content/0/text", "/structuredContent/time"] },
  },
];

/** The session's answers, as a client sees them. */
async function session(client: Client, calls: readonly Call[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [name, args] of calls) out.push(await client.callTool({ name, arguments: args }));
  return out;
}

/** A transcript without what varies (per tool, pointers into its results). */
function steady(transcript: unknown[], calls: readonly Call[], vary: RealServer["vary"] = {}): unknown[] {
  return transcript.map((answer, i) => {
    const copy = structuredClone(answer) as Record<string, unknown>;
    for (const pointer of vary[calls[i]![0]] ?? []) {
      const parts = pointer.slice(1).split("/");
      let at: Record<string, unknown> | undefined = copy;
      for (const part of parts.slice(0, -1)) at = at?.[part] as Record<string, unknown> | undefined;
      if (at) at[parts.at(-1)!] = "(varies)";
    }
    return copy;
  });
}

async function clientOf(url: string): Promise<Client> {
  const client = new Client({ name: "real-servers", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe.each(SERVERS)("$name", (server) => {
  it("records, replays to the same transcript, checks (a doctored answer caught), and proxies with one tool stubbed", { timeout: 120_000 }, async () => {
    const target = { command: server.command, args: server.args };
    let recorded: unknown[] = [];
    const { definition } = await record({ ...target, out: join(dir, `${server.name.split(" ")[0]}.json`), session: async (client) => void (recorded = await session(client, server.calls)) });
    expect(recorded.length).toBe(server.calls.length);
    // A tool answered twice, otherwise (server-memory's read_graph): the recording keeps the order the calls were made in.
    if (definition.responses?.some((r) => r.then !== undefined)) expect(definition.recorded?.order).toHaveLength(server.calls.length);
    // What varies from run to run is ignored per entry, as a user writes it.
    for (const r of definition.responses ?? []) {
      const vary = r.tool === undefined ? undefined : server.vary?.[r.tool];
      if (vary) r.ignore = [...vary];
    }

    await using replay = await McpMock.fromDefinition(definition);
    const client = await clientOf(replay.url);
    try {
      expect(steady(await session(client, server.calls), server.calls, server.vary)).toEqual(steady(recorded, server.calls, server.vary));
    } finally {
      await client.close();
    }

    const agrees = await checkDefinition(definition, target);
    expect(agrees.differences, agrees.lines.join("\n")).toEqual([]);
    expect(agrees.ok).toBe(true);

    // The last call's answer doctored: caught, whole.
    const doctored = structuredClone(definition) as MockDefinition;
    const [lastTool, lastArgs] = server.calls.at(-1)!;
    const entry = doctored.responses!.find((r) => r.tool === lastTool && JSON.stringify(r.args) === JSON.stringify(lastArgs))!;
    const answer = (entry.then?.at(-1) ?? entry) as { result: { content: Array<{ text: string }> } };
    answer.result.content[0]!.text = "doctored";
    delete entry.ignore;
    const differs = await checkDefinition(doctored, target);
    expect(differs.ok).toBe(false);
    const change = differs.differences.flatMap((d) => d.changes).find((c) => c.at === "/content/0/text");
    expect(change?.expected).toBe("doctored");
    expect(typeof change?.received).toBe("string");
    expect(differs.lines.join("\n")).toContain(`received ${JSON.stringify(change?.received)}`);

    // Proxy mode: one tool stubbed, the rest the server's own.
    await using proxy = await McpMock.start({ proxy: target });
    proxy.toolsCall(server.stub.tool).withArgs({ stubbed: true }).respondsWith(server.stub.answer);
    const proxied = await clientOf(proxy.url);
    try {
      await proxied.listTools();
      const stubbed = await proxied.callTool({ name: server.stub.tool, arguments: { stubbed: true } });
      // An object answer for a tool the upstream declares with an outputSchema goes out as structuredContent.
      expect(stubbed.structuredContent).toEqual(server.stub.answer);
      expect(steady(await session(proxied, server.calls), server.calls, server.vary)).toEqual(steady(recorded, server.calls, server.vary));
    } finally {
      await proxied.close();
    }
  });
});
