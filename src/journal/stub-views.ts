/**
 * The stubs as the mock lists them: one sentence each (`mock.explain()`), or as data for
 * listings and the admin API (`mock.stubs()`), best first per method, built-in answers included.
 * @module
 */
import type { StubRegistry } from "../stubs/registry.js";
import { stubSentence } from "./explain.js";

/**
 * One stub, listed: its id, its sentence, the calls it answered, where it was written.
 *
 * @example
 * ```ts
 * const mock = await McpMock.start({ tools: [{ name: "add" }] });
 * mock.toolsCall("add").respondsWith({ sum: 3 });
 * for (const stub of mock.stubs()) console.log(`${stub.id} (${stub.calls} calls, ${stub.source}): ${stub.sentence}`);
 * ```
 * @category Verification
 */
export interface StubListing {
  /** The stub's id, for `removeStub` (built-in answers have ids like `default:ping`). */
  id: string;
  /** What the stub matches and answers, in one sentence (as in `explain()`). */
  sentence: string;
  /** How many calls it has answered. */
  calls: number;
  /** Where it was written: `"dsl"` (code), `"default"` (a built-in answer), or a definition file and JSON path. */
  source: string;
}

/** Every stub as `id: sentence`. */
export function explainStubs(registry: StubRegistry): string[] {
  return registry.all().map((e) => `${e.stub.id}: ${stubSentence(e.stub, e.hits)}`);
}

/** Every stub as data (a definition's stubs name their file and JSON path). */
export function listStubs(registry: StubRegistry): StubListing[] {
  return registry.all().map((e) => ({
    id: e.stub.id,
    sentence: stubSentence(e.stub, e.hits),
    calls: e.hits,
    source: typeof e.stub.source === "object" ? `${e.stub.source.file} ${e.stub.source.path}` : e.stub.source,
  }));
}
