/**
 * Resumable event streams: every SSE stream of a session gets a number, every event an id
 * `<stream>-<event>` (unique in the session and naming its stream), and the events are kept
 * so a client that lost the connection can resume with `Last-Event-ID` and get exactly the
 * events it missed, of that stream only.
 * @module
 */
import type { SseChannel } from "../transports/http/sse-channel.js";

/** Events kept per stream for resuming. */
export const MAX_KEPT_EVENTS = 10_000;
/** Finished streams kept per session for resuming. */
export const MAX_KEPT_STREAMS = 16;

/** One stream's events and the connection currently carrying it, if any. */
export class EventStream {
  readonly number: number;
  readonly #events: Array<{ readonly seq: number; readonly json: string }> = [];
  #seq = 0;
  #channel: SseChannel | undefined;
  #finished = false;
  #onDetach: (() => void) | undefined;

  /** Events carry ids only when the stream can be resumed (a session keeps it). */
  readonly #resumable: boolean;

  constructor(number: number, resumable = true) {
    this.number = number;
    this.#resumable = resumable;
  }

  /** The id of the next event. */
  nextId(): string {
    return `${this.number}-${this.#seq + 1}`;
  }

  /** Sends (and keeps) one message; returns its event id. */
  emit(json: string): string {
    const seq = ++this.#seq;
    const id = `${this.number}-${seq}`;
    if (!this.#resumable) {
      this.#channel?.send(json);
      return id;
    }
    this.#events.push({ seq, json });
    if (this.#events.length > MAX_KEPT_EVENTS) this.#events.shift();
    this.#channel?.send(json, id);
    return id;
  }

  /** Whether a connection carries the stream now. */
  get attached(): boolean {
    return this.#channel !== undefined && !this.#channel.closed;
  }

  get finished(): boolean {
    return this.#finished;
  }

  /** Carries the stream on a connection, first replaying the events after `afterSeq`. */
  attach(channel: SseChannel, afterSeq: number, onDetach?: () => void): void {
    this.#channel?.close();
    for (const event of this.#events) if (event.seq > afterSeq) channel.send(event.json, `${this.number}-${event.seq}`);
    if (this.#finished) {
      channel.close();
      return;
    }
    this.#channel = channel;
    this.#onDetach = onDetach;
    void channel.done.then(() => {
      if (this.#channel !== channel) return;
      this.#channel = undefined;
      this.#onDetach?.();
    });
  }

  /** Drops the connection without finishing the stream (it can be resumed). */
  drop(): void {
    const channel = this.#channel;
    this.#channel = undefined;
    channel?.close();
  }

  /** The stream is complete: closes the connection carrying it. */
  finish(): void {
    this.#finished = true;
    const channel = this.#channel;
    this.#channel = undefined;
    channel?.close();
  }
}

/** Parses a `Last-Event-ID` of this scheme into its stream and event numbers. */
export function parseEventId(id: string): { stream: number; seq: number } | undefined {
  const match = /^(\d+)-(\d+)$/.exec(id);
  return match ? { stream: Number(match[1]), seq: Number(match[2]) } : undefined;
}

/** A session's streams. */
export class SessionStreams {
  #next = 0;
  readonly #streams = new Map<number, EventStream>();

  /** A new stream. */
  open(): EventStream {
    const stream = new EventStream(++this.#next);
    this.#streams.set(stream.number, stream);
    if (this.#streams.size > MAX_KEPT_STREAMS) {
      for (const [n, s] of this.#streams) {
        if (this.#streams.size <= MAX_KEPT_STREAMS) break;
        if (s.finished && !s.attached) this.#streams.delete(n);
      }
    }
    return stream;
  }

  get(number: number): EventStream | undefined {
    return this.#streams.get(number);
  }

  /** Ends every stream's connection. */
  closeAll(): void {
    for (const stream of this.#streams.values()) stream.finish();
    this.#streams.clear();
  }
}
