/**
 * A map kept within a count and a byte budget, the oldest entries going first: what a store
 * that a client fills (tokens, codes, registered clients, the authorization log) keeps, so that
 * its memory is bounded by bytes as well as by entries whatever a client sends.
 * @module
 */
import { approxJsonBytes } from "./json-size.js";

/** Keeps at most `maxEntries` entries and about `maxBytes` bytes of them (each counted once, when set). */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, { readonly value: V; readonly bytes: number }>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #sizeOf: (value: V, key: K) => number;
  #bytes = 0;

  /** `sizeOf` counts an entry's bytes (by default its key's and value's approximate sizes as JSON). */
  constructor(maxEntries: number, maxBytes: number, sizeOf: (value: V, key: K) => number = (value, key) => approxJsonBytes(key) + approxJsonBytes(value)) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
    this.#sizeOf = sizeOf;
  }

  /** Entries kept. */
  get size(): number {
    return this.#entries.size;
  }

  /** Bytes kept, as counted. */
  get bytes(): number {
    return this.#bytes;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /**
   * Keeps `value` under `key` as the newest entry, then lets the oldest go until both budgets
   * hold (the newest always stays): the entries let go, oldest first.
   */
  set(key: K, value: V): Array<[K, V]> {
    this.delete(key);
    const bytes = this.#sizeOf(value, key);
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    const evicted: Array<[K, V]> = [];
    while (this.#entries.size > 1 && (this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes)) {
      const [oldest, entry] = this.#entries.entries().next().value as [K, { value: V; bytes: number }];
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
      evicted.push([oldest, entry.value]);
    }
    return evicted;
  }

  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    return true;
  }

  /** Values, oldest first. */
  *values(): IterableIterator<V> {
    for (const entry of this.#entries.values()) yield entry.value;
  }

  /** Keys, oldest first. */
  keys(): IterableIterator<K> {
    return this.#entries.keys();
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}
