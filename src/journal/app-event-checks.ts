/**
 * Checks over app events: a pattern (plain data that describes itself), an ordered check
 * with a report that says which event was missing or out of order and lists the events that
 * did arrive, and a wait for asynchronous hosts.
 * @module
 */
import { McpMockError, showValue } from "../values/errors.js";
import { MAX_DELAY_MS } from "../values/max-delay.js";
import type { AppEvent, AppEventLog } from "./app-events.js";

/**
 * What an app event must be: who sent it, its method, whether it is an answer, and the
 * params (or result) it must contain. Make one with {@link appEvent}.
 *
 * @example
 * ```ts
 * import { appEvent } from "mcpmock";
 * const input = appEvent("ui/notifications/tool-input", { from: "host", contains: { arguments: { city: "Paris" } } });
 * ```
 * @category Apps
 */
export interface AppEventPattern {
  /** The method (for an answer, its request's). */
  readonly method: string;
  /** Who sent it (for an answer: who answered); either when not given. */
  readonly from?: "host" | "view";
  /** `true`: an answer (a result or an error); `false`: a request or notification; either when not given. */
  readonly answer?: boolean;
  /** Fields the params (or, for an answer, the result) must contain, compared as JSON; objects match by their fields. */
  readonly contains?: Readonly<Record<string, unknown>>;
}

/**
 * An app event pattern, for {@link McpMock.verifyAppEvents} and {@link McpMock.waitForAppEvent}.
 *
 * @example
 * ```ts
 * import { appEvent } from "mcpmock";
 * const answered = appEvent("ui/initialize", { from: "host", answer: true });
 * const called = appEvent("tools/call", { from: "view", contains: { name: "refresh" } });
 * ```
 * @category Apps
 */
export function appEvent(method: string, options: Omit<AppEventPattern, "method"> = {}): AppEventPattern {
  if (typeof method !== "string" || method === "") throw new McpMockError(`appEvent takes a method, like appEvent("ui/notifications/tool-input", { from: "host" }); received ${showValue(method)}.`);
  return { method, ...options };
}

/** The pattern as a phrase: `host → view ui/notifications/tool-input`, `host → view ui/initialize (an answer)`. */
export function describeAppEvent(p: AppEventPattern): string {
  const who = p.from === "host" ? "host → view " : p.from === "view" ? "view → host " : "";
  const kind = p.answer === true ? " (an answer)" : p.answer === false ? " (a request or notification)" : "";
  return `${who}${p.method}${kind}${p.contains === undefined ? "" : ` containing ${showValue(p.contains, 120)}`}`;
}

function contains(actual: unknown, expected: unknown): boolean {
  if (expected !== null && typeof expected === "object" && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v));
  }
  return JSON.stringify(actual) === JSON.stringify(expected);
}

/** Whether an event fits a pattern. */
export function matchesAppEvent(p: AppEventPattern, e: AppEvent): boolean {
  const answer = e.result !== undefined || e.error !== undefined;
  if (p.from !== undefined && e.from !== p.from) return false;
  if (p.method !== e.method) return false;
  if (p.answer !== undefined && p.answer !== answer) return false;
  return p.contains === undefined || contains(answer ? (e.result ?? e.error) : e.params, p.contains);
}

function line(e: AppEvent, i: number): string {
  const answer = e.result !== undefined ? ` → ${showValue(e.result, 100)}` : e.error !== undefined ? ` → error ${showValue(e.error, 100)}` : e.params !== undefined ? ` ${showValue(e.params, 100)}` : "";
  return `  #${i} ${e.from} ${e.method}${e.result !== undefined || e.error !== undefined ? " (answer)" : ""}${answer}`;
}

/**
 * Checks that events fitting the patterns arrived in this order (others may come between);
 * with `times`, that each pattern fits exactly that many events. Throws a report otherwise.
 */
export function verifyAppEvents(events: readonly AppEvent[], patterns: readonly AppEventPattern[], options: { times?: number } = {}): void {
  const lines: string[] = [];
  let failed = false;
  let after = -1;
  patterns.forEach((p, n) => {
    const label = `  ${n + 1}. ${describeAppEvent(p)}`;
    if (options.times !== undefined) {
      const count = events.filter((e) => matchesAppEvent(p, e)).length;
      if (count !== options.times) failed = true;
      lines.push(`${label}: ${count === options.times ? "✓" : "✗"} seen ${count} time${count === 1 ? "" : "s"}, expected ${options.times}`);
      return;
    }
    const at = events.findIndex((e, i) => i > after && matchesAppEvent(p, e));
    if (at >= 0) {
      lines.push(`${label}: ✓ #${at}`);
      after = at;
      return;
    }
    failed = true;
    const earlier = events.findIndex((e) => matchesAppEvent(p, e));
    lines.push(`${label}: ✗ ${earlier >= 0 ? `out of order: it came at #${earlier}, before the event matched above (#${after})` : "missing: no such event arrived"}`);
  });
  if (!failed) return;
  const shown = events.slice(-60).map((e, i) => line(e, i + Math.max(0, events.length - 60)));
  throw new McpMockError(
    `${options.times === undefined ? "Expected app events in this order" : `Expected each app event ${options.times} time${options.times === 1 ? "" : "s"}`}:\n${lines.join("\n")}\n` +
      `App events received (${events.length}):\n${shown.length ? shown.join("\n") : "  none: no probe view reported (is the app declared with probe: true, and did the host render it?)"}`,
  );
}

/** Resolves with the first event fitting the pattern, already received or arriving within `timeout` ms (default 1000); rejects with the events that did arrive. */
export function waitForAppEvent(log: AppEventLog, pattern: AppEventPattern, options: { timeout?: number } = {}): Promise<AppEvent> {
  const timeout = options.timeout ?? 1000;
  // Checked as waitFor checks it: NaN or a negative number waited 1 ms, and so did one past what a timer holds.
  if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout < 0 || timeout > MAX_DELAY_MS) {
    return Promise.reject(new McpMockError(`waitForAppEvent: timeout is milliseconds, 0 to ${MAX_DELAY_MS}, received ${typeof timeout === "number" ? String(timeout) : showValue(timeout)}.`));
  }
  const find = (): AppEvent | undefined => log.all().find((e) => matchesAppEvent(pattern, e));
  const found = find();
  if (found) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      try {
        verifyAppEvents(log.all(), [pattern]);
      } catch (error) {
        reject(new McpMockError(`waitForAppEvent: nothing in ${timeout} ms. ${(error as Error).message.replace(/^\[mcpmock\] /, "")}`));
      }
    }, timeout);
    const stop = log.onAdd(() => {
      const event = find();
      if (event === undefined) return;
      clearTimeout(timer);
      stop();
      resolve(event);
    });
  });
}
