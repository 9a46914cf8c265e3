/**
 * SSE streams, written by hand so every byte and header is ours: `event: message`, an `id`,
 * `data`, a blank line; comments as keep-alives.
 * @module
 */
import type { ServerResponse } from "node:http";
import type { McpMockOptions } from "../../options.js";
import { DEFAULT_MAX_STREAM_BYTES } from "../../engine/event-stream.js";
import { RESPONSE_ALREADY_SENT } from "./node-io.js";

/** One `message` event carrying a JSON-RPC message: `event: message\nid: <id>\ndata: <json>\n\n`. */
export function messageFrame(data: string, id?: string): string {
  return id === undefined ? `event: message\ndata: ${data}\n\n` : `event: message\nid: ${id}\ndata: ${data}\n\n`;
}

/** A comment line, ignored by clients: used as keep-alive. */
export const KEEP_ALIVE_FRAME = ": keepalive\n\n";

/** The headers the SDK's transport sends on SSE responses. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

const encoder = new TextEncoder();

/**
 * Bytes the body's queue holds before writers wait, where the stream is handed to the adapter
 * as a `Response` body (a request with an `Origin` header, whose answer gets CORS headers).
 */
const QUEUE_BYTES = 64 * 1024;

/** Default time a client may leave a full socket buffer unread before its stream is dropped. */
export const DEFAULT_SSE_STALL_MS = 30_000;

/** How a channel bounds what a client leaves unread. */
export interface ChannelLimits {
  /** Milliseconds the socket's buffer may stay full before the client is dropped. */
  readonly stallMs: number;
  /** Bytes written but unread past which the client is dropped at once. */
  readonly maxBuffered: number;
}

/** The limits the options set (`sseStallMs`, `maxStreamBytes`), for every SSE stream of a mock. */
export function channelLimits(options: Pick<McpMockOptions, "sseStallMs" | "maxStreamBytes">): ChannelLimits {
  return { stallMs: options.sseStallMs ?? DEFAULT_SSE_STALL_MS, maxBuffered: options.maxStreamBytes ?? DEFAULT_MAX_STREAM_BYTES };
}

/**
 * An open SSE stream and the response that carries it: written straight to the Node response
 * when there is one to write to (frames written in one tick go out in one write), otherwise
 * as a ReadableStream body the adapter cancels when the client goes away.
 */
export class SseChannel {
  readonly response: Response;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** The Node response under the `Response` body, when there is one: what `#cut` destroys. */
  readonly #connection: ServerResponse | undefined;
  readonly #outgoing: ServerResponse | undefined;
  #corked = false;
  #closed = false;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #resolveDone!: () => void;
  /** Resolves when the stream has ended (closed by us or by the client). */
  readonly done: Promise<void>;
  readonly #limits: ChannelLimits;
  /** The socket's buffer (or the body's queue) is full: writers wait (`ready()`) for the client to read. */
  #full = false;
  #waiting: Array<() => void> = [];
  #stallTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bytes of the largest event written while the buffer held more than `maxBuffered` (0 when none). */
  #largest = 0;
  /** Why the client was dropped for not reading, if it was. */
  stalled: string | undefined;

  /**
   * `outgoing`: the Node response to write to directly (none with an Origin header, where the
   * stream is a `Response` body for the CORS headers); `connection`: the Node response under such
   * a body, destroyed to drop the client (erroring the body instead makes the adapter print it).
   */
  constructor(headers: Record<string, string>, keepAliveMs: number, limits: ChannelLimits, outgoing?: ServerResponse, connection?: ServerResponse) {
    this.done = new Promise((resolve) => (this.#resolveDone = resolve));
    this.#limits = limits;
    this.#connection = connection;
    if (outgoing) {
      this.#outgoing = outgoing;
      this.#batch(outgoing);
      outgoing.writeHead(200, { ...SSE_HEADERS, ...headers });
      // The headers go at the end of this tick, with the events written in it: a client waits
      // for them before the first event.
      outgoing.flushHeaders();
      outgoing.once("close", () => this.#finish());
      this.response = RESPONSE_ALREADY_SENT;
    } else {
      // Counted in bytes, so a client that stops reading fills it as it would a socket's buffer;
      // `pull` is the adapter reading again (the socket drained).
      const body = new ReadableStream<Uint8Array>(
        {
          start: (controller) => {
            this.#controller = controller;
          },
          pull: () => this.#drained(),
          cancel: () => this.#finish(),
        },
        { highWaterMark: QUEUE_BYTES, size: (chunk) => chunk.byteLength },
      );
      this.response = new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
    }
    if (keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => this.#write(KEEP_ALIVE_FRAME), keepAliveMs);
      this.#keepAlive.unref?.();
    }
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The priming event (2025-11-25): an id to resume from, the reconnect delay, and empty data. */
  prime(id: string, retryMs: number): void {
    this.#write(`id: ${id}\nretry: ${retryMs}\ndata: \n\n`);
  }

  /** Sends one JSON-RPC message as a `message` event. */
  send(json: string, id?: string): void {
    this.#write(messageFrame(json, id));
  }

  /**
   * `undefined` when the socket takes more now; otherwise a promise that resolves once it has
   * drained (or the stream ended). A stream player awaits it before each step.
   */
  ready(): Promise<void> | undefined {
    if (!this.#full || this.#closed) return undefined;
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** An SSE comment: clients ignore it; raw captures and people read it. */
  comment(text: string): void {
    this.#write(`: ${text.replace(/\n/g, " ")}\n\n`);
  }

  /** Sends one event of another name (the legacy transport's `endpoint`). */
  event(name: string, data: string): void {
    this.#write(`event: ${name}\ndata: ${data}\n\n`);
  }

  /** Ends the connection abruptly, as a crashed server would (the `connection-reset` fault). */
  destroy(): void {
    if (this.#closed) return;
    this.#finish();
    this.#cut("connection-reset");
  }

  #write(frame: string): void {
    if (this.#closed) return;
    const outgoing = this.#outgoing;
    if (outgoing) {
      if (outgoing.destroyed) return this.#finish();
      this.#batch(outgoing);
      if (!outgoing.write(frame)) this.#filled(outgoing.writableLength, frame);
      return;
    }
    const controller = this.#controller;
    if (!controller) return;
    try {
      controller.enqueue(encoder.encode(frame));
    } catch {
      return this.#finish();
    }
    const room = controller.desiredSize ?? 0;
    if (room <= 0) this.#filled(QUEUE_BYTES - room, frame);
  }

  /**
   * `buffered` bytes wait unread (the socket's buffer, or the body's queue): writers wait for
   * the client to read, and a client that leaves them unread too long or too many is dropped.
   */
  #filled(buffered: number, frame: string): void {
    const limits = this.#limits;
    // One event larger than the limit is not dropped (a client that reads gets it whole): the
    // limit is on what the client leaves unread besides the largest event it is reading.
    if (buffered > limits.maxBuffered) {
      this.#largest = Math.max(this.#largest, Buffer.byteLength(frame));
      if (buffered > limits.maxBuffered + this.#largest) {
        return this.#drop(`the client left more than ${limits.maxBuffered} bytes unread (maxStreamBytes); the stream was dropped`);
      }
    }
    if (this.#full) return;
    this.#full = true;
    this.#outgoing?.once("drain", () => this.#drained());
    this.#stallTimer = setTimeout(
      () => this.#drop(`the client read nothing for ${limits.stallMs} ms (sseStallMs) with the socket's buffer full; the stream was dropped`),
      limits.stallMs,
    );
    this.#stallTimer.unref?.();
  }

  /** The client read what waited: writers go on. */
  #drained(): void {
    if (!this.#full) return;
    this.#full = false;
    this.#largest = 0;
    clearTimeout(this.#stallTimer);
    this.#wake();
  }

  #drop(why: string): void {
    this.stalled = why;
    this.#finish();
    this.#cut(why);
  }

  /** Closes the connection under the stream at once (the client sees it cut, not ended). */
  #cut(why: string): void {
    const socket = this.#outgoing ?? this.#connection;
    if (socket) {
      socket.destroy();
      return;
    }
    try {
      this.#controller?.error(new Error(why));
    } catch {
      // already errored or cancelled
    }
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }

  /** Holds what is written in this tick, so it leaves in one write at the end of it. */
  #batch(outgoing: ServerResponse): void {
    if (this.#corked) return;
    this.#corked = true;
    outgoing.cork();
    process.nextTick(() => {
      this.#corked = false;
      outgoing.uncork();
    });
  }

  /** Ends the stream. */
  close(): void {
    if (this.#closed) return;
    this.#finish();
    if (this.#outgoing) {
      this.#outgoing.end();
      return;
    }
    try {
      this.#controller?.close();
    } catch {
      // already errored or cancelled
    }
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#keepAlive) clearInterval(this.#keepAlive);
    clearTimeout(this.#stallTimer);
    this.#wake();
    this.#resolveDone();
  }
}
