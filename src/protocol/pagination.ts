/**
 * Pagination of list results with opaque cursors.
 * @module
 */
import { showValue } from "../values/errors.js";

/** The most of a bad cursor an error repeats (a client may send megabytes of one). */
const SHOWN_CURSOR = 120;

/** The default page size of list answers (`tools/list` and the like). */
export const DEFAULT_PAGE_SIZE = 100;

/** An invalid cursor (answered with -32602). */
export class InvalidCursorError extends Error {}

function encode(list: string, offset: number): string {
  return Buffer.from(JSON.stringify([list, offset])).toString("base64url");
}

function decode(cursor: unknown, list: string): number {
  if (typeof cursor !== "string") throw new InvalidCursorError(`the cursor must be a string from an earlier nextCursor`);
  try {
    const [name, offset] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [unknown, unknown];
    if (name === list && Number.isSafeInteger(offset) && (offset as number) > 0) return offset as number;
  } catch {
    // falls through
  }
  throw new InvalidCursorError(`${showValue(cursor, SHOWN_CURSOR)} is not a cursor this mock gave for ${list}`);
}

/** One page of `items` from `cursor` (absent: the first page), and the next cursor if more remain. */
export function page<T>(items: readonly T[], cursor: unknown, pageSize: number, list: string): { items: T[]; nextCursor?: string } {
  const offset = cursor === undefined ? 0 : decode(cursor, list);
  if (offset > items.length) throw new InvalidCursorError(`the cursor points past the end of ${list}`);
  const end = offset + pageSize;
  return end < items.length ? { items: items.slice(offset, end), nextCursor: encode(list, end) } : { items: items.slice(offset) };
}
