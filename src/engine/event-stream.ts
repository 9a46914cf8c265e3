/**
 * Resumable event streams: every SSE stream of a session gets a number, every event an id
 * `<stream>-<event>` (unique in the session and naming its stream), and the events are kept
 * so a client that lost the connection can resume with `Last-Event-ID` and get exactly the
 * events it missed, of that stream only.
 * @module
 */

/**
 * The connection that carries a stream's events: the HTTP transport's SSE channel
 * (`transports/http/sse-channel.ts`) is one. Named here so the engine does not import the transport.
 */
interface EventChannel {
  /** Writes one event (its JSON), with its id when the stream can be resumed. */
  send(json: string, id?: string): void;
  /** `undefined` when the connection takes more now, else a promise that resolves once it does. */
  ready(): Promise<void> | undefined;
  /** The connection has ended. */
  readonly closed: boolean;
  /** Resolves when the connection has ended (closed by us or by the client). */
  readonly done: Promise<void>;
  close(): void;
}

/** Events kept per stream for resuming. */
const MAX_KEPT_EVENTS = 10_000;
/** Finished streams kept per session for resuming. */
const MAX_KEPT_STREAMS = 16;
/** Default bytes of events kept per stream for resuming (`maxStreamBytes`). */
export const DEFAULT_MAX_STREAM_BYTES = 4 * 1024 * 1024;
/** Default bytes of events kept per session for resuming, all its streams (`maxSessionStreamBytes`). */
const DEFAULT_MAX_SESSION_STREAM_BYTES = 16 * 1024 * 1024;

/** Byte bounds of the events kept for resuming. */
export interface StreamLimits {
  readonly maxStreamBytes?: number;
  readonly maxSessionStreamBytes?: number;
}

/** One stream's events and the connection currently carrying it, if any. */
export class EventStream {
  readonly number: number;
  readonly #events: Array<{ readonly seq: number; readonly json: string }> = [];
  #seq = 0;
  /** The bytes of the kept events (their JSON's length). */
  #bytes = 0;
  readonly #owner: SessionStreams | undefined;
  readonly #maxBytes: number;
  #channel: EventChannel | undefined;
  #finished = false;
  #onDetach: (() => void) | undefined;

  /** Events carry ids only when the stream can be resumed (a session keeps it). */
  readonly #resumable: boolean;

  constructor(number: number, resumable = true, owner?: SessionStreams, maxBytes = DEFAULT_MAX_STREAM_BYTES) {
    this.number = number;
    this.#resumable = resumable;
    this.#owner = owner;
    this.#maxBytes = maxBytes;
  }

  /** The bytes of events kept for resuming. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The events a client resuming after `afterSeq` can no longer get (dropped to the byte
   * bound), as the first and last of their numbers; `undefined` when it misses none.
   */
  missedAfter(afterSeq: number): { readonly from: number; readonly to: number } | undefined {
    const first = this.#events[0]?.seq ?? this.#seq + 1;
    return afterSeq + 1 < first && afterSeq < this.#seq ? { from: afterSeq + 1, to: Math.min(first - 1, this.#seq) } : undefined;
  }

  /** Drops the oldest kept event (a client resuming from before it gets the ones after); the bytes freed. */
  dropOldest(): number {
    const event = this.#events.shift();
    if (event === undefined) return 0;
    this.#bytes -= event.json.length;
    return event.json.length;
  }

  /** `undefined` when the connection takes more now, else a promise that resolves once it does. */
  ready(): Promise<void> | undefined {
    return this.#channel?.ready();
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
    this.#bytes += json.length;
    let freed = 0;
    while (this.#events.length > 1 && (this.#events.length > MAX_KEPT_EVENTS || this.#bytes > this.#maxBytes)) freed += this.dropOldest();
    this.#owner?.grew(json.length - freed, this);
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
  attach(channel: EventChannel, afterSeq: number, onDetach?: () => void): void {
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

/** A session's streams, and the bytes their kept events take (bounded). */
export class SessionStreams {
  #next = 0;
  readonly #streams = new Map<number, EventStream>();
  #bytes = 0;
  readonly #maxStreamBytes: number;
  readonly #maxBytes: number;

  constructor(limits: StreamLimits = {}) {
    this.#maxStreamBytes = limits.maxStreamBytes ?? DEFAULT_MAX_STREAM_BYTES;
    this.#maxBytes = limits.maxSessionStreamBytes ?? DEFAULT_MAX_SESSION_STREAM_BYTES;
  }

  /** The bytes of events kept for resuming, all streams. */
  get bytes(): number {
    return this.#bytes;
  }

  /** A new stream. */
  open(): EventStream {
    const stream = new EventStream(++this.#next, true, this, this.#maxStreamBytes);
    this.#streams.set(stream.number, stream);
    if (this.#streams.size > MAX_KEPT_STREAMS) {
      for (const [n, s] of this.#streams) {
        if (this.#streams.size <= MAX_KEPT_STREAMS) break;
        if (s.finished && !s.attached) this.#forget(n, s);
      }
    }
    return stream;
  }

  #forget(n: number, stream: EventStream): void {
    this.#bytes -= stream.bytes;
    this.#streams.delete(n);
  }

  /**
   * A stream's kept events grew by `delta` bytes. Past the session's budget, finished streams
   * go first (oldest first), then the oldest events of the others; `current` keeps its newest.
   */
  grew(delta: number, current: EventStream): void {
    this.#bytes += delta;
    if (this.#bytes <= this.#maxBytes) return;
    for (const [n, s] of this.#streams) {
      if (this.#bytes <= this.#maxBytes) return;
      if (s !== current && s.finished && !s.attached) this.#forget(n, s);
    }
    for (const s of this.#streams.values()) {
      while (this.#bytes > this.#maxBytes && s.bytes > 0 && (s !== current || s.bytes > this.#maxBytes / 2)) this.#bytes -= s.dropOldest();
      if (this.#bytes <= this.#maxBytes) return;
    }
  }

  get(number: number): EventStream | undefined {
    return this.#streams.get(number);
  }

  /** Ends every stream's connection. */
  closeAll(): void {
    for (const stream of this.#streams.values()) stream.finish();
    this.#streams.clear();
    this.#bytes = 0;
  }
}
