/**
 * A baseline, like MSW's initial handlers: the stubs a suite sets once (in `beforeAll`) and
 * keeps across `reset({ keepBaseline: true })` after each test. They are kept as the data
 * they are, and put back with fresh call counts.
 * @module
 */
import type { StubRegistry } from "./registry.js";
import type { Stub } from "./stub.js";

/** The stubs `mock.baseline()` took. */
export class StubBaseline {
  #stubs: readonly Stub[] = [];

  /** Takes the user's stubs in the registry now (not the built-in answers, nor those in `except`); their ids. */
  take(registry: StubRegistry, except: ReadonlySet<string>): string[] {
    this.#stubs = registry
      .all()
      .map((e) => e.stub)
      .filter((stub) => stub.source !== "default" && !except.has(stub.id));
    return this.#stubs.map((s) => s.id);
  }

  /** Puts the taken stubs back (after a reset emptied the registry), in their order, counted from 0. */
  restore(registry: StubRegistry): void {
    for (const stub of this.#stubs) if (!registry.get(stub.id)) registry.add(stub);
  }

  /** Forgets the baseline (a plain `reset()`). */
  clear(): void {
    this.#stubs = [];
  }
}
