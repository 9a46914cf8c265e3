/**
 * A copy of an object with some fields set, for the hot path. `{ ...source, key: value }` is
 * the natural way to write it, but when `key` is not already in `source`, Node 20's V8 takes a
 * slow path for it: about 1.5 µs a copy instead of about 0.1 µs for this one, on a small
 * result, measured on Node 20.20 (a spread that only replaces existing keys stays fast).
 * @module
 */

/** `{ ...source, ...fields }`: the own enumerable fields of `source`, then `fields` on top. */
export function withFields<T extends object, F extends Record<string, unknown>>(source: T, fields: F): T & F {
  const copy: Record<string, unknown> = {};
  for (const key in source) if (Object.hasOwn(source, key)) set(copy, key, (source as Record<string, unknown>)[key]);
  for (const key in fields) if (Object.hasOwn(fields, key)) set(copy, key, fields[key]);
  return copy as T & F;
}

/** An own data property, as a spread makes it: a `"__proto__"` key (JSON.parse makes one) stays data, not the prototype. */
function set(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
