/**
 * What is in flight, by key: requests awaiting their answer, streams open, work not done. Kept
 * out of `Map`s and `Set`s because of how V8 collects them. A `Map` that takes and drops a key
 * for every call rehashes into a new table every few dozen calls, and each old table points on
 * to the next. Once one of those tables is in the old generation (the first full GC puts it
 * there), every young-generation GC keeps the whole chain of newer tables alive, and with it
 * every value they held, until the next full GC: each call's closures, promises and buffers
 * promoted, on and on. Measured in proxy mode (2026-12-07, fast upstream, 32 connections, after
 * one full GC): the upstream client's `Map` of requests in flight alone made 2.4 KB promoted per
 * call against 0.3 KB without it, and 1.14x the CPU; a bare loop of set and delete after one
 * `gc()`, 1.25 GB promoted per million calls with a `Map` or `Set` and 0.2 MB without.
 *
 * Whole-number keys (the ids the mock gives its own requests, line numbers) sit in slots of two
 * arrays, by the key's low bits, grown when half full: no hashing, and nothing links an array
 * to the next. A key whose slot an older one still holds, and every other key, goes to a
 * dictionary object (`Object.create(null)`, keys added and deleted), which has no such links
 * either, though each step costs some 0.2 µs for a number and 0.5 µs for a fresh string,
 * about four times a `Map`'s. A number key and a string key are different keys, as in a `Map`.
 * @module
 */

/** A key: a number, or a string (its own key even if it is `"__proto__"`). */
export type InFlightKey = string | number;

/** Slots a table starts with. */
const FIRST_SLOTS = 64;
/** A slot no key is in. */
const EMPTY = -1;

/** Values by key, for things that come and go call after call. */
export class InFlight<V> {
  #keys!: number[];
  #slotValues!: (V | undefined)[];
  #mask!: number;
  /** Keys in slots. */
  #slotted!: number;
  /** Number keys not in a slot (their slot was taken, or they are not whole numbers from 0 to 2^32 - 1). */
  #numbers!: Record<number, V>;
  #numbersHeld!: number;
  #strings!: Record<string, V>;
  #size!: number;

  constructor() {
    this.clear();
  }

  /** How many keys it holds. */
  get size(): number {
    return this.#size;
  }

  get(key: InFlightKey): V | undefined {
    if (typeof key === "string") return this.#strings[key];
    const slot = this.#slotOf(key);
    if (slot !== -1) return this.#slotValues[slot];
    return this.#numbersHeld === 0 ? undefined : this.#numbers[key];
  }

  has(key: InFlightKey): boolean {
    return typeof key === "string" ? key in this.#strings : this.#slotOf(key) !== -1 || (this.#numbersHeld > 0 && key in this.#numbers);
  }

  set(key: InFlightKey, value: V): void {
    if (typeof key === "string") {
      if (!(key in this.#strings)) this.#size++;
      this.#strings[key] = value;
      return;
    }
    const slot = this.#slotOf(key);
    if (slot !== -1) {
      this.#slotValues[slot] = value;
      return;
    }
    if (this.#numbersHeld > 0 && key in this.#numbers) {
      this.#numbers[key] = value;
      return;
    }
    this.#size++;
    if (key >>> 0 === key) {
      if (2 * (this.#slotted + 1) > this.#keys.length) this.#grow();
      const free = key & this.#mask;
      if (this.#keys[free] === EMPTY) {
        this.#keys[free] = key;
        this.#slotValues[free] = value;
        this.#slotted++;
        return;
      }
    }
    this.#numbers[key] = value;
    this.#numbersHeld++;
  }

  /** Holds `value` at `key` while `work` runs (until it settles); `work`, as it settles. */
  during<T>(key: InFlightKey, value: V, work: Promise<T>): Promise<T> {
    this.set(key, value);
    return work.finally(() => this.delete(key));
  }

  /** Removes `key`; whether it was there. */
  delete(key: InFlightKey): boolean {
    if (typeof key === "string") {
      if (!(key in this.#strings)) return false;
      delete this.#strings[key];
      this.#size--;
      return true;
    }
    const slot = this.#slotOf(key);
    if (slot !== -1) {
      this.#keys[slot] = EMPTY;
      this.#slotValues[slot] = undefined;
      this.#slotted--;
    } else if (this.#numbersHeld > 0 && key in this.#numbers) {
      delete this.#numbers[key];
      this.#numbersHeld--;
    } else return false;
    this.#size--;
    return true;
  }

  /** The values, as an array made now, in no particular order. */
  values(): V[] {
    if (this.#size === 0) return [];
    const out: V[] = [];
    for (let slot = 0; slot < this.#keys.length; slot++) if (this.#keys[slot] !== EMPTY) out.push(this.#slotValues[slot] as V);
    out.push(...Object.values(this.#numbers), ...Object.values(this.#strings));
    return out;
  }

  clear(): void {
    this.#emptySlots(FIRST_SLOTS);
    this.#numbers = Object.create(null) as Record<number, V>;
    this.#numbersHeld = 0;
    this.#strings = Object.create(null) as Record<string, V>;
    this.#size = 0;
  }

  /** `size` empty slots in place of the ones there were. */
  #emptySlots(size: number): void {
    this.#keys = new Array<number>(size).fill(EMPTY);
    this.#slotValues = new Array<V | undefined>(size).fill(undefined);
    this.#mask = size - 1;
    this.#slotted = 0;
  }

  /** The slot `key` is in; -1 when it is in none. */
  #slotOf(key: number): number {
    if (key >>> 0 !== key) return -1;
    const slot = key & this.#mask;
    return this.#keys[slot] === key ? slot : -1;
  }

  /** Twice the slots, the keys placed again (one whose new slot is taken goes to `#numbers`). */
  #grow(): void {
    const keys = this.#keys;
    const values = this.#slotValues;
    this.#emptySlots(keys.length * 2);
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot] as number;
      if (key === EMPTY) continue;
      const free = key & this.#mask;
      if (this.#keys[free] === EMPTY) {
        this.#keys[free] = key;
        this.#slotValues[free] = values[slot];
        this.#slotted++;
      } else {
        this.#numbers[key] = values[slot] as V;
        this.#numbersHeld++;
      }
    }
  }
}
