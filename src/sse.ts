/**
 * SSE frames, written by hand so every byte is ours: `event: message`, an `id`, `data`,
 * a blank line. Hono's `streamSSE` owns the stream's lifetime (aborts, closing).
 * @module
 */
import type { SSEStreamingApi } from "hono/streaming";

/** One `message` event carrying a JSON-RPC message: `event: message\nid: <id>\ndata: <json>\n\n`. */
export function messageFrame(data: string, id?: string): string {
  return id === undefined ? `event: message\ndata: ${data}\n\n` : `event: message\nid: ${id}\ndata: ${data}\n\n`;
}

/** A comment line, ignored by clients: used as keep-alive. */
export const KEEP_ALIVE_FRAME = ": keepalive\n\n";

/** An open SSE stream on the wire. */
export class SseChannel {
  readonly #stream: SSEStreamingApi;
  #closed = false;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #resolveDone!: () => void;
  /** Resolves when the stream has ended (closed by us or by the client). */
  readonly done: Promise<void>;

  constructor(stream: SSEStreamingApi, keepAliveMs: number) {
    this.#stream = stream;
    this.done = new Promise((resolve) => (this.#resolveDone = resolve));
    stream.onAbort(() => this.#finish());
    if (keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => void this.#write(KEEP_ALIVE_FRAME), keepAliveMs);
      this.#keepAlive.unref?.();
    }
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Sends one JSON-RPC message as a `message` event. */
  send(json: string, id?: string): Promise<void> {
    return this.#write(messageFrame(json, id));
  }

  async #write(frame: string): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#stream.write(frame);
    } catch {
      this.#finish();
    }
  }

  /** Ends the stream. */
  close(): void {
    if (this.#closed) return;
    this.#finish();
    void this.#stream.close().catch(() => undefined);
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#keepAlive) clearInterval(this.#keepAlive);
    this.#resolveDone();
  }
}
