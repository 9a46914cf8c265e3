/**
 * App events: what the probe view saw pass between a host and itself, in order, bounded by
 * bytes (the oldest go first). A journal view, like the requests: tests read it with
 * `mock.appEvents()`, the admin API with `GET /__admin/app-events`.
 * @module
 */
import { showValue } from "../values/errors.js";

/**
 * One message between a host and the probe view, as the view saw it: `from: "host"` came to
 * the view, `from: "view"` went to the host. A request's answer is its own event, with the
 * request's `method` and the `result` or `error`.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({ apps: [{ uri: "ui://probe/view.html", probe: true }] });
 * const initialized = mock.appEvents().find((e) => e.from === "host" && e.method === "ui/initialize" && e.result !== undefined);
 * console.log(initialized?.result); // the host's answer: protocolVersion, hostInfo, hostContext, ...
 * ```
 * @category Apps
 */
export interface AppEvent {
  /** Who sent the message: the host (to the view) or the view (to the host). */
  readonly from: "host" | "view";
  /** The method; for an answer, the method of the request it answers. */
  readonly method: string;
  /** The JSON-RPC id of a request or of the answer to one. */
  readonly id?: string | number;
  /** The request's or notification's params. */
  readonly params?: unknown;
  /** An answer's result. */
  readonly result?: unknown;
  /** An answer's error. */
  readonly error?: unknown;
  /** The app's `ui://` URI. */
  readonly app: string;
  /** When the view saw it (milliseconds since the epoch, the view's clock). */
  readonly at: number;
}

/** Events kept at most, in bytes of their JSON (the oldest are dropped past it). */
export const APP_EVENT_BYTES = 4 * 1024 * 1024;
/** A single event's params, result or error are cut to this many bytes of JSON. */
export const APP_EVENT_VALUE_BYTES = 64 * 1024;

/** The longest app URI a report may name: it is kept with every event the report holds. */
export const MAX_REPORT_APP_CHARS = 2048;
/** The longest view instance id a report may carry: it is kept for every event, to count each once. */
export const MAX_REPORT_INSTANCE_CHARS = 128;

/** The most events one report may hold (the probe view sends at most this many at once); the rest are refused. */
export const MAX_REPORT_EVENTS = 2000;

/** The method of the event that notes a report refused whole. */
export const REPORT_REFUSED = "mcpmock/report-refused";

/** The app events a mock has received, oldest first. */
export class AppEventLog {
  #events: { event: AppEvent; bytes: number }[] = [];
  #bytes = 0;
  #dropped = 0;
  #seen = new Set<string>();
  #waiters = new Set<(events: readonly AppEvent[]) => void>();
  readonly #limit: number;

  constructor(limit = APP_EVENT_BYTES) {
    this.#limit = limit;
  }

  /**
   * Adds a report's events; returns what was taken and the problems of what was not. An event
   * already taken (same view instance and sequence number) is skipped, so a report that comes
   * both through the host and directly counts once.
   */
  add(app: string, instance: string, raw: unknown): { taken: number; problems: string[] } {
    const problems: string[] = [];
    if (!Array.isArray(raw)) return { taken: 0, problems: [`the report's events must be a list, received ${showValue(raw, 80)}`] };
    // Both are kept with each of the report's events: unbounded, one report of small events would cost their length times the events.
    if (app.length > MAX_REPORT_APP_CHARS) return { taken: 0, problems: [`the report's app must be a ui:// URI of at most ${MAX_REPORT_APP_CHARS} characters, received ${app.length}: ${showValue(app, 80)}`] };
    if (instance.length > MAX_REPORT_INSTANCE_CHARS) return { taken: 0, problems: [`the report's instance must be an id of at most ${MAX_REPORT_INSTANCE_CHARS} characters, received ${instance.length}: ${showValue(instance, 80)}`] };
    // The app's share of each event's bytes, measured once for the report.
    const appBytes = JSON.stringify(app).length - JSON.stringify("").length;
    const taken: AppEvent[] = [];
    if (raw.length > MAX_REPORT_EVENTS) problems.push(`a report holds at most ${MAX_REPORT_EVENTS} events; the ${raw.length - MAX_REPORT_EVENTS} after the first ${MAX_REPORT_EVENTS} were refused (send them in another report)`);
    raw.slice(0, MAX_REPORT_EVENTS).forEach((item: unknown, i) => {
      const e = item as Record<string, unknown> | null;
      if (e === null || typeof e !== "object" || (e["from"] !== "host" && e["from"] !== "view") || typeof e["method"] !== "string") {
        problems.push(`events[${i}] is not an app event ({ from: "host" | "view", method, ... }): ${showValue(item, 80)}`);
        return;
      }
      const seq = e["seq"];
      if (typeof seq === "number") {
        const key = `${instance}\u0000${seq}`;
        if (this.#seen.has(key)) return;
        this.#seen.add(key);
      }
      const event: Record<string, unknown> = { from: e["from"], method: (e["method"] as string).slice(0, 200) };
      if (typeof e["id"] === "string" || typeof e["id"] === "number") event["id"] = e["id"];
      for (const k of ["params", "result", "error"]) if (e[k] !== undefined) event[k] = bounded(e[k]);
      event["app"] = "";
      event["at"] = typeof e["at"] === "number" ? e["at"] : Date.now();
      const bytes = JSON.stringify(event).length + appBytes;
      event["app"] = app;
      this.#push(event as unknown as AppEvent, bytes);
      taken.push(event as unknown as AppEvent);
    });
    this.#tell(taken);
    return { taken: taken.length, problems };
  }

  /**
   * Notes a report that was refused whole (too large, not JSON, not a report) as an event of
   * its own, `mcpmock/report-refused` with the reason as its error, so the log, the inspector
   * and `--verbose` show it; bounded like every event.
   */
  refused(app: string, reason: string): void {
    const event: AppEvent = { from: "view", method: REPORT_REFUSED, error: { message: reason.slice(0, 300) }, app: app.slice(0, 200), at: Date.now() };
    this.#push(event);
    this.#tell([event]);
  }

  #tell(events: readonly AppEvent[]): void {
    if (events.length > 0) for (const listener of [...this.#waiters]) listener(events);
  }

  #push(event: AppEvent, bytes = JSON.stringify(event).length): void {
    this.#events.push({ event, bytes });
    this.#bytes += bytes;
    while (this.#bytes > this.#limit && this.#events.length > 1) {
      this.#bytes -= (this.#events.shift() as { bytes: number }).bytes;
      this.#dropped++;
    }
    if (this.#seen.size > 100_000) this.#seen.clear();
  }

  /** The events, oldest first. */
  all(): AppEvent[] {
    return this.#events.map((e) => e.event);
  }

  /** How many events were dropped to keep within the byte limit. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Calls `listener` with the events whenever some arrive; returns the unsubscribe. */
  onAdd(listener: (events: readonly AppEvent[]) => void): () => void {
    this.#waiters.add(listener);
    return () => this.#waiters.delete(listener);
  }

  clear(): void {
    this.#events = [];
    this.#bytes = 0;
    this.#seen.clear();
  }
}

/** A value cut to {@link APP_EVENT_VALUE_BYTES} of JSON (a note in its place when longer). */
function bounded(value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return "[mcpmock: not JSON]";
  }
  if (text === undefined) return undefined;
  return text.length <= APP_EVENT_VALUE_BYTES ? value : `[mcpmock: ${text.length} bytes, cut] ${text.slice(0, 200)}…`;
}
