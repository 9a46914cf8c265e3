/**
 * The journal: every message the mock received, what answered it and how. Bounded: the
 * oldest entries are dropped past the cap; `total` still counts every message.
 * @module
 */
import type { McpCall, RequestId, TransportKind } from "../stubs/call.js";

/** What kind of message an entry records. */
export type JournalKind = "request" | "notification" | "response";

/** One received message. */
export interface JournalEntry {
  /** 1, 2, 3...: position in arrival order (kept across drops). */
  readonly seq: number;
  /** A client request, a client notification, or the client's response to a server-to-client request. */
  readonly kind: JournalKind;
  /** The JSON-RPC method; for a response, the method of the request it answers (`undefined` if that is unknown). */
  readonly method: string | undefined;
  /** The JSON-RPC id; `undefined` for a notification. */
  readonly id: RequestId | undefined;
  /** The message's `params` (for a response, its body); `undefined` when it has none. */
  readonly params: Record<string, unknown> | undefined;
  /** The `Mcp-Session-Id` the message carried, if any. */
  readonly sessionId: string | undefined;
  /** Request headers, names in lower case (empty over stdio). */
  readonly headers: Readonly<Record<string, string>>;
  /** The protocol version in effect for this message. */
  readonly protocolVersion: string;
  /** How the message arrived: over `"http"`, `"stdio"` or `"memory"` (`mock.clientTransport()`). */
  readonly transport: TransportKind;
  /** Milliseconds since the epoch when it arrived. */
  readonly receivedAt: number;
  /** The call as stubs saw it (requests and notifications). */
  readonly call: McpCall | undefined;
  /** The stub that answered, if one did (built-in answers have ids like `default:ping`). */
  stubId: string | undefined;
  /** The answer as sent (a JSON-RPC message, or `{ status }` for raw HTTP), once known. */
  answer: unknown;
  /** No stub matched: the mock answered with its miss answer. */
  unmatched: boolean;
  /** For an unmatched request, the report the client got (what was stubbed, how to stub it). */
  missReport: string | undefined;
  /** Milliseconds from arrival to answer, once answered. */
  durationMs: number | undefined;
}

/** Default cap on kept entries. */
export const DEFAULT_JOURNAL_SIZE = 10_000;

export class Journal {
  /** A ring of at most `cap` entries; `#head` is where the oldest one is once it is full. */
  #ring: JournalEntry[] = [];
  #head = 0;
  #seq = 0;
  readonly #cap: number;
  readonly #listeners = new Set<(entry: JournalEntry) => void>();
  readonly #arrivals = new Set<(entry: JournalEntry) => void>();

  constructor(cap = DEFAULT_JOURNAL_SIZE) {
    this.#cap = cap;
  }

  /** Records a received message and returns its entry, to be completed when answered. */
  record(init: Omit<JournalEntry, "seq" | "receivedAt" | "stubId" | "answer" | "unmatched" | "missReport" | "durationMs">): JournalEntry {
    // Built field by field (no spread): this runs for every message on the hot path.
    const entry: JournalEntry = {
      seq: ++this.#seq,
      kind: init.kind,
      method: init.method,
      id: init.id,
      params: init.params,
      sessionId: init.sessionId,
      headers: init.headers,
      protocolVersion: init.protocolVersion,
      transport: init.transport,
      receivedAt: Date.now(),
      call: init.call,
      stubId: undefined,
      answer: undefined,
      unmatched: false,
      missReport: undefined,
      durationMs: undefined,
    };
    if (this.#arrivals.size > 0) for (const listener of this.#arrivals) listener(entry);
    if (this.#ring.length < this.#cap) this.#ring.push(entry);
    else if (this.#cap > 0) {
      // Full: the newest takes the oldest one's place, which nothing keeps alive any more.
      this.#ring[this.#head] = entry;
      this.#head = (this.#head + 1) % this.#cap;
    }
    return entry;
  }

  /** Marks an entry answered; `missReport` when no stub matched. */
  complete(entry: JournalEntry, stubId: string | undefined, answer: unknown, missReport: string | undefined): void {
    entry.stubId = stubId;
    entry.answer = answer;
    entry.unmatched = missReport !== undefined;
    entry.missReport = missReport;
    entry.durationMs = Date.now() - entry.receivedAt;
    if (this.#listeners.size > 0) for (const listener of this.#listeners) listener(entry);
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
    return this.#head === 0 ? this.#ring.slice() : [...this.#ring.slice(this.#head), ...this.#ring.slice(0, this.#head)];
  }

  /** How many messages arrived in all (including dropped entries). */
  get total(): number {
    return this.#seq;
  }

  clear(): void {
    this.#ring = [];
    this.#head = 0;
  }
}
