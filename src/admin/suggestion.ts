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

/** A stub that answers `entry`'s request, or `undefined` when the entry is no request. */
export function suggestStub(entry: JournalEntry): StubSuggestion | undefined {
  if (entry.kind !== "request" || entry.method === undefined) return undefined;
  const call = entry.call;
  const answer = show(SUGGESTED_ANSWER);
  if (entry.method === "tools/call" && call?.name !== undefined) {
    const args = call.args ?? {};
    return {
      definition: { responses: [{ tool: call.name, args: literal(args), result: SUGGESTED_ANSWER }] },
      dsl: `mock.toolsCall(${show(call.name)}).withArgs(${show(args)}).respondsWith(${answer});`,
    };
  }
  if (entry.method === "prompts/get" && call?.name !== undefined) {
    const args = call.args ?? {};
    return {
      definition: { prompts: [{ name: call.name, responses: [{ args: literal(args), messages: SUGGESTED_ANSWER }] }] },
      dsl: `mock.promptsGet(${show(call.name)}).withArgs(${show(args)}).respondsWith(${answer});`,
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
