/**
 * The client side of Streamable HTTP to an upstream, in place of the SDK's transport, on
 * `node:http` with a keep-alive agent of its own (`close()` destroys it): a request in flight is
 * a `ClientRequest` a cancel or `close()` destroys (no signal, nothing listening on a long-lived
 * object), a request's stream is read until its answer and no further, and every fault is
 * named as what it is: the stream cut (in the middle of an event or between two), an HTTP
 * status (with the start of its body, never all of it), a message too large.
 * @module
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { urlToHttpOptions } from "node:url";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { MAX_LINE_BYTES } from "./line-reader.js";
import { EventParser, parseEvent, type Message } from "./sse-events.js";

/** Characters of an error body kept in a message. */
const ERROR_BODY_CHARS = 1_000;
/** Bytes of an error body read at most (the rest is not worth waiting for). */
const ERROR_BODY_READ = 1024 * 1024;
/** Milliseconds the DELETE that ends a session may take (on `close()`). */
const DELETE_TIMEOUT_MS = 1_000;

type Id = string | number;

/** A fault reaching the upstream, said in words (the HTTP status, when there is one, in `status`). */
export class UpstreamHttpError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** One request to the upstream: stopped by destroying it (and its response, once it came). */
class Exchange {
  stopped = false;
  response: IncomingMessage | undefined;
  constructor(readonly request: ClientRequest) {}

  stop(): void {
    this.stopped = true;
    this.response?.destroy();
    this.request.destroy();
  }
}

/** Streamable HTTP to one upstream endpoint. */
export class HttpUpstreamTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  sessionId?: string;
  readonly #target: RequestOptions;
  readonly #request: typeof httpRequest;
  readonly #agent: HttpAgent;
  readonly #headers: Readonly<Record<string, string>>;
  #protocolVersion: string | undefined;
  /** A POST's options (its headers with them), kept while the session and version they were made with hold. */
  #post: { readonly options: RequestOptions; readonly session: string | undefined; readonly version: string | undefined } | undefined;
  #closed = false;
  /** The POST of each request in flight, by its JSON-RPC id: a cancel or `close()` ends it. */
  readonly #inFlight = new Map<Id, Exchange>();
  /** The GET stream of the session, once open. */
  #stream: Exchange | undefined;

  constructor(url: URL, headers: Readonly<Record<string, string>>) {
    const tls = url.protocol === "https:";
    this.#agent = tls ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.#request = tls ? httpsRequest : httpRequest;
    this.#target = { ...urlToHttpOptions(url), agent: this.#agent };
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
    if (m.method === "notifications/cancelled") this.#inFlight.get(m.params?.["requestId"] as Id)?.stop();
    const id = m.method !== undefined && m.id !== undefined ? m.id : undefined;
    const body = JSON.stringify(message);
    // The body goes whole in `end()`, so node:http writes its Content-Length.
    const [exchange, responded] = this.#exchange(this.#postNow(), body);
    if (id !== undefined) this.#inFlight.set(id, exchange);
    try {
      const response = await responded;
      const session = response.headers["mcp-session-id"];
      if (typeof session === "string" && session !== "") this.sessionId = session;
      const status = response.statusCode ?? 0;
      if (status < 200 || status > 299) {
        const error = await httpError(response, `POST ${m.method ?? "(a response)"}`);
        if (status === 404 && this.sessionId !== undefined) queueMicrotask(() => void this.close()); // the session is gone there
        throw error;
      }
      if (id === undefined || status === 202) {
        response.resume();
        if (m.method === "notifications/initialized") this.#openStream();
        return;
      }
      const type = (response.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
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
      response.destroy();
      throw new UpstreamHttpError(`the upstream answered with content-type ${JSON.stringify(type ?? "")}, neither application/json nor text/event-stream`);
    } catch (error) {
      // Cancelled, or closing: the call already has its answer.
      if (exchange.stopped) return;
      throw error instanceof UpstreamHttpError ? error : new UpstreamHttpError(networkReason(error));
    } finally {
      if (id !== undefined && this.#inFlight.get(id) === exchange) this.#inFlight.delete(id);
    }
  }

  /** Ends the session upstream (a DELETE, bounded in time); the SDK client's close follows. */
  async terminateSession(): Promise<void> {
    if (this.sessionId === undefined || this.#closed) return;
    const [exchange, responded] = this.#exchange({ ...this.#target, method: "DELETE", headers: this.#headersWith({}) });
    const timer = setTimeout(() => exchange.request.destroy(new Error(`no answer within ${DELETE_TIMEOUT_MS} ms`)), DELETE_TIMEOUT_MS);
    try {
      (await responded).resume();
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const exchange of this.#inFlight.values()) exchange.stop();
    this.#inFlight.clear();
    this.#stream?.stop();
    this.#agent.destroy();
    this.onclose?.();
  }

  /** Sends a request; its response (headers read, body not yet) or its fault. */
  #exchange(options: RequestOptions, body?: string): [Exchange, Promise<IncomingMessage>] {
    const request = this.#request(options);
    const exchange = new Exchange(request);
    const responded = new Promise<IncomingMessage>((resolve, reject) => {
      request.on("response", (response) => {
        exchange.response = response;
        // A fault on the body is read where the body is; one nobody reads ends it quietly.
        response.on("error", () => {});
        resolve(response);
      });
      request.on("error", reject);
    });
    request.end(body);
    return [exchange, responded];
  }

  /** A POST's options, made again only when the session or the protocol version changed. */
  #postNow(): RequestOptions {
    const kept = this.#post;
    if (kept !== undefined && kept.session === this.sessionId && kept.version === this.#protocolVersion) return kept.options;
    const headers = this.#headersWith({ "content-type": "application/json", accept: "application/json, text/event-stream" });
    const options = { ...this.#target, method: "POST", headers };
    this.#post = { options, session: this.sessionId, version: this.#protocolVersion };
    return options;
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
  #readCall(response: IncomingMessage, id: Id): Promise<void> {
    let answered = false;
    let events = 0;
    const parser = new EventParser((data) => {
      events++;
      const message = parseEvent(data);
      if (message === undefined) return;
      if (!("method" in message) && message.id === id) answered = true;
      this.onmessage?.(message as JSONRPCMessage);
    });
    const after = (): string => `after ${events} event${events === 1 ? "" : "s"}`;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (error?: UpstreamHttpError): void => {
        if (settled) return;
        settled = true;
        // Answered (or failed): the rest of the stream is not read. An answer's stream that ends
        // in the same breath keeps its connection for the next call.
        if (error) response.destroy();
        else if (!response.complete) setImmediate(() => response.complete || response.destroy());
        if (error) reject(error);
        else resolve();
      };
      response.on("data", (chunk: Buffer) => {
        if (settled) return;
        parser.push(chunk);
        if (parser.oversized !== undefined) settle(new UpstreamHttpError(`the upstream sent an SSE event larger than ${MAX_LINE_BYTES} bytes (16 MiB); the stream was dropped`));
        else if (answered) settle();
      });
      response.on("end", () => {
        if (parser.midEvent) settle(new UpstreamHttpError("the upstream ended its SSE stream in the middle of an event, before answering"));
        else settle(new UpstreamHttpError(`the upstream ended its SSE stream ${after()} without answering`));
      });
      response.on("close", () => {
        const where = parser.midEvent ? "in the middle of an event" : after();
        settle(new UpstreamHttpError(`the upstream cut its SSE stream ${where}, before answering (the connection closed)`));
      });
    });
  }

  /** The session's GET stream, for what the upstream sends of its own accord (none if it has none). */
  #openStream(): void {
    const [exchange, responded] = this.#exchange({ ...this.#target, method: "GET", headers: this.#headersWith({ accept: "text/event-stream" }) });
    this.#stream = exchange;
    responded.then(
      (response) => {
        const status = response.statusCode ?? 0;
        if (status < 200 || status > 299 || !(response.headers["content-type"] ?? "").startsWith("text/event-stream")) {
          response.resume();
          return;
        }
        const parser = new EventParser((data) => {
          const message = parseEvent(data);
          if (message !== undefined && !exchange.stopped) this.onmessage?.(message as JSONRPCMessage);
        });
        response.on("data", (chunk: Buffer) => {
          parser.push(chunk);
          if (parser.oversized !== undefined) exchange.stop();
        });
      },
      () => {},
    );
  }
}

/** A body read whole: its bytes, or `undefined` past `max` bytes (the rest is not read); a body cut short rejects. */
function readBody(response: IncomingMessage, max: number): Promise<{ readonly bytes: Buffer; readonly total: number; readonly whole: boolean }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let total = 0;
    let kept = 0;
    let done = false;
    const finish = (whole: boolean): void => {
      if (done) return;
      done = true;
      if (!whole) response.destroy();
      resolve({ bytes: parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, kept), total, whole });
    };
    response.on("data", (chunk: Buffer) => {
      if (done) return;
      total += chunk.length;
      if (total > max) return finish(false);
      parts.push(chunk);
      kept += chunk.length;
    });
    response.on("end", () => finish(true));
    response.on("close", () => {
      if (done) return;
      done = true;
      reject(new Error(`the connection closed after ${total} bytes of the body`));
    });
  });
}

/** An HTTP status as an error: the status, its text and the start of the body (a few KiB at most). */
async function httpError(response: IncomingMessage, what: string): Promise<UpstreamHttpError> {
  let body = "";
  let total = 0;
  try {
    const read = await readBody(response, ERROR_BODY_READ);
    body = read.bytes.subarray(0, ERROR_BODY_CHARS * 4).toString("utf8");
    total = read.whole ? read.total : -1;
  } catch {
    // the body broke off: what came is enough
  }
  const text = body.replace(/\s+/g, " ").trim();
  const shown = text.length > ERROR_BODY_CHARS ? `${text.slice(0, ERROR_BODY_CHARS)}… (${total === -1 ? "over 1 MiB" : `${total} bytes`} in all)` : text;
  const status = response.statusCode ?? 0;
  return new UpstreamHttpError(`HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ""} to ${what}${shown ? `: ${shown}` : ""}`, status);
}

/** A body read whole as text, refused past `max` bytes. */
async function readCapped(response: IncomingMessage, max: number, what: string): Promise<string> {
  const read = await readBody(response, max);
  if (!read.whole) throw new UpstreamHttpError(`the upstream sent ${what} larger than ${max} bytes (16 MiB); it was dropped`);
  return read.bytes.toString("utf8");
}

/** The start of a text, for a message. */
function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > ERROR_BODY_CHARS ? `${flat.slice(0, ERROR_BODY_CHARS)}… (${text.length} characters in all)` : flat;
}

/** What a failed request says, with its cause (ECONNREFUSED, a socket closed...). */
function networkReason(error: unknown): string {
  const e = error as { message?: string; code?: string; cause?: { code?: string; message?: string } };
  const text = String(e.message ?? error);
  const cause = e.code ?? e.cause?.code ?? e.cause?.message;
  return cause && !text.includes(cause) ? `${text} (${cause})` : text;
}
