/**
 * The order `check` plays a definition's calls in: the recorded one when the file keeps it
 * (`recorded.order`), so a stateful server sees the session it saw when it was recorded.
 * @module
 */

/** A call to play: its entry's index in `responses` (none for a prompt's) and its answers, one per call. */
export interface Playable {
  readonly entry?: number;
  readonly expected: readonly unknown[];
}

/**
 * The calls to play, in order: as the recording made them when it says (`recorded.order`, the
 * entry of each call in turn: an entry's `then` answers come after the calls made between
 * them, so a stateful server sees what it saw), then whatever the order does not name, in the
 * file's order, each entry's answers in turn. `i` is the answer's index in its entry.
 */
export function recordedOrder<P extends Playable>(planned: readonly P[], order: readonly number[] | undefined): Array<{ p: P; i: number }> {
  const out: Array<{ p: P; i: number }> = [];
  const played = new Map<P, number>();
  const byEntry = new Map(planned.flatMap((p) => (p.entry === undefined ? [] : [[p.entry, p] as const])));
  for (const entry of order ?? []) {
    const p = byEntry.get(entry);
    if (p === undefined) continue;
    const i = played.get(p) ?? 0;
    played.set(p, i + 1);
    out.push({ p, i });
  }
  for (const p of planned) for (let i = played.get(p) ?? 0; i < p.expected.length; i++) out.push({ p, i });
  return out;
}

