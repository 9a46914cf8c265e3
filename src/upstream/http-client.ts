/**
 * The client side of Streamable HTTP to an upstream, in place of the SDK's transport: each POST
 * has a signal of its own (nothing is left listening on a long-lived one), a request's stream is
 * read until its answer and no further, a client's cancel or `close()` stops reading it at once,
 * and every fault is named as what it is: the stream cut (in the middle of an event or between
 * two), an HTTP status (with the start of its body, never all of it), a message too large.
 * @module
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LineReader, MAX_LINE_BYTES } from "./line-reader.js";

/** Characters of an error body kept in a message. */
const ERROR_BODY_CHARS = 1_000;
/** Milliseconds the DELETE that ends a session may take (on `close()`). */
const DELETE_TIMEOUT_MS = 1_000;

type Id = string | number;
type Message = { method?: string; id?: Id; params?: Record<string, unknown>; result?: unknown; error?: unknown };

/** A fault reaching the upstream, said in words (the HTTP status, when there is one, in `status`). */
export class UpstreamHttpError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Streamable HTTP to one upstream endpoint. */
export class HttpUpstreamTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  sessionId?: string;
  readonly #url: URL;
  readonly #headers: Readonly<Record<string, string>>;
  #protocolVersion: string | undefined;
  #closed = false;
  /** The POST of each request in flight, by its JSON-RPC id: a cancel or `close()` ends it. */
  readonly #inFlight = new Map<Id, AbortController>();
  /** The GET stream of the session, once open. */
  #stream: AbortController | undefined;

  constructor(url: URL, headers: Readonly<Record<string, string>>) {
    this.#url = url;
    this.#headers = headers;
  }

  async start(): Promise<void> {}

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error("the connection is closed");
    const m = message as Message;
    // A cancel ends the reading of the call's stream here, whatever the upstream does with it.
    if (m.method === "notifications/cancelled") this.#inFlight.get(m.params?.["requestId"] as Id)?.abort();
    const id = m.method !== undefined && m.id !== undefined ? m.id : undefined;
    const abort = new AbortController();
    if (id !== undefined) this.#inFlight.set(id, abort);
    try {
      const response = await fetch(this.#url, { method: "POST", headers: this.#headersWith({ "content-type": "application/json", accept: "application/json, text/event-stream" }), body: JSON.stringify(message), signal: abort.signal });
      const session = response.headers.get("mcp-session-id");
      if (session) this.sessionId = session;
      if (!response.ok) {
        const error = await httpError(response, `POST ${m.method ?? "(a response)"}`);
        if (response.status === 404 && this.sessionId !== undefined) queueMicrotask(() => void this.close()); // the session is gone there
        throw error;
      }
      if (id === undefined || response.status === 202) {
        await response.body?.cancel().catch(() => {});
        if (m.method === "notifications/initialized") this.#openStream();
        return;
      }
      const type = (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
      if (type === "text/event-stream") return await this.#readCall(response, id);
      if (type === "application/json") {
        const text = await readCapped(response, MAX_LINE_BYTES, "its JSON answer");
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (error) {
          throw new UpstreamHttpError(`the upstream answered with a body that is not JSON (${(error as Error).message}): ${preview(text)}`);
        }
        for (const item of Array.isArray(parsed) ? parsed : [parsed]) this.onmessage?.(item as JSONRPCMessage);
        return;
      }
      await response.body?.cancel().catch(() => {});
      throw new UpstreamHttpError(`the upstream answered with content-type ${JSON.stringify(type ?? "")}, neither application/json nor text/event-stream`);
    } catch (error) {
      // Cancelled, or closing: the call already has its answer.
      if (abort.signal.aborted) return;
      throw error instanceof UpstreamHttpError ? error : new UpstreamHttpError(networkReason(error));
    } finally {
      if (id !== undefined && this.#inFlight.get(id) === abort) this.#inFlight.delete(id);
    }
  }

  /** Ends the session upstream (a DELETE, bounded in time); the SDK client's close follows. */
  async terminateSession(): Promise<void> {
    if (this.sessionId === undefined || this.#closed) return;
    const response = await fetch(this.#url, { method: "DELETE", headers: this.#headersWith({}), signal: AbortSignal.timeout(DELETE_TIMEOUT_MS) });
    await response.body?.cancel().catch(() => {});
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const abort of this.#inFlight.values()) abort.abort();
    this.#inFlight.clear();
    this.#stream?.abort();
    this.onclose?.();
  }

  #headersWith(extra: Record<string, string>): Record<string, string> {
    return {
      ...this.#headers,
      ...extra,
      ...(this.sessionId === undefined ? {} : { "mcp-session-id": this.sessionId }),
      ...(this.#protocolVersion === undefined ? {} : { "mcp-protocol-version": this.#protocolVersion }),
    };
  }

  /** Reads a request's SSE stream until its answer; a stream that ends first is a fault named so. */
  async #readCall(response: Response, id: Id): Promise<void> {
    let answered = false;
    let events = 0;
    const parser = new EventParser((data) => {
      events++;
      const message = parseEvent(data);
      if (message === undefined) return;
      if (!("method" in message) && message.id === id) answered = true;
      this.onmessage?.(message as JSONRPCMessage);
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    try {
      while (!answered) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          const where = parser.midEvent ? "in the middle of an event" : `after ${events} event${events === 1 ? "" : "s"}`;
          throw new UpstreamHttpError(`the upstream cut its SSE stream ${where}, before answering (${networkReason(error)})`);
        }
        if (chunk.done) {
          if (parser.midEvent) throw new UpstreamHttpError("the upstream ended its SSE stream in the middle of an event, before answering");
          throw new UpstreamHttpError(`the upstream ended its SSE stream after ${events} event${events === 1 ? "" : "s"} without answering`);
        }
        parser.push(chunk.value);
        if (parser.oversized !== undefined) throw new UpstreamHttpError(`the upstream sent an SSE event larger than ${MAX_LINE_BYTES} bytes (16 MiB); the stream was dropped`);
      }
    } finally {
      // Answered (or failed): the rest of the stream is not read.
      reader.cancel().catch(() => {});
    }
  }

  /** The session's GET stream, for what the upstream sends of its own accord (none if it has none). */
  #openStream(): void {
    const abort = new AbortController();
    this.#stream = abort;
    void (async () => {
      const response = await fetch(this.#url, { method: "GET", headers: this.#headersWith({ accept: "text/event-stream" }), signal: abort.signal });
      if (!response.ok || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      const parser = new EventParser((data) => {
        const message = parseEvent(data);
        if (message !== undefined) this.onmessage?.(message as JSONRPCMessage);
      });
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.push(chunk);
        if (parser.oversized !== undefined) break;
      }
    })().catch(() => {}).finally(() => abort.abort());
  }
}

/** SSE events from bytes: each event's data, once complete. */
class EventParser {
  readonly #lines: LineReader;
  #data: string[] = [];
  #dataBytes = 0;
  #event = "";
  /** Bytes of an event (or line) over the cap, once one came. */
  oversized: number | undefined;

  constructor(event: (data: string) => void) {
    this.#lines = new LineReader({
      line: (line) => {
        if (line === "") {
          if (this.#data.length > 0 && (this.#event === "" || this.#event === "message")) event(this.#data.join("\n"));
          this.#data = [];
          this.#dataBytes = 0;
          this.#event = "";
          return;
        }
        if (line.startsWith(":")) return;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(line[colon + 1] === " " ? colon + 2 : colon + 1);
        if (field === "data") {
          this.#dataBytes += value.length;
          if (this.#dataBytes > MAX_LINE_BYTES) this.oversized = this.#dataBytes;
          else this.#data.push(value);
        } else if (field === "event") this.#event = value;
      },
      oversize: (bytes) => (this.oversized = bytes),
    });
  }

  /** Whether part of an event has arrived and not its end. */
  get midEvent(): boolean {
    return this.#data.length > 0 || this.#event !== "" || this.#lines.pending > 0;
  }

  push(chunk: Uint8Array): void {
    this.#lines.push(chunk);
  }
}

/** An event's data as a message (`undefined`, and nothing delivered, when it is not JSON). */
function parseEvent(data: string): Message | undefined {
  try {
    const parsed = JSON.parse(data) as unknown;
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Message) : undefined;
  } catch {
    return undefined;
  }
}

/** An HTTP status as an error: the status, its text and the start of the body (a few KiB at most). */
async function httpError(response: Response, what: string): Promise<UpstreamHttpError> {
  let body = "";
  let total = 0;
  try {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const parts: Buffer[] = [];
    let kept = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (kept < ERROR_BODY_CHARS * 4) {
        parts.push(Buffer.from(value));
        kept += value.byteLength;
      }
      // Past a megabyte the rest is not worth waiting for.
      if (total > 1024 * 1024) {
        await reader.cancel().catch(() => {});
        total = -1;
        break;
      }
    }
    body = Buffer.concat(parts).toString("utf8");
  } catch {
    // the body broke off: what came is enough
  }
  const text = body.replace(/\s+/g, " ").trim();
  const shown = text.length > ERROR_BODY_CHARS ? `${text.slice(0, ERROR_BODY_CHARS)}… (${total === -1 ? "over 1 MiB" : `${total} bytes`} in all)` : text;
  return new UpstreamHttpError(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""} to ${what}${shown ? `: ${shown}` : ""}`, response.status);
}

/** A body read whole, refused past `max` bytes. */
async function readCapped(response: Response, max: number, what: string): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) {
      await response.body?.cancel().catch(() => {});
      throw new UpstreamHttpError(`the upstream sent ${what} larger than ${max} bytes (16 MiB); it was dropped`);
    }
    parts.push(Buffer.from(chunk));
  }
  return Buffer.concat(parts, size).toString("utf8");
}

/** The start of a text, for a message. */
function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > ERROR_BODY_CHARS ? `${flat.slice(0, ERROR_BODY_CHARS)}… (${text.length} characters in all)` : flat;
}

/** What a failed fetch says, with its cause (ECONNREFUSED, a socket closed...). */
function networkReason(error: unknown): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  const text = String(e.message ?? error);
  const cause = e.cause?.code ?? e.cause?.message;
  return cause && !text.includes(cause) ? `${text} (${cause})` : text;
}
