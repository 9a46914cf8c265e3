/**
 * The inspector's live feed, `GET /__admin/events`: a server-sent event for every journal entry
 * as it arrives and again once it is answered, and an `app-events` event for what MCP Apps probe
 * views report, so a page shows requests and app events without polling.
 * Bounded: at most {@link MAX_FEED_CLIENTS} pages at once, and a page that reads slower than
 * the mock writes is dropped once {@link FEED_CLIENT_BUDGET} characters wait for it besides the
 * largest event it is reading (its `EventSource` reconnects and reads the journal again). Every stream ends when the mock closes.
 * @module
 */
import type { Journal } from "../journal/journal.js";
import type { JournalEntry } from "../journal/entry.js";
import { suggestStub, type Declarations, type StubSuggestion } from "./suggestion.js";

/** Pages that may hold the feed open at once. */
export const MAX_FEED_CLIENTS = 16;
/** Characters of events that may wait for one slow page before it is dropped (4 MiB). */
export const FEED_CLIENT_BUDGET = 4 * 1024 * 1024;
/** A comment line this often keeps proxies and browsers from timing the stream out. */
const HEARTBEAT_MS = 15_000;

/** What the feed reads from a mock: its journal and the signal that it is closing. */
export interface LiveSource {
  readonly journal: Journal;
  readonly closing: AbortSignal;
  /** What the mock declares, for suggestions that declare what they need. */
  readonly declared?: Declarations;
  /** The MCP Apps probe views' events, sent as `app-events` as they arrive. */
  readonly appEvents?: { onAdd(listener: (events: readonly unknown[]) => void): () => void };
}

/** A journal entry as JSON for the admin API and the inspector (without the internal `call`). */
export type EntryJson = Omit<JournalEntry, "call"> & {
  /** The answered tool, prompt or resource, when the method names one. */
  target?: string;
  /** For an unmatched request: a stub that would answer it, as a definition fragment and as DSL. */
  suggestion?: StubSuggestion;
};

/** An entry as the admin API shows it: the fields of the entry, the call's target, and a suggestion for a miss. */
export function entryJson(entry: JournalEntry, declared?: Declarations): EntryJson {
  const { call, ...rest } = entry;
  const out: EntryJson = rest;
  const target = call?.name ?? call?.uri;
  if (target !== undefined) out.target = target;
  if (entry.unmatched) {
    const suggestion = suggestStub(entry, declared);
    if (suggestion) out.suggestion = suggestion;
  }
  return out;
}

interface FeedClient {
  readonly controller: ReadableStreamDefaultController<string>;
  /** Ends the page's connection (its socket): what waits unread in it goes with it. */
  readonly end: (() => void) | undefined;
  /** The largest frame sent since the page last had nothing waiting. */
  largest: number;
}

/** The SSE streams of one mock's inspector pages. */
export class LiveFeed {
  readonly #source: LiveSource;
  readonly #clients = new Set<FeedClient>();
  readonly #max: number;
  /** While a page is connected: the journal subscriptions and the heartbeat, shared by all pages. */
  #stop: (() => void) | undefined;

  constructor(source: LiveSource, max = MAX_FEED_CLIENTS) {
    this.#source = source;
    this.#max = max;
    source.closing.addEventListener("abort", () => this.closeAll(), { once: true });
  }

  /** Pages connected now. */
  get size(): number {
    return this.#clients.size;
  }

  /** Sends an event to every page (`reset` after `POST /__admin/reset`, say). */
  broadcast(event: string, data: unknown = {}): void {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const client of this.#clients) this.#send(client, frame);
  }

  /**
   * A new SSE response, or a 503 that says why when the mock is closing or full. `end` ends the
   * page's connection: a page dropped for not reading is cut off, so neither its socket nor the
   * megabytes queued for it stay behind.
   */
  open(end?: () => void): Response {
    if (this.#source.closing.aborted) return refusal(503, "[mcpmock] the mock is closing; no live feed.");
    if (this.#clients.size >= this.#max) {
      return refusal(503, `[mcpmock] ${this.#max} pages already hold the live feed open; close one (or reload fewer inspector tabs).`);
    }
    let client: FeedClient | undefined;
    const body = new ReadableStream<string>(
      {
        start: (controller) => {
          client = { controller, end, largest: 0 };
          this.#clients.add(client);
          this.#listen();
          controller.enqueue(`retry: 1000\nevent: hello\ndata: ${JSON.stringify({ total: this.#source.journal.total })}\n\n`);
        },
        cancel: () => {
          if (client) this.#drop(client);
        },
      },
      { highWaterMark: FEED_CLIENT_BUDGET, size: (chunk) => chunk.length },
    );
    return new Response(body.pipeThrough(new TextEncoderStream()), {
      headers: { "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" },
    });
  }

  /** Ends every page's stream (the mock is closing). */
  closeAll(): void {
    for (const client of [...this.#clients]) {
      this.#drop(client);
      try {
        client.controller.close();
      } catch {
        // already closed by the page
      }
    }
  }

  /** The first page subscribes the feed to the journal (one serialization per entry for every page). */
  #listen(): void {
    if (this.#stop) return;
    const push = (entry: JournalEntry): void => this.broadcast("entry", entryJson(entry, this.#source.declared));
    const offRecord = this.#source.journal.onRecord(push);
    const offComplete = this.#source.journal.onComplete(push);
    const offApps = this.#source.appEvents?.onAdd((events) => this.broadcast("app-events", events));
    const beat = setInterval(() => {
      for (const client of this.#clients) this.#send(client, ": keep-alive\n\n");
    }, HEARTBEAT_MS);
    beat.unref();
    this.#stop = () => {
      offRecord();
      offComplete();
      offApps?.();
      clearInterval(beat);
    };
  }

  #send(client: FeedClient, frame: string): void {
    // A page that does not keep up is dropped rather than buffered without end. One frame larger
    // than the budget is not a reason (a page that reads gets it whole): the budget is on what
    // waits for the page besides the largest frame it is reading.
    const waiting = FEED_CLIENT_BUDGET - (client.controller.desiredSize ?? -Infinity);
    if (waiting <= 0) client.largest = 0;
    client.largest = Math.max(client.largest, frame.length);
    if (waiting + frame.length > FEED_CLIENT_BUDGET + client.largest) {
      this.#drop(client);
      try {
        client.controller.error(new Error("[mcpmock] the page read too slowly; the live feed dropped it"));
      } catch {
        // already closed
      }
      client.end?.();
      return;
    }
    client.controller.enqueue(frame);
  }

  #drop(client: FeedClient): void {
    if (!this.#clients.delete(client) || this.#clients.size > 0) return;
    // The last page went: the journal has no listener to call.
    this.#stop?.();
    this.#stop = undefined;
  }
}

function refusal(status: number, message: string): Response {
  return new Response(JSON.stringify({ error: message }), { status, headers: { "content-type": "application/json" } });
}
