/**
 * Colours on a terminal, the way Node decides them: `FORCE_COLOR` (not `0`) turns them on,
 * `NO_COLOR` or `NODE_DISABLE_COLORS` (any value) off, `TERM=dumb` off; otherwise a terminal
 * gets them and a pipe or file does not. (Node 20's `util.styleText` colours regardless of
 * the stream, and a dependency for four escape codes is not worth its weight.)
 * @module
 */

/** The styles the CLI uses, each the identity when colours are off. */
export interface Style {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
}

/** Whether text written to this stream should be coloured. */
export function wantsColour(stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env["FORCE_COLOR"];
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  if (env["NO_COLOR"] || env["NODE_DISABLE_COLORS"]) return false;
  return stream.isTTY === true && env["TERM"] !== "dumb";
}

const wrap = (on: boolean, open: number, close: number) => (text: string) => (on ? `\u001b[${open}m${text}\u001b[${close}m` : text);

/** The styles for one stream (`process.stdout` or `process.stderr`). */
export function styleFor(stream: { readonly isTTY?: boolean }): Style {
  const on = wantsColour(stream);
  return { bold: wrap(on, 1, 22), dim: wrap(on, 2, 22), red: wrap(on, 31, 39), green: wrap(on, 32, 39) };
}
