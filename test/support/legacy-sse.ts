/**
 * A raw client of the 2024-11-05 HTTP+SSE transport: `GET /sse` read as the SDK's parser (the
 * `eventsource` package) reads it: an event with a `data:` line is dispatched, even when the
 * data is empty; and POSTs to the URI of its `endpoint` event.
 */
import { Waiters } from "./waiters.js";

/** One dispatched SSE event. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/** An open GET /sse connection. */
export class LegacyStream {
  readonly events: SseEvent[] = [];
  ended = false;
  /** The absolute URL of the endpoint event's URI. */
  endpoint = "";
  readonly #abort = new AbortController();
  readonly #waiters = new Waiters();

  private constructor(readonly sseUrl: string) {}

  /** Opens the stream and waits for its endpoint event. */
  static async open(sseUrl: string, headers: Record<string, string> = {}): Promise<LegacyStream> {
    const stream = new LegacyStream(sseUrl);
    const response = await fetch(sseUrl, { headers: { accept: "text/event-stream", ...headers }, signal: stream.#abort.signal });
    if (!response.ok || !response.body) throw new Error(`GET ${sseUrl}: HTTP ${response.status} ${await response.text()}`);
    void stream.#read(response.body);
    const endpoint = await stream.until((e) => e.event === "endpoint", 2000);
    stream.endpoint = new URL(endpoint.data, sseUrl).href;
    return stream;
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let pending = "";
    let event = "";
    let data: string[] = [];
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value: chunk } = await reader.read();
        if (done) break;
        pending += decoder.decode(chunk, { stream: true });
        let newline: number;
        while ((newline = pending.indexOf("\n")) >= 0) {
          const line = pending.slice(0, newline).replace(/\r$/, "");
          pending = pending.slice(newline + 1);
          if (line === "") {
            // As the eventsource package does: empty data is dispatched too (the spec's parser would not).
            if (data.length > 0) this.events.push({ event: event || "message", data: data.join("\n") });
            event = "";
            data = [];
            this.#waiters.wake();
          } else if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
      }
    } catch {
      // a reset, or our own abort
    }
    this.ended = true;
    this.#waiters.wake();
  }

  /** The first event (from the start) that `match` accepts; rejects after `timeoutMs`. */
  until(match: (e: SseEvent) => boolean, timeoutMs = 2000): Promise<SseEvent> {
    return this.#waiters.until(
      () => this.events.find(match),
      timeoutMs,
      () => `no such event; got: ${JSON.stringify(this.events)} (ended: ${this.ended})`,
    );
  }

  /** Waits until the connection ends or `done()` says enough arrived. */
  settle(done: () => boolean, timeoutMs = 2000): Promise<true> {
    return this.#waiters.until(() => (this.ended || done() ? true : undefined), timeoutMs, () => `still waiting; got: ${JSON.stringify(this.events)}`);
  }

  /** The `message` events parsed as JSON (or the text, when it is not JSON). */
  messages(): unknown[] {
    return this.events
      .filter((e) => e.event === "message")
      .map((e) => {
        try {
          return JSON.parse(e.data) as unknown;
        } catch {
          return e.data;
        }
      });
  }

  /** POSTs one message (or any body) to the endpoint. */
  post(message: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const body = typeof message === "string" ? message : JSON.stringify(message);
    return fetch(this.endpoint, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  }

  /** initialize and notifications/initialized, as a client does. */
  async initialize(protocolVersion = "2024-11-05", capabilities: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<void> {
    await this.post({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion, capabilities, clientInfo: { name: "raw", version: "1" } } }, headers);
    await this.until((e) => e.data.includes('"id":"init"'));
    await this.post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  }

  close(): void {
    this.#abort.abort();
  }
}
