/**
 * Kept-alive HTTP/1.1 connections to one upstream origin (`http:` or `https:`, its certificate
 * checked), one request at a time on each, the response read by http-parser-js: the HTTP client
 * under proxy mode, record and check. What a relay needs and no more: no pipelining, redirects or
 * retries (a POST may have been acted on), no timeouts of its own (the upstream session times
 * each call; a GET stream may idle); a response head not ended within 80 KiB is refused (the
 * parser's limit). An idle connection is not used past the upstream's `keep-alive: timeout=`
 * less a second (4 s when it names none; it is closed and another taken), so a call does not
 * land on a socket the upstream is closing. A connection is made idle only by the end of the
 * response its request asked for: one closed meanwhile (its request ended by its reader) is not,
 * and a response nobody asked for (bytes between requests, or a second response after the
 * answer) closes it, so a request never shares a connection with another.
 * It replaced undici's `Pool` (through its handler API) on the proxy's path: in front of a fast
 * upstream the proxying mock runs 0.89x the instructions (`bench:count`) and 0.90x the CPU with
 * the upstream on a core of its own (`bench:ab`, 2026-12-07), and the runtime install is 1.7 MB
 * smaller.
 * @module
 */
import { connect as connectTcp, isIP, type OnReadOpts, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import { HTTPParser } from "http-parser-js";
import { CONNECTION_HEADERS, HEADER_BREAKS, HEADER_NAME } from "./http-headers.js";

/** What a request's response goes to, in order: its abort, its head, its body's chunks, then its end or the fault that cut it. */
export interface ResponseHandler {
  /** Given first: ends the request at any point (the connection is closed, and `onError` told). */
  onConnect(abort: (error?: Error) => void): void;
  /** The final head: the status, the header lines as name, value, name, value... (names as sent). */
  onHeaders(status: number, headers: readonly string[], statusText: string): void;
  onData(chunk: Buffer): void;
  onComplete(): void;
  onError(error: Error): void;
}

/** One request: its method, path (with the query), headers and body. */
export interface UpstreamRequest {
  readonly method: "GET" | "POST" | "DELETE";
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** Milliseconds an idle connection is kept when the upstream names no keep-alive timeout (undici's default). */
const IDLE_MS = 4_000;
/** Milliseconds taken off the upstream's own keep-alive timeout, so the connection is closed here first. */
const IDLE_MARGIN_MS = 1_000;
/** Where every connection's socket reads go (each read is copied out before the next). */
const READS = Buffer.allocUnsafe(64 * 1024);

/** The connections to one origin. */
export class Connections {
  readonly #origin: URL;
  /** The `host` header, the same for every request. */
  readonly #host: string;
  readonly #idle: Connection[] = [];
  readonly #all = new Set<Connection>();
  #block: HeaderBlock | undefined;
  #closed = false;

  constructor(origin: URL) {
    this.#origin = origin;
    this.#host = origin.host;
  }

  /** Sends a request on an idle connection or a new one; what comes back goes to `handler`. */
  dispatch(request: UpstreamRequest, handler: ResponseHandler): void {
    const block = this.#blockOf(request.headers);
    const fault = this.#closed ? "the upstream's connections are closed" : block.fault;
    if (fault !== undefined) {
      handler.onConnect(() => {});
      queueMicrotask(() => handler.onError(new Error(fault)));
      return;
    }
    const body = request.body;
    const head = `${request.method} ${request.path} HTTP/1.1\r\n${block.text}${body === undefined ? "" : `content-length: ${Buffer.byteLength(body)}\r\n`}\r\n`;
    this.#take().send(body === undefined ? head : head + body, handler);
  }

  /** The header lines of `headers`, made once for the same object (a POST's, call after call). */
  #blockOf(headers: Readonly<Record<string, string>>): HeaderBlock {
    const kept = this.#block;
    if (kept !== undefined && kept.headers === headers) return kept;
    const made = headerBlock(headers, this.#host);
    this.#block = made;
    return made;
  }

  /** The connection last made idle, if the upstream is not about to close it; a new one otherwise. */
  #take(): Connection {
    for (let connection = this.#idle.pop(); connection !== undefined; connection = this.#idle.pop()) {
      if (connection.usable(Date.now())) return connection;
      void connection.close();
    }
    return this.#open();
  }

  /** Closes every connection; a request still in flight gets an error. */
  async destroy(): Promise<void> {
    this.#closed = true;
    this.#idle.length = 0;
    const closing = [...this.#all].map((connection) => connection.close(new Error("the upstream's connections were closed")));
    this.#all.clear();
    await Promise.all(closing);
  }

  #open(): Connection {
    const port = Number(this.#origin.port || (this.#origin.protocol === "https:" ? 443 : 80));
    const host = this.#origin.hostname.replace(/^\[|\]$/g, "");
    const connection = new Connection(
      (onread) => (this.#origin.protocol === "https:" ? connectTls({ host, port, ALPNProtocols: ["http/1.1"], ...(isIP(host) === 0 ? { servername: host } : {}) }) : connectTcp({ host, port, onread })),
      (c) => this.#release(c),
      (c) => this.#forget(c),
    );
    this.#all.add(connection);
    return connection;
  }

  #release(connection: Connection): void {
    if (this.#closed) connection.close();
    else this.#idle.push(connection);
  }

  #forget(connection: Connection): void {
    this.#all.delete(connection);
    const at = this.#idle.indexOf(connection);
    if (at !== -1) this.#idle.splice(at, 1);
  }
}

/** A request's header lines (`host` and `connection` first, unless `host` is given), or what is wrong with them. */
interface HeaderBlock {
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  readonly fault?: string;
}

function headerBlock(headers: Readonly<Record<string, string>>, host: string): HeaderBlock {
  let text = "";
  let hostGiven = false;
  for (const name in headers) {
    const value = headers[name] as string;
    const lower = name.toLowerCase();
    let fault: string | undefined;
    if (!HEADER_NAME.test(name)) fault = `the header name ${JSON.stringify(name)} is not an HTTP token`;
    else if (HEADER_BREAKS.test(value)) fault = `the value of the header ${name} holds a line break or NUL`;
    else if (CONNECTION_HEADERS.has(lower)) fault = `the header ${name} belongs to the connection, which mcpmock opens and frames itself; leave it out of the upstream's headers`;
    if (fault !== undefined) return { headers, text: "", fault: `${fault}; the request was not sent` };
    if (lower === "host") hostGiven = true;
    text += `${name}: ${value}\r\n`;
  }
  return { headers, text: `${hostGiven ? "" : `host: ${host}\r\n`}connection: keep-alive\r\n${text}` };
}

/** One connection: a socket, its response parser, the request it serves (if any). */
class Connection {
  readonly #socket: Socket;
  readonly #parser = new HTTPParser(HTTPParser.RESPONSE);
  readonly #release: (connection: Connection) => void;
  readonly #forget: (connection: Connection) => void;
  #handler: ResponseHandler | undefined;
  /** Whether the response in hand may leave the connection open. */
  #keepAlive = false;
  /** Whether the head in hand is a 1xx one (a final head follows). */
  #interim = false;
  #idleMs = IDLE_MS;
  /** Until when, idle, it may be used (`Date.now()`): a time to compare, not a timer a call. */
  #idleUntil = 0;
  #closed = false;
  readonly #gone: Promise<void>;

  /** `connect` opens the socket: a TCP one reads through `onread`, a TLS one as a stream. */
  constructor(connect: (onread: OnReadOpts) => Socket, release: (connection: Connection) => void, forget: (connection: Connection) => void) {
    // TCP reads go into one buffer all connections share and are copied out (a read's parse is
    // over before the next read comes): no stream machinery and no buffer of its own per read.
    const socket = connect({ buffer: READS, callback: (bytes) => (this.#read(Buffer.from(READS.subarray(0, bytes))), true) });
    socket.on("data", (chunk: Buffer) => this.#read(chunk));
    this.#socket = socket;
    this.#release = release;
    this.#forget = forget;
    socket.setNoDelay(true);
    this.#gone = new Promise((resolve) => socket.once("close", () => resolve()));
    socket.on("error", (error) => this.close(error));
    socket.on("end", () => this.#ended());
    socket.on("close", () => this.close());
    const parser = this.#parser;
    parser[HTTPParser.kOnHeadersComplete] = (info) => this.#head(info);
    parser[HTTPParser.kOnBody] = (chunk, offset, length) => this.#handler?.onData(offset === 0 && length === chunk.length ? chunk : chunk.subarray(offset, offset + length));
    parser[HTTPParser.kOnMessageComplete] = () => this.#complete();
  }

  /** Sends `request` (head and body), its response to `handler`. */
  send(request: string, handler: ResponseHandler): void {
    this.#handler = handler;
    this.#socket.ref();
    handler.onConnect((error) => {
      if (this.#handler === handler) this.close(error ?? new Error("dropped"));
    });
    this.#socket.write(request);
  }

  /** Whether, idle, it may take a request at `now` (open, and the upstream is not about to close it). */
  usable(now: number): boolean {
    return !this.#closed && now < this.#idleUntil;
  }

  /** Closes the socket; the request it serves (if any, and if `tell`) gets `error`. */
  close(error: Error = new Error("the upstream closed the connection (other side closed)"), tell = true): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#forget(this);
      const handler = this.#handler;
      this.#handler = undefined;
      this.#socket.destroy();
      if (handler !== undefined && tell) handler.onError(error);
    }
    return this.#gone;
  }

  #read(chunk: Buffer): void {
    if (this.#handler === undefined) return void this.close(); // nothing was asked
    let result: number | Error;
    try {
      result = this.#parser.execute(chunk);
    } catch (error) {
      result = error as Error;
    }
    if (!(result instanceof Error)) return;
    const code = (result as Error & { code?: string }).code;
    this.close(new Error(`the upstream's HTTP response could not be read: ${result.message}${code ? ` (${code})` : ""}`));
  }

  #head(info: { statusCode: number; statusMessage: string; headers: string[]; shouldKeepAlive: boolean }): number {
    // A response nobody asked for (a second one after the answer, in the same read): the
    // connection is out of step with its requests, so it goes.
    if (this.#handler === undefined) {
      void this.close();
      return 0;
    }
    this.#interim = info.statusCode < 200;
    if (this.#interim) return 0;
    this.#keepAlive = info.shouldKeepAlive;
    const headers = info.headers;
    for (let i = 0; i + 1 < headers.length; i += 2) {
      if ((headers[i] as string).length !== 10 || (headers[i] as string).toLowerCase() !== "keep-alive") continue;
      const seconds = /timeout=(\d+)/i.exec(headers[i + 1] as string)?.[1];
      if (seconds !== undefined) this.#idleMs = Math.max(0, Number(seconds) * 1000 - IDLE_MARGIN_MS);
    }
    this.#handler.onHeaders(info.statusCode, headers, info.statusMessage);
    return 0;
  }

  #complete(): void {
    if (this.#interim) return;
    const handler = this.#handler;
    // Closed while the parser was still at this read (its request ended by its reader, or the
    // response unasked): never made idle again.
    if (this.#closed || handler === undefined) return;
    this.#handler = undefined;
    if (!this.#keepAlive || this.#idleMs === 0) this.close(undefined, false);
    else {
      this.#socket.unref();
      this.#idleUntil = Date.now() + this.#idleMs;
      this.#release(this);
    }
    handler.onComplete();
  }

  /** The upstream ended the connection: a body read until the end is whole, anything else is cut. */
  #ended(): void {
    if (this.#handler !== undefined) this.#parser.finish();
    this.close();
  }
}
