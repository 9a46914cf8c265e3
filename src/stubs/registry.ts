/**
 * The stub registry: one ordering rule (higher priority first, then the newest), `times`
 * accounting, and an index by method, name and exact arguments, so lookup cost does not
 * grow with the number of stubs for other tools or other arguments.
 * @module
 */
import type { McpCall } from "./call.js";
import { argsKeyOf, type Stub } from "./stub.js";

/** A registered stub and its counters. */
export interface StubEntry {
  stub: Stub;
  readonly seq: number;
  /** Calls this stub answered. */
  hits: number;
}

/** A sorted list, best first: descending by (priority, seq). */
type Lane = StubEntry[];

interface KeyBucket {
  readonly exact: Map<string, Lane>;
  readonly other: Lane;
}

interface MethodBucket {
  readonly keyed: Map<string, KeyBucket>;
  readonly unkeyed: KeyBucket;
}

function newKeyBucket(): KeyBucket {
  return { exact: new Map(), other: [] };
}

function before(a: StubEntry, b: StubEntry): boolean {
  return a.stub.priority !== b.stub.priority ? a.stub.priority > b.stub.priority : a.seq > b.seq;
}

function insert(lane: Lane, entry: StubEntry): void {
  let i = 0;
  while (i < lane.length && before(lane[i] as StubEntry, entry)) i++;
  lane.splice(i, 0, entry);
}

/** Whether a stub can still answer. */
export function isAvailable(entry: StubEntry): boolean {
  return entry.stub.times === undefined || entry.hits < entry.stub.times;
}

export class StubRegistry {
  #methods = new Map<string, MethodBucket>();
  #byId = new Map<string, StubEntry>();
  #seq = 0;

  /** Adds a stub; returns its entry. */
  add(stub: Stub): StubEntry {
    const entry: StubEntry = { stub, seq: ++this.#seq, hits: 0 };
    this.#byId.set(stub.id, entry);
    insert(this.#laneFor(stub, true) as Lane, entry);
    return entry;
  }

  /** Replaces a stub's data in place (same id, same place in the order). */
  replace(stub: Stub): void {
    const entry = this.#byId.get(stub.id);
    if (entry) entry.stub = stub;
  }

  /** Gives a stub another id, unless one has it already (a definition's stubs put back by reset() keep theirs). */
  rename(id: string, to: string): void {
    const entry = this.#byId.get(id);
    if (!entry || this.#byId.has(to)) return;
    this.#byId.delete(id);
    entry.stub = { ...entry.stub, id: to };
    this.#byId.set(to, entry);
  }

  /** Removes a stub by id; returns whether it was there. */
  remove(id: string): boolean {
    const entry = this.#byId.get(id);
    if (!entry) return false;
    this.#byId.delete(id);
    const lane = this.#laneFor(entry.stub, false);
    if (lane) lane.splice(lane.indexOf(entry), 1);
    return true;
  }

  /** Removes every stub the predicate selects. */
  removeWhere(predicate: (stub: Stub) => boolean): void {
    for (const entry of [...this.#byId.values()]) if (predicate(entry.stub)) this.remove(entry.stub.id);
  }

  get(id: string): StubEntry | undefined {
    return this.#byId.get(id);
  }

  /** Every stub in registration order. */
  all(): StubEntry[] {
    return [...this.#byId.values()];
  }

  /** Every stub for a method (and a key, when given: that key's and the unkeyed ones), best first. */
  forMethod(method: string, key?: string): StubEntry[] {
    const bucket = this.#methods.get(method);
    if (!bucket) return [];
    const buckets = [bucket.unkeyed];
    if (key !== undefined) {
      const keyed = bucket.keyed.get(key);
      if (keyed) buckets.push(keyed);
    } else buckets.push(...bucket.keyed.values());
    const lanes: Lane[] = [];
    for (const b of buckets) lanes.push(b.other, ...b.exact.values());
    return mergeLanes(lanes);
  }

  /**
   * The stubs that could answer this call, best first (available or not). On the hot path:
   * when one lane holds them all (the usual case) it is returned as is, so callers only read it.
   */
  candidates(call: McpCall, key: string | undefined): readonly StubEntry[] {
    const bucket = this.#methods.get(call.method);
    if (!bucket) return NONE;
    const keyed = key === undefined ? undefined : bucket.keyed.get(key);
    const unkeyed = bucket.unkeyed;
    const unkeyedExact = unkeyed.exact.size ? unkeyed.exact.get(call.argsKey) : undefined;
    const keyedExact = keyed?.exact.size ? keyed.exact.get(call.argsKey) : undefined;
    const keyedOther = keyed?.other;
    // Which lanes have stubs, as bits: one lane (the usual case) is returned without a copy.
    const used = (unkeyed.other.length ? 1 : 0) | (unkeyedExact?.length ? 2 : 0) | (keyedOther?.length ? 4 : 0) | (keyedExact?.length ? 8 : 0);
    if (used === 0) return NONE;
    if (used === 1) return unkeyed.other;
    if (used === 2) return unkeyedExact as Lane;
    if (used === 4) return keyedOther as Lane;
    if (used === 8) return keyedExact as Lane;
    return mergeLanes([unkeyed.other, unkeyedExact ?? NONE, keyedOther ?? NONE, keyedExact ?? NONE]);
  }

  #laneFor(stub: Stub, create: boolean): Lane | undefined {
    let bucket = this.#methods.get(stub.method);
    if (!bucket) {
      if (!create) return undefined;
      bucket = { keyed: new Map(), unkeyed: newKeyBucket() };
      this.#methods.set(stub.method, bucket);
    }
    let kb: KeyBucket | undefined = bucket.unkeyed;
    if (stub.key !== undefined) {
      kb = bucket.keyed.get(stub.key);
      if (!kb) {
        if (!create) return undefined;
        kb = newKeyBucket();
        bucket.keyed.set(stub.key, kb);
      }
    }
    const argsKey = argsKeyOf(stub);
    if (argsKey === undefined) return kb.other;
    let lane = kb.exact.get(argsKey);
    if (!lane && create) {
      lane = [];
      kb.exact.set(argsKey, lane);
    }
    return lane;
  }
}

const NONE: readonly StubEntry[] = Object.freeze([]);

/** Merges best-first lanes into one best-first list. */
function mergeLanes(lanes: readonly (readonly StubEntry[])[]): StubEntry[] {
  const out: StubEntry[] = [];
  const cursors = lanes.map(() => 0);
  for (;;) {
    let best = -1;
    for (let i = 0; i < lanes.length; i++) {
      const c = cursors[i] as number;
      if (c >= (lanes[i] as Lane).length) continue;
      if (best < 0 || before((lanes[i] as Lane)[c] as StubEntry, (lanes[best] as Lane)[cursors[best] as number] as StubEntry)) {
        best = i;
      }
    }
    if (best < 0) return out;
    out.push((lanes[best] as Lane)[cursors[best] as number] as StubEntry);
    cursors[best] = (cursors[best] as number) + 1;
  }
}
