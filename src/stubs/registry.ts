/**
 * The stub registry: one ordering rule (higher priority first, then the newest), `times`
 * accounting, and an index by method, name, exact arguments and the exact parts of argument
 * patterns, so lookup cost does not grow with the number of stubs for other tools or other
 * arguments (10,000 recorded `withArgs({ q, id: ANY })` stubs cost a call about what one does).
 * @module
 */
import type { McpCall } from "./call.js";
import { fieldsKey } from "./args-fields.js";
import { argsFieldsOf, argsKeyOf, type ResponsePlan, type Stub } from "./stub.js";

/** A registered stub and its counters. */
export interface StubEntry {
  stub: Stub;
  readonly seq: number;
  /** Calls this stub answered. */
  hits: number;
}

/** A sorted list, best first: descending by (priority, seq). */
type Lane = StubEntry[];

/** Argument-pattern stubs with the same exact field names, by the key of those fields' values. */
interface FieldLanes {
  readonly names: readonly string[];
  readonly lanes: Map<string, Lane>;
}

interface KeyBucket {
  readonly exact: Map<string, Lane>;
  /** By the exact field names of their patterns (one entry per set of names: few). */
  readonly fielded: Map<string, FieldLanes>;
  /** The same, as a list to walk on the hot path. */
  readonly fieldedList: FieldLanes[];
  /**
   * Whether pattern stubs with exact parts go to `fielded`: only once there are more than
   * {@link INDEX_PATTERNS_PAST} of them (then all move there), so a tool with a few costs a call
   * nothing extra. It never goes back.
   */
  indexed: boolean;
  /** Pattern stubs with exact parts added while not indexed. */
  patterns: number;
  readonly other: Lane;
}

/** A key's pattern stubs are indexed by their exact parts past this many. */
const INDEX_PATTERNS_PAST = 4;

interface MethodBucket {
  readonly keyed: Map<string, KeyBucket>;
  readonly unkeyed: KeyBucket;
}

function newKeyBucket(): KeyBucket {
  return { exact: new Map(), fielded: new Map(), fieldedList: [], indexed: false, patterns: 0, other: [] };
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

/** The answer a stub gives its next call: each of its responses in turn, the last repeating. */
export function nextResponse(entry: StubEntry): ResponsePlan {
  const responses = entry.stub.responses;
  return responses[Math.min(entry.hits, responses.length - 1)] as ResponsePlan;
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
    const kb = this.#bucketFor(stub, false);
    if (kb && !kb.indexed && argsKeyOf(stub) === undefined && argsFieldsOf(stub) !== undefined && ++kb.patterns > INDEX_PATTERNS_PAST) this.#index(kb);
    return entry;
  }

  /** Starts indexing a key's pattern stubs: those in `other` with exact parts move to their lanes, in order. */
  #index(kb: KeyBucket): void {
    kb.indexed = true;
    const moving = kb.other.filter((e) => argsFieldsOf(e.stub) !== undefined);
    for (const entry of moving) {
      kb.other.splice(kb.other.indexOf(entry), 1);
      insert(this.#fieldLaneFor(kb, entry.stub, true) as Lane, entry);
    }
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
    for (const b of buckets) {
      lanes.push(b.other, ...b.exact.values());
      for (const f of b.fielded.values()) lanes.push(...f.lanes.values());
    }
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
    if (unkeyed.fielded.size !== 0 || (keyed !== undefined && keyed.fielded.size !== 0)) {
      // One scratch list (candidates() is synchronous, and a merge copies): no allocation per call.
      const used = SCRATCH;
      used.length = 0;
      if (unkeyed.other.length) used.push(unkeyed.other);
      if (unkeyedExact?.length) used.push(unkeyedExact);
      if (keyedOther?.length) used.push(keyedOther);
      if (keyedExact?.length) used.push(keyedExact);
      if (unkeyed.fielded.size) fieldLanes(unkeyed, call, used);
      if (keyed?.fielded.size) fieldLanes(keyed, call, used);
      return used.length === 0 ? NONE : used.length === 1 ? (used[0] as Lane) : mergeLanes(used);
    }
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
    const kb = this.#bucketFor(stub, create);
    if (!kb) return undefined;
    const argsKey = argsKeyOf(stub);
    if (argsKey === undefined) return kb.indexed ? this.#fieldLaneFor(kb, stub, create) : kb.other;
    let lane = kb.exact.get(argsKey);
    if (!lane && create) {
      lane = [];
      kb.exact.set(argsKey, lane);
    }
    return lane;
  }

  /** The bucket of a stub's method and key. */
  #bucketFor(stub: Stub, create: boolean): KeyBucket | undefined {
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
    return kb;
  }

  /** The lane of a stub whose argument pattern has exact parts (by their names, then their values); `other` without. */
  #fieldLaneFor(kb: KeyBucket, stub: Stub, create: boolean): Lane | undefined {
    const fields = argsFieldsOf(stub);
    if (fields === undefined) return kb.other;
    const signature = fields.names.join("\u0000");
    let byNames = kb.fielded.get(signature);
    if (!byNames) {
      if (!create) return undefined;
      byNames = { names: fields.names, lanes: new Map() };
      kb.fielded.set(signature, byNames);
      kb.fieldedList.push(byNames);
    }
    let lane = byNames.lanes.get(fields.key);
    if (!lane && create) {
      lane = [];
      byNames.lanes.set(fields.key, lane);
    }
    return lane;
  }
}

/** Adds the lanes of `kb`'s argument-pattern stubs whose exact parts this call's arguments hold. */
function fieldLanes(kb: KeyBucket, call: McpCall, into: (readonly StubEntry[])[]): void {
  const args = call.args;
  for (let i = 0; i < kb.fieldedList.length; i++) {
    const byNames = kb.fieldedList[i] as FieldLanes;
    const key = fieldsKey(byNames.names, args);
    const lane = key === undefined ? undefined : byNames.lanes.get(key);
    if (lane !== undefined && lane.length > 0) into.push(lane);
  }
}

const NONE: readonly StubEntry[] = Object.freeze([]);
const SCRATCH: (readonly StubEntry[])[] = [];

/** Merges best-first lanes into one best-first list. */
function mergeLanes(lanes: readonly (readonly StubEntry[])[]): StubEntry[] {
  // Many lanes (a report over thousands of indexed stubs): one sort, not a scan of every lane per entry.
  if (lanes.length > 8) return lanes.flat().sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
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
