/**
 * The client side of Streamable HTTP to an upstream, in place of the SDK's transport, on
 * kept-alive connections of its own ({@link Connections}): a request in flight is an exchange a
 * cancel or `close()` aborts (no signal, nothing listening on a long-lived object), a request's
 * stream is read until its answer and no further, and every fault is named as what it is: the
 * stream cut (in the middle of an event or between two), an HTTP status (with the start of its
 * body, never all of it), a message too large.
 * @module
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { MAX_LINE_BYTES } from "./line-reader.js";
import { EventParser, parseEvent, type Message } from "./sse-events.js";
import { Connections } from "./connections.js";
import { Exchange, readBody, type Head } from "./exchange.js";
import { InFlight } from "../values/in-flight.js";
import { headerSecrets, orderedSecrets, redactText, urlSecrets } from "./secrets.js";

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

/** Streamable HTTP to one upstream endpoint. */
export class HttpUpstreamTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  sessionId?: string;
  /** Its connections, kept alive (the session times each call, and the GET stream may idle). */
  readonly #connections: Connections;
  /** The endpoint's path and query. */
  readonly #path: string;
  readonly #headers: Readonly<Record<string, string>>;
  /** The credentials in its headers and URL: an error body that quotes one is redacted before it is cut to its start. */
  readonly #secrets: readonly string[];
  #protocolVersion: string | undefined;
  /** A POST's headers, kept while the session and version they were made with hold. */
  #post: { readonly headers: Record<string, string>; readonly session: string | undefined; readonly version: string | undefined } | undefined;
  #closed = false;
  /** The POST of each request in flight, by its JSON-RPC id: a cancel or `close()` ends it. */
  readonly #inFlight = new InFlight<Exchange>();
  /** The GET stream of the session, once open. */
  #stream: Exchange | undefined;

  constructor(url: URL, headers: Readonly<Record<string, string>>) {
    this.#connections = new Connections(url);
    this.#path = `${url.pathname}${url.search}`;
    this.#headers = headers;
    this.#secrets = orderedSecrets([...headerSecrets(headers), ...urlSecrets(url)]);
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
    const exchange = this.#exchange("POST", this.#postHeadersNow(), JSON.stringify(message));
    if (id !== undefined) this.#inFlight.set(id, exchange);
    try {
      const head = await exchange.responded;
      const session = head.headers["mcp-session-id"];
      if (session !== undefined && session !== "") this.sessionId = session;
      const status = head.status;
      if (status < 200 || status > 299) {
        const error = await httpError(exchange, head, `POST ${m.method ?? "(a response)"}`, this.#secrets);
        if (status === 404 && this.sessionId !== undefined) queueMicrotask(() => void this.close()); // the session is gone there
        throw error;
      }
      if (id === undefined || status === 202) {
        exchange.discard();
        if (m.method === "notifications/initialized") this.#openStream();
        return;
      }
      const type = (head.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
      if (type === "text/event-stream") return await this.#readCall(exchange, id);
      if (type === "application/json") {
        const text = exchange.takeWhole(MAX_LINE_BYTES)?.toString("utf8") ?? (await readCapped(exchange, MAX_LINE_BYTES, "its JSON answer"));
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (error) {
          throw new UpstreamHttpError(`the upstream answered with a body that is not JSON (${(error as Error).message}): ${preview(redactText(text, this.#secrets))}`);
        }
        for (const item of Array.isArray(parsed) ? parsed : [parsed]) this.onmessage?.(item as JSONRPCMessage);
        return;
      }
      exchange.drop();
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
    const exchange = this.#exchange("DELETE", this.#headersWith({}));
    const timer = setTimeout(() => exchange.drop(), DELETE_TIMEOUT_MS);
    try {
      await exchange.responded;
      exchange.discard();
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
    await this.#connections.destroy();
    this.onclose?.();
  }

  /** Sends a request; the exchange its head and body come to. */
  #exchange(method: "POST" | "GET" | "DELETE", headers: Record<string, string>, body?: string): Exchange {
    const exchange = new Exchange();
    this.#connections.dispatch(body === undefined ? { path: this.#path, method, headers } : { path: this.#path, method, headers, body }, exchange);
    return exchange;
  }

  /** A POST's headers, made again only when the session or the protocol version changed. */
  #postHeadersNow(): Record<string, string> {
    const kept = this.#post;
    if (kept !== undefined && kept.session === this.sessionId && kept.version === this.#protocolVersion) return kept.headers;
    const headers = this.#headersWith({ "content-type": "application/json", accept: "application/json, text/event-stream" });
    this.#post = { headers, session: this.sessionId, version: this.#protocolVersion };
    return headers;
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
  #readCall(exchange: Exchange, id: Id): Promise<void> {
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
        if (error) exchange.drop();
        else if (!exchange.complete) setImmediate(() => exchange.complete || exchange.drop());
        if (error) reject(error);
        else resolve();
      };
      exchange.read({
        data: (chunk) => {
          if (settled) return;
          parser.push(chunk);
          if (parser.oversized !== undefined) settle(new UpstreamHttpError(`the upstream sent an SSE event larger than ${MAX_LINE_BYTES} bytes (16 MiB); the stream was dropped`));
          else if (answered) settle();
        },
        end: () => {
          if (parser.midEvent) settle(new UpstreamHttpError("the upstream ended its SSE stream in the middle of an event, before answering"));
          else settle(new UpstreamHttpError(`the upstream ended its SSE stream ${after()} without answering`));
        },
        cut: () => {
          const where = parser.midEvent ? "in the middle of an event" : after();
          settle(new UpstreamHttpError(`the upstream cut its SSE stream ${where}, before answering (the connection closed)`));
        },
      });
    });
  }

  /** The session's GET stream, for what the upstream sends of its own accord (none if it has none). */
  #openStream(): void {
    const exchange = this.#exchange("GET", this.#headersWith({ accept: "text/event-stream" }));
    this.#stream = exchange;
    exchange.responded.then(
      (head) => {
        if (head.status < 200 || head.status > 299 || !(head.headers["content-type"] ?? "").startsWith("text/event-stream")) {
          exchange.discard();
          return;
        }
        const parser = new EventParser((data) => {
          const message = parseEvent(data);
          if (message !== undefined && !exchange.stopped) this.onmessage?.(message as JSONRPCMessage);
        });
        exchange.read({
          data: (chunk) => {
            parser.push(chunk);
            if (parser.oversized !== undefined) exchange.stop();
          },
          end: () => {},
          cut: () => {},
        });
      },
      () => {},
    );
  }
}

/** An HTTP status as an error: the status, its text and the start of the body (a few KiB at most), `secrets` redacted before it is cut. */
async function httpError(exchange: Exchange, head: Head, what: string, secrets: readonly string[]): Promise<UpstreamHttpError> {
  let body = "";
  let total = 0;
  try {
    const read = await readBody(exchange, ERROR_BODY_READ);
    body = redactText(read.bytes.toString("utf8"), secrets).slice(0, ERROR_BODY_CHARS * 4);
    total = read.whole ? read.total : -1;
  } catch {
    // the body broke off: what came is enough
  }
  const text = body.replace(/\s+/g, " ").trim();
  const shown = text.length > ERROR_BODY_CHARS ? `${text.slice(0, ERROR_BODY_CHARS)}… (${total === -1 ? "over 1 MiB" : `${total} bytes`} in all)` : text;
  return new UpstreamHttpError(`HTTP ${head.status}${head.statusText ? ` ${head.statusText}` : ""} to ${what}${shown ? `: ${shown}` : ""}`, head.status);
}

/** A body read whole as text, refused past `max` bytes. */
async function readCapped(exchange: Exchange, max: number, what: string): Promise<string> {
  const read = await readBody(exchange, max);
  if (!read.whole) throw new UpstreamHttpError(`the upstream sent ${what} larger than ${max} bytes (16 MiB); it was dropped`);
  return read.bytes.toString("utf8");
}

/** The start of a text, for a message. */
function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > ERROR_BODY_CHARS ? `${flat.slice(0, ERROR_BODY_CHARS)}… (${text.length} characters in all)` : flat;
}

/** OpenSSL's codes for a certificate Node does not trust. */
const UNTRUSTED_CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_(GET_ISSUER|VERIFY)/;

/** What a failed request says, with its cause (ECONNREFUSED, a socket closed...) and, for a certificate not trusted, how to trust it. */
function networkReason(error: unknown): string {
  const e = error as { message?: string; code?: string; cause?: { code?: string; message?: string } };
  const text = String(e.message ?? error);
  const cause = e.code ?? e.cause?.code ?? e.cause?.message;
  const said = cause && !text.includes(cause) ? `${text} (${cause})` : text;
  return e.code !== undefined && UNTRUSTED_CERTIFICATE.test(e.code) ? `${said}: the upstream's certificate is not trusted; to trust its CA, start mcpmock with NODE_EXTRA_CA_CERTS=<the CA's PEM file>` : said;
}
