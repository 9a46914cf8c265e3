/**
 * The journal: every message the mock received, what answered it and how. Bounded by count
 * and by bytes: the oldest entries are dropped past either cap, and a message larger than the
 * byte budget is kept without its params; `total` still counts every message. An answered
 * entry is kept packed as text outside the heap until it is read (packed-entry.ts).
 * @module
 */
import type { JournalEntry } from "./entry.js";
import { declaredExtensionsOf } from "../stubs/call.js";
import { approxJsonBytes } from "../values/json-size.js";
import { EntryPacker, PackedChunk, sameResult, unpack } from "./packed-entry.js";

/** Default cap on kept entries. */
export const DEFAULT_JOURNAL_SIZE = 10_000;
/** Request headers the journal keeps as `"[redacted]"` by default. */
export const DEFAULT_REDACTED_HEADERS: readonly string[] = ["authorization", "cookie"];
const REDACTED = "[redacted]";

/** `headers` with the values of `names` replaced by `"[redacted]"`; the same object when none is there. */
export function redact(headers: Readonly<Record<string, string>>, names: readonly string[]): Readonly<Record<string, string>> {
  let out: Record<string, string> | undefined;
  for (const name of names) {
    if (headers[name] === undefined) continue;
    out ??= { ...headers };
    out[name] = REDACTED;
  }
  return out ?? headers;
}

/** Default byte budget of the journal (the text of the messages it keeps): 64 MiB. */
export const DEFAULT_JOURNAL_BYTES = 64 * 1024 * 1024;

export class Journal {
  /**
   * Entries oldest first from `#start` (a queue: dropping the oldest is O(1), compacted now and
   * then). An answered entry is packed (see packed-entry.ts): its slot holds the chunk it is in,
   * `#offsets` where, until it is read and is an object again.
   */
  #queue: (JournalEntry | PackedChunk | undefined)[] = [];
  #offsets: number[] = [];
  #sizes: number[] = [];
  readonly #packer = new EntryPacker();
  /** The seqs of kept entries whose params were dropped (`truncated`). */
  readonly #truncated = new Set<number>();
  #start = 0;
  #bytes = 0;
  #seq = 0;
  /** Set by `mock.allowUnmatched()` (until `reset()`): misses are expected, so they are neither reported nor refused. */
  missesExpected = false;
  /** `#seq` at the last `clear()`. */
  #clearedAt = 0;
  readonly #cap: number;
  readonly #budget: number;
  readonly #redacted: readonly string[];
  readonly #listeners = new Set<(entry: JournalEntry) => void>();
  readonly #arrivals = new Set<(entry: JournalEntry) => void>();
  /** What the journal keeps of a value: proxy mode's upstream credentials replaced (undefined: the value itself). */
  readonly #shown: (<T>(value: T) => T) | undefined;

  /**
   * `redacted`: header names (lower case) whose values the journal does not keep; `shown`: what
   * it keeps of params and answers (proxy mode: the upstream's credentials replaced).
   */
  constructor(cap = DEFAULT_JOURNAL_SIZE, budget = DEFAULT_JOURNAL_BYTES, redacted: readonly string[] = DEFAULT_REDACTED_HEADERS, shown?: <T>(value: T) => T) {
    this.#shown = shown;
    this.#cap = cap;
    this.#budget = budget;
    this.#redacted = redacted.map((name) => name.toLowerCase());
  }

  /** A value as the journal would keep it: proxy mode's upstream credentials replaced (the value itself otherwise). */
  shown<T>(value: T): T {
    return this.#shown === undefined ? value : this.#shown(value);
  }

  /** The byte budget (`journalBytes`). */
  get budget(): number {
    return this.#budget;
  }

  /** The bytes the kept entries account for (the text of their messages). */
  get bytes(): number {
    return this.#bytes;
  }

  /** How many kept entries lost their params to the byte budget. */
  get truncatedCount(): number {
    return this.#truncated.size;
  }

  /**
   * Records a received message and returns its entry, to be completed when answered. `bytes`
   * is the size of its text (a message in a batch counts its share of the batch's).
   */
  record(init: Omit<JournalEntry, "seq" | "receivedAt" | "stubId" | "answer" | "unmatched" | "missReport" | "durationMs" | "truncated" | "taskId" | "clientExtensions">, bytes = 0): JournalEntry {
    const headers = this.#redacted.length === 0 ? init.headers : redact(init.headers, this.#redacted);
    let params = init.params;
    let shownHeaders = headers;
    let call = init.call;
    if (this.#shown !== undefined) {
      // Proxy mode: a client may send the upstream's credentials too (its own copy of the key in a
      // header, a token echoed into arguments). The call kept is then one without them, and
      // without its raw text, which the packer would otherwise keep as the message.
      params = this.#shown(init.params);
      shownHeaders = this.#shown(headers);
      if (call !== undefined && (params !== init.params || shownHeaders !== headers)) call = call.shownAs(params, shownHeaders);
    }
    // Built field by field (no spread): this runs for every message on the hot path.
    const entry: JournalEntry = {
      seq: ++this.#seq,
      kind: init.kind,
      method: init.method,
      id: init.id,
      params,
      sessionId: init.sessionId,
      headers: shownHeaders,
      protocolVersion: init.protocolVersion,
      transport: init.transport,
      receivedAt: Date.now(),
      call,
      clientExtensions: init.kind === "response" ? undefined : declaredExtensionsOf(call),
      stubId: undefined,
      answer: undefined,
      unmatched: false,
      missReport: undefined,
      durationMs: undefined,
      taskId: undefined,
      truncated: bytes > this.#budget ? { bytes } : undefined,
    };
    if (this.#arrivals.size > 0) for (const listener of this.#arrivals) listener(entry);
    if (this.#cap === 0) return entry;
    // A message over the budget is kept without its params once answered: it counts as its key.
    const size = entry.truncated ? 0 : bytes;
    if (entry.truncated) this.#truncated.add(entry.seq);
    this.#queue.push(entry);
    this.#offsets.push(0);
    this.#sizes.push(size);
    this.#bytes += size;
    while (this.#queue.length - this.#start > this.#cap || (this.#bytes > this.#budget && this.#queue.length - this.#start > 1)) this.#dropOldest();
    return entry;
  }

  #dropOldest(): void {
    this.#bytes -= this.#sizes[this.#start] as number;
    if (this.#truncated.size > 0) this.#truncated.delete(this.#seq - (this.#queue.length - 1 - this.#start));
    const slot = this.#queue[this.#start];
    if (slot instanceof PackedChunk) this.#packer.release(slot);
    this.#queue[this.#start] = undefined;
    this.#start++;
    if (this.#start >= 1024 && this.#start * 2 >= this.#queue.length) {
      this.#queue = this.#queue.slice(this.#start);
      this.#offsets = this.#offsets.slice(this.#start);
      this.#sizes = this.#sizes.slice(this.#start);
      this.#start = 0;
    }
  }

  /**
   * Marks an entry answered; `missReport` when no stub matched. `resultJson`: the answer's
   * result as JSON when the caller has it (the journal then keeps that text, not the object).
   */
  complete(entry: JournalEntry, stubId: string | undefined, answer: unknown, missReport: string | undefined, answerBytes?: number, resultJson?: string): void {
    if (this.#shown !== undefined) {
      const shown = this.#shown(answer);
      // Redacted (a secret in it): its JSON is no longer what is kept.
      if (shown !== answer) resultJson = undefined;
      answer = shown;
      if (entry.upstream !== undefined) entry.upstream = this.#shown(entry.upstream);
      if (missReport !== undefined) missReport = this.#shown(missReport);
    }
    let index = this.#indexOf(entry);
    // Proxy mode: the upstream's answer is kept too, and counted like the answer.
    if (entry.upstream !== undefined && index !== -1) index = this.#keepUpstream(index, entry, sameResult(entry.upstream.answer, answer) ? answerBytes : undefined);
    entry.stubId = stubId;
    entry.answer = index === -1 ? answer : this.#keepAnswer(index, answer, answerBytes);
    entry.unmatched = missReport !== undefined;
    entry.missReport = missReport;
    entry.durationMs = Date.now() - entry.receivedAt;
    entry.taskId = taskIdOf(entry.params, answer) ?? entry.taskId;
    const body = entry.call?.rawBody;
    // Answered: the parsed params stay, the raw text goes (it is made again if a matcher asks),
    // and the call's headers become the entry's (redacted).
    if (entry.truncated) truncate(entry);
    else entry.call?.compact(entry.headers);
    if (this.#listeners.size > 0) for (const listener of this.#listeners) listener(entry);
    // Kept: packed outside the heap until it is read (the index again: a listener may have cleared
    // the journal). A miss stays the object onUnmatched was given: misses are few, and looked at.
    const kept = index === -1 || missReport !== undefined ? -1 : this.#indexOf(entry);
    const offset = kept === -1 ? -1 : this.#packer.pack(entry, body, resultJson);
    if (offset === -1) return;
    this.#queue[kept] = this.#packer.chunk;
    this.#offsets[kept] = offset;
  }

  /** Where a kept entry that is still an object is in the queue; -1 if it is not (dropped, or not kept). */
  #indexOf(entry: JournalEntry): number {
    if (this.#cap === 0 || this.#start === this.#queue.length) return -1;
    const index = this.#queue.length - 1 - (this.#seq - entry.seq);
    return index >= this.#start && this.#queue[index] === entry ? index : -1;
  }

  /** The kept entry at `index`, as an object (a packed one unpacked, and kept so). */
  #entry(index: number): JournalEntry {
    const slot = this.#queue[index] as JournalEntry | PackedChunk;
    if (!(slot instanceof PackedChunk)) return slot;
    const entry = unpack(slot, this.#offsets[index] as number);
    this.#queue[index] = entry;
    this.#packer.release(slot);
    return entry;
  }

  /**
   * The answer an entry keeps, counted against the byte budget (`answerBytes` when the caller
   * knows it: 0 for a constant answer, which every entry shares; else estimated). An answer larger
   * than the whole budget is kept as `{ truncated: true, bytes }`.
   */
  #keepAnswer(index: number, answer: unknown, answerBytes: number | undefined): unknown {
    if (answer === undefined) return answer;
    const size = answerBytes ?? approxJsonBytes(answer);
    if (size === 0) return answer;
    if (size > this.#budget) return { truncated: true, bytes: Number.isFinite(size) ? size : this.#budget };
    this.#sizes[index] = (this.#sizes[index] as number) + size;
    this.#bytes += size;
    while (this.#bytes > this.#budget && this.#queue.length - this.#start > 1) this.#dropOldest();
    return answer;
  }

  /**
   * Counts a proxied entry's upstream answer against the byte budget, as `#keepAnswer` counts
   * its answer (one larger than the whole budget is kept as `{ truncated: true, bytes }`); the
   * entry's index after, or -1 when the budget dropped it. `bytes`: its size, when known (the
   * upstream's result passed on as it came, the same object as the answer's).
   */
  #keepUpstream(index: number, entry: JournalEntry, bytes: number | undefined): number {
    const upstream = entry.upstream as NonNullable<JournalEntry["upstream"]>;
    const size = bytes ?? approxJsonBytes(upstream.answer);
    if (size > this.#budget) {
      entry.upstream = { answer: { truncated: true, bytes: Number.isFinite(size) ? size : this.#budget }, durationMs: upstream.durationMs };
      return index;
    }
    this.#sizes[index] = (this.#sizes[index] as number) + size;
    this.#bytes += size;
    while (this.#bytes > this.#budget && this.#queue.length - this.#start > 1) this.#dropOldest();
    return this.#indexOf(entry);
  }

  /** Calls `listener` for every entry as it arrives; returns the unsubscribe function. */
  onRecord(listener: (entry: JournalEntry) => void): () => void {
    this.#arrivals.add(listener);
    return () => this.#arrivals.delete(listener);
  }

  /** Calls `listener` for every entry once it is answered; returns the unsubscribe function. */
  onComplete(listener: (entry: JournalEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The kept entries, oldest first. */
  entries(): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = this.#start; i < this.#queue.length; i++) out.push(this.#entry(i));
    return out;
  }

  /** How many messages arrived in all (including dropped entries). */
  get total(): number {
    return this.#seq;
  }

  /** How many messages arrived before the last `clear()` (0 when it was never cleared). */
  get clearedAt(): number {
    return this.#clearedAt;
  }

  clear(): void {
    this.#clearedAt = this.#seq;
    this.#queue = [];
    this.#offsets = [];
    this.#sizes = [];
    this.#truncated.clear();
    this.#packer.reset();
    this.#start = 0;
    this.#bytes = 0;
  }
}

/** Drops an answered entry's params but its key (tool or prompt name, resource URI). */
function truncate(entry: JournalEntry): void {
  const call = entry.call?.withoutParams(entry.headers);
  const mutable = entry as { params: JournalEntry["params"]; call: JournalEntry["call"] };
  mutable.params = call?.params;
  mutable.call = call;
}

const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** The task a message belongs to: `params.taskId`, its related-task `_meta`, or the task its answer created. */
function taskIdOf(params: Record<string, unknown> | undefined, answer: unknown): string | undefined {
  const named = params?.["taskId"];
  if (typeof named === "string") return named;
  const meta = (params?.["_meta"] ?? (params?.["result"] as { _meta?: unknown } | undefined)?._meta) as Record<string, { taskId?: unknown } | undefined> | undefined;
  const related = meta?.[RELATED_TASK]?.taskId;
  if (typeof related === "string") return related;
  const created = (answer as { result?: { task?: { taskId?: unknown } } } | null | undefined)?.result?.task?.taskId;
  return typeof created === "string" ? created : undefined;
}

