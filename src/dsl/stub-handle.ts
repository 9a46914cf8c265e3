/**
 * What a terminal returns: a handle on the registered stub.
 * @module
 */
import { stubSentence } from "../journal/explain.js";
import { McpMockError } from "../values/errors.js";
import type { StubRegistry } from "../stubs/registry.js";
import type { ResponsePlan } from "../stubs/stub.js";

/**
 * A registered stub. It has no `then` member, so `await`ing it by mistake is harmless.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "roll", inputSchema: { type: "object" } }] });
 * const roll = mock.toolsCall("roll").respondsWith({ value: 1 }).andThen({ value: 6 });
 * console.log(roll.toString()); // tools/call "roll" → {"value":1}, then {"value":6} (seen 0)
 * console.log(roll.calls(), roll.isPending()); // 0 true
 * ```
 * @category Stubbing
 */
export class StubHandle<Payload = unknown, Options = undefined> {
  readonly #registry: StubRegistry;
  readonly #plan: (payload: Payload, options?: Options) => ResponsePlan;
  readonly #accept: (plan: ResponsePlan) => ResponsePlan;
  /** The stub's id (`stub-1`, `stub-2`, ...), as reports and the journal name it. */
  readonly id: string;

  /**
   * @internal `plan` turns an `andThen` payload into an answer; `accept` checks every later
   * answer (`strict`) before it is appended.
   */
  constructor(registry: StubRegistry, id: string, plan: (payload: Payload, options?: Options) => ResponsePlan, accept: (plan: ResponsePlan) => ResponsePlan) {
    this.#registry = registry;
    this.id = id;
    this.#plan = plan;
    this.#accept = accept;
  }

  /** How many calls this stub has answered. */
  calls(): number {
    return this.#registry.get(this.id)?.hits ?? 0;
  }

  /** Whether the stub still expects calls: never called yet, or fewer calls than its `times(n)`. */
  isPending(): boolean {
    const entry = this.#registry.get(this.id);
    if (!entry) return false;
    return entry.hits < (entry.stub.times ?? 1);
  }

  /**
   * Answers the next call differently: `respondsWith(a).andThen(b).andThen(c)` answers a,
   * then b, then c for every call after that.
   */
  andThen(payload: Payload, options?: Options): this {
    return this.andThenPlan(this.#plan(payload, options));
  }

  /** @internal Appends a ready-made answer (a definition's `then`), checked as `andThen` checks its own. */
  andThenPlan(plan: ResponsePlan): this {
    const accepted = this.#accept(plan);
    const entry = this.#registry.get(this.id);
    const times = entry?.stub.times;
    if (entry && times !== undefined && entry.stub.responses.length >= times) {
      // `times` counts every call the stub answers; this answer would never be given.
      throw new McpMockError(
        `.andThen(...) would never answer: .times(${times}) lets this stub answer ${times} call${times === 1 ? "" : "s"} in all, and the answers before it take ${times === 1 ? "it" : "them"}. ` +
          `Drop .times(${times}) (or .once()) to answer the first call with respondsWith(...) and every later call with the andThen answers (the last one repeats), or use .times(${entry.stub.responses.length + 1}) or more to stop after them.`,
      );
    }
    if (entry) this.#registry.replace({ ...entry.stub, responses: [...entry.stub.responses, accepted] });
    return this;
  }

  /** The stub as one sentence, with how often it was seen. */
  toString(): string {
    const entry = this.#registry.get(this.id);
    return entry ? stubSentence(entry.stub, entry.hits) : `${this.id} (removed)`;
  }
}
