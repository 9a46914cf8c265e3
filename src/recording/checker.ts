/**
 * `mcpmock check`: plays every request of a definition that has specified arguments or
 * params against a real server and compares: the declared tools first (missing, extra, other
 * schemas), then each answer, in the file's order (an entry's `then` answers by calling
 * again). The report has one verdict per call, with the differences under it.
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import type { AnswerDefinition, MockDefinition } from "../definition/format.js";
import { isCallToolResult, wrapToolPayload } from "../stubs/tool-result.js";
import { hasPlaceholders, substitute } from "../values/placeholders.js";
import { VERSION } from "../values/version.js";
import { compareExact, compareShape, type Answer } from "./answer-compare.js";
import { stableJson } from "./definition-writer.js";
import type { Pointer } from "./json-pointer.js";
import { upstreamTransport } from "../upstream/target.js";

/** The real server: a Streamable HTTP URL, or a command that serves on stdio. */
export type CheckTarget = { readonly url: string } | { readonly command: string; readonly args: readonly string[] };

/** How answers are compared. */
export interface CheckOptions {
  /** Compare shapes instead of values (`--shape`). */
  readonly shape?: boolean;
  /** Pointers into results left out of the comparison (`--ignore`). */
  readonly ignore?: readonly Pointer[];
}

/** What a check found. */
export interface CheckReport {
  /** The report, one verdict per line, differences indented under it. */
  readonly lines: string[];
  /** Calls (and declarations) that agree. */
  readonly agreed: number;
  /** Calls (and declarations) that differ. */
  readonly differed: number;
}

type Json = Record<string, unknown>;

/** One request to play and the answers it should get, call after call. */
interface Planned {
  readonly label: string;
  readonly method: string;
  readonly params: Json;
  readonly expected: readonly Answer[];
  readonly tool?: string;
}

/** Whether a value holds data-form matchers (which no real call can carry), `$literal` aside. */
function holdsMatchers(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0]!.startsWith("$")) return keys[0] !== "$literal";
  return Object.values(value).some(holdsMatchers);
}

/** The value with `{ "$literal": v }` unwrapped. */
function unwrap(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrap);
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === "$literal") return (value as Json)["$literal"];
  return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, unwrap(v)]));
}

/** The answers an entry gives, in order, as JSON-RPC answers (tool payloads wrapped as the mock wraps them). */
function expectations(first: AnswerDefinition, then: readonly AnswerDefinition[] | undefined, context: Json, outputSchema: boolean | undefined): Answer[] {
  return [first, ...(then ?? [])].map((a) => {
    if (a.error) return { error: a.error };
    const result = hasPlaceholders(a.result) ? substitute(a.result, context) : a.result;
    if (outputSchema === undefined) return { result };
    return { result: isCallToolResult(result) ? result : wrapToolPayload(result, { isError: a.isError === true, hasOutputSchema: outputSchema, structuredContent: true }) };
  });
}

/** The requests a definition specifies, and the entries that answer any request (not played). */
function plan(def: MockDefinition): { planned: Planned[]; unplayable: number } {
  const planned: Planned[] = [];
  let unplayable = 0;
  const tools = new Map((def.tools ?? []).map((t) => [t.name, t]));
  for (const r of def.responses ?? []) {
    if (r.status !== undefined || r.fault !== undefined || r.method === "initialize") continue;
    // A stream that asks the client (sampling, elicitation) needs answers check does not have.
    if ([r, ...(r.then ?? [])].some((a) => a.stream?.some((s) => "request" in s))) {
      unplayable++;
      continue;
    }
    if (r.tool !== undefined) {
      if (r.args === undefined || holdsMatchers(r.args)) unplayable++;
      else {
        const args = unwrap(r.args) as Json;
        const label = `tools/call "${r.tool}" ${stableJson(args)}`;
        const hasSchema = tools.get(r.tool)?.outputSchema !== undefined;
        planned.push({ label, method: "tools/call", params: { name: r.tool, arguments: args }, tool: r.tool, expected: expectations(r, r.then, { args, params: { name: r.tool, arguments: args } }, hasSchema) });
      }
    } else if (r.method !== undefined) {
      // `_meta` matched with any value (as recordings write it) is left out of the request.
      const { _meta: meta, ...rest } = r.params ?? {};
      const sent = meta === undefined || holdsMatchers(meta) ? rest : r.params;
      if (r.params === undefined || holdsMatchers(sent)) unplayable++;
      else {
        const params = unwrap(sent) as Json;
        const name = typeof params["name"] === "string" && r.method === "tools/call" ? params["name"] : undefined;
        planned.push({ label: `${r.method} ${stableJson(params)}`, method: r.method, params, ...(name === undefined ? {} : { tool: name }), expected: expectations(r, r.then, { params, args: params["arguments"] }, name === undefined ? undefined : tools.get(name)?.outputSchema !== undefined) });
      }
    }
  }
  for (const p of def.prompts ?? []) {
    for (const r of p.responses ?? []) {
      if (r.args === undefined || holdsMatchers(r.args)) {
        unplayable++;
        continue;
      }
      const args = unwrap(r.args) as Json;
      const messages = typeof r.messages === "string" ? [{ role: "user", content: { type: "text", text: r.messages } }] : r.messages;
      const result = substitute(r.description === undefined ? { messages } : { description: r.description, messages }, { args });
      planned.push({ label: `prompts/get "${p.name}" ${stableJson(args)}`, method: "prompts/get", params: { name: p.name, arguments: args }, expected: [r.error ? { error: r.error } : { result }] });
    }
  }
  return { planned, unplayable };
}

/** The answer a request got: its result, or its JSON-RPC error. */
async function ask(client: Client, method: string, params: Json): Promise<Answer> {
  try {
    return { result: await client.request({ method, params } as never, z.looseObject({}) as never) };
  } catch (error) {
    if (!(error instanceof McpError) || (error.code === -32001 && /timed out/i.test(error.message))) throw error; // the SDK's own timeout
    const message = error.message.replace(`MCP error ${error.code}: `, "");
    return { error: error.data === undefined ? { code: error.code, message } : { code: error.code, message, data: error.data } };
  }
}

/** Compares the declared tools with the real list: missing, extra, other schemas. */
async function declarations(client: Client, def: MockDefinition, lines: string[]): Promise<number> {
  if (def.tools === undefined) return 0;
  const real: Json[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    real.push(...(page.tools as Json[]));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const byName = new Map(real.map((t) => [t["name"], t]));
  const problems: string[] = [];
  for (const tool of def.tools) {
    const found = byName.get(tool.name);
    if (!found) problems.push(`    tool "${tool.name}" is declared but the server does not list it`);
    else
      for (const key of ["inputSchema", "outputSchema"] as const)
        if (tool[key] !== undefined && stableJson(tool[key]) !== stableJson(found[key])) problems.push(`    tool "${tool.name}": the ${key} differs: declared ${stableJson(tool[key])}, listed ${stableJson(found[key])}`);
  }
  for (const name of byName.keys()) if (!def.tools.some((t) => t.name === name)) problems.push(`    tool "${String(name)}" is listed by the server but not declared`);
  lines.push(problems.length === 0 ? `✓ tools/list: the ${def.tools.length} declared tools agree` : `✗ tools/list: differs`, ...problems);
  return problems.length;
}

function transportFor(target: CheckTarget): Transport {
  // The same connection proxy mode opens (its stderr read and dropped).
  return upstreamTransport("url" in target ? { target: target.url } : { command: target.command, args: target.args });
}

/**
 * Checks a definition against a real server. Rejects when the server cannot be reached.
 *
 * @example
 * ```ts
 * const report = await checkDefinition(definition, { url: "http://127.0.0.1:3001/mcp" });
 * console.log(report.lines.join("\n"));
 * ```
 */
export async function checkDefinition(def: MockDefinition, target: CheckTarget, options: CheckOptions = {}): Promise<CheckReport> {
  const client = new Client({ name: "mcpmock-check", version: VERSION });
  await client.connect(transportFor(target));
  const lines: string[] = [];
  let agreed = 0;
  let differed = 0;
  try {
    const problems = await declarations(client, def, lines);
    if (def.tools !== undefined) problems > 0 ? differed++ : agreed++;
    const { planned, unplayable } = plan(def);
    const tools = new Map((def.tools ?? []).map((t) => [t.name, t]));
    for (const p of planned) {
      for (const [i, expected] of p.expected.entries()) {
        const actual = await ask(client, p.method, p.params);
        const shape = { tool: p.tool !== undefined, ...(p.tool === undefined ? {} : { outputSchema: tools.get(p.tool)?.outputSchema }) };
        const diff = options.shape ? compareShape(expected, actual, shape) : compareExact(expected, actual, options.ignore);
        const label = p.expected.length > 1 ? `${p.label} (call ${i + 1} of ${p.expected.length})` : p.label;
        if (diff.length === 0) agreed++;
        else differed++;
        lines.push(diff.length === 0 ? `✓ ${label}: agrees` : `✗ ${label}: differs`, ...diff.map((d) => `    ${d}`));
      }
    }
    if (unplayable > 0) lines.push(`  (${unplayable} entries not played: they answer any arguments, match with matchers, or ask the client)`);
    lines.push(`${agreed} agree, ${differed} differ`);
  } finally {
    await client.close();
  }
  return { lines, agreed, differed };
}
