/**
 * A stub that would answer a request no stub answered, in the two forms a user writes: a
 * definition fragment (for a file, or `POST /__admin/stubs`) and a DSL chain. The inspector
 * shows it under the miss, ready to copy; the answer is a placeholder to fill in.
 * @module
 */
import type { JournalEntry } from "../journal/entry.js";
import { entryDsl } from "../journal/explain.js";

/** The placeholder answer of a suggestion. */
export const SUGGESTED_ANSWER = "TODO: the answer";

/** A stub for one missed request. */
export interface StubSuggestion {
  /** A definition fragment with one entry that answers the request. */
  readonly definition: Record<string, unknown>;
  /** The same stub as a DSL chain. */
  readonly dsl: string;
}

/** Values as a definition holds them: an object key starting with `$` would read as a matcher, so it is wrapped in `$literal`. */
function literal(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(literal);
  if (value === null || typeof value !== "object") return value;
  const object = value as Record<string, unknown>;
  if (Object.keys(object).some((k) => k.startsWith("$"))) return { $literal: object };
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, literal(v)]));
}

const show = (value: unknown): string => JSON.stringify(value);

/**
 * What the mock declares, so that a suggestion for a tool or prompt it does not declare
 * declares it too (a stub for an undeclared tool is refused where it is written).
 */
export interface Declarations {
  hasTool(name: string): boolean;
  hasPrompt(name: string): boolean;
}

/** Without declarations to ask, every name counts as declared (the suggestion is the stub alone). */
const EVERYTHING_DECLARED: Declarations = { hasTool: () => true, hasPrompt: () => true };

/** A stub that answers `entry`'s request, or `undefined` when the entry is no request. */
export function suggestStub(entry: JournalEntry, declared: Declarations = EVERYTHING_DECLARED): StubSuggestion | undefined {
  if (entry.kind !== "request" || entry.method === undefined) return undefined;
  const call = entry.call;
  const answer = show(SUGGESTED_ANSWER);
  if (entry.method === "tools/call" && call?.name !== undefined) {
    const args = call.args ?? {};
    const stub = `mock.toolsCall(${show(call.name)}).withArgs(${show(args)}).respondsWith(${answer});`;
    const responses = [{ tool: call.name, args: literal(args), result: SUGGESTED_ANSWER }];
    if (declared.hasTool(call.name)) return { definition: { responses }, dsl: stub };
    const tool = { name: call.name, inputSchema: { type: "object" } };
    return { definition: { tools: [tool], responses }, dsl: `mock.declareTool({ name: ${show(call.name)}, inputSchema: { type: "object" } });\n${stub}` };
  }
  if (entry.method === "prompts/get" && call?.name !== undefined) {
    const args = call.args ?? {};
    const stub = `mock.promptsGet(${show(call.name)}).withArgs(${show(args)}).respondsWith(${answer});`;
    const argumentsOf = Object.keys(args).map((name) => `{ name: ${show(name)} }`);
    const declare = `mock.declarePrompt({ name: ${show(call.name)}${argumentsOf.length ? `, arguments: [${argumentsOf.join(", ")}]` : ""} });\n`;
    return {
      definition: { prompts: [{ name: call.name, responses: [{ args: literal(args), messages: SUGGESTED_ANSWER }] }] },
      dsl: declared.hasPrompt(call.name) ? stub : `${declare}${stub}`,
    };
  }
  if (entry.method === "resources/read" && call?.uri !== undefined) {
    return {
      definition: { resources: [{ uri: call.uri, name: call.uri, text: SUGGESTED_ANSWER }] },
      dsl: `mock.resourcesRead(${show(call.uri)}).respondsWith({ text: ${answer} });`,
    };
  }
  const params = entry.params;
  const { _meta: _, ...rest } = params ?? {};
  const withParams = params === undefined || Object.keys(rest).length === 0 ? undefined : rest;
  return {
    definition: { responses: [{ method: entry.method, ...(withParams ? { params: literal(withParams) } : {}), result: {} }] },
    dsl: `${entryDsl(entry.method)}${withParams ? `.withParams(${show(withParams)})` : ""}.respondsWith({});`,
  };
}
