/**
 * Lines read from a real server (its stdout, its SSE stream): how long one may be. The reader
 * itself is `values/line-reader.ts`, shared with the stdio transport.
 * @module
 */

/** The longest line (or SSE event) read from a real server: 16 MiB. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
