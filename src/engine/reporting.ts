/**
 * What the engine tells the test process: unmatched requests (as `onUnmatched` says) and, with
 * `verbose`, one line per answered call on stderr.
 * @module
 */
import type { JournalEntry } from "../journal/entry.js";
import type { Journal } from "../journal/journal.js";
import type { McpMockOptions } from "../options.js";
import { PREFIX, printable, showValue } from "../values/errors.js";
import type { Outcome } from "./outcome.js";
import type { AppEvent } from "../journal/app-events.js";

/**
 * Reports a request no stub answered, as `onUnmatched` says. `"warn"` (the default) through
 * `console.warn`, which writes stderr but lets a test runner show the report under the test
 * that made the miss (vitest: "stderr | file > test"); `"error"` prints nothing now, because
 * `close()` rejects with every report (printing both showed each miss twice). Nothing while a
 * verification expects misses (`journal.missesExpected`).
 */
export function reportUnmatched(mock: { readonly options: McpMockOptions; readonly journal: Pick<Journal, "missesExpected"> }, entry: JournalEntry, report: string): void {
  if (mock.journal.missesExpected) return;
  const policy = mock.options.onUnmatched ?? "warn";
  if (policy === "silent" || policy === "error") return;
  if (typeof policy === "function") policy(entry, report);
  else console.warn(report);
}

/** The `verbose` line of an answered call: session, method, params, the stub, the answer and the time. */
export function logAnswer(entry: JournalEntry, outcome: Outcome, shown: <T>(value: T) => T = (value) => value): void {
  const what = entry.call?.name ?? entry.call?.uri;
  const answer = outcome.kind === "status" ? `HTTP ${outcome.status}` : outcome.kind === "stream" ? "a stream" : showValue(shown(outcome.message), 160);
  process.stderr.write(
    `${PREFIX} ${entry.sessionId ?? (entry.method === "initialize" ? "(new session)" : "(no session)")} ← ${printable(String(entry.method))}${what ? ` ${JSON.stringify(what)}` : ""} ${showValue(entry.params ?? {}, 120)}` +
      ` → ${entry.stubId ?? (entry.unmatched ? "no stub" : "built-in")}: ${answer} (${entry.durationMs} ms)\n`,
  );
}

/** The `verbose` line of an app event: `app ui://x/view.html: host → view ui/initialize (answer) → {...}`. */
export function logAppEvent(e: AppEvent): void {
  const answer = e.result !== undefined || e.error !== undefined;
  const value = e.result !== undefined ? ` → ${showValue(e.result, 160)}` : e.error !== undefined ? ` → error ${showValue(e.error, 160)}` : e.params !== undefined ? ` ${showValue(e.params, 120)}` : "";
  process.stderr.write(`${PREFIX} app ${e.app}: ${e.from === "host" ? "host → view" : "view → host"} ${e.method}${answer ? " (answer)" : ""}${value}\n`);
}
