/**
 * The wire tap: a small HTTP front in front of a mock that records what the client put on the
 * wire (method, path, headers, body, time) and passes everything on. Verdicts that need wire
 * facts the journal does not hold (a GET's `Last-Event-ID`, a fetch of a canary URL, timing)
 * read them here. A scenario may answer a request itself (`intercept`) for the few server
 * behaviours that are about HTTP and not about MCP (reject the first POST, serve a file).
 * @module
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Bodies larger than this are recorded cut (the request itself passes whole). */
const RECORDED_BODY_LIMIT = 256 * 1024;
/** At most this many requests are recorded; older ones give way. */
const RECORDED_REQUEST_LIMIT = 2_000;
/**
 * A body longer than this is answered here as the mock answers it (413), without being held
 * whole: the mock takes no more (its `maxBodyBytes`, which no scenario changes).
 */
const FORWARDED_BODY_LIMIT = 4 * 1024 * 1024;
const TOO_LARGE = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: `Payload Too Large: Request body must not exceed ${FORWARDED_BODY_LIMIT} bytes` }, id: null });

/** One HTTP request as the client sent it. */
export interface TappedRequest {
  readonly method: string;
  readonly path: string;
  /** Names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text (cut at 256 KB). */
  readonly body: string;
  /** The body parsed as JSON, when it is JSON. */
  readonly json: unknown;
  /** `performance.now()` when it arrived. */
  readonly at: number;
  /** `performance.now()` when the answer's body ended (an SSE stream closed), once it has. */
  answerEndedAt?: number;
}

/** A scenario's own answer to a request, or `undefined` to pass it to the mock. */
export type Intercept = (request: TappedRequest, response: ServerResponse) => boolean;

/** What a scenario changes about the tap's behaviour. */
export interface WireTapOptions {
  /** Answers a request itself (returns true) instead of passing it on. */
  readonly intercept?: Intercept;
  /**
   * Adjusts the headers passed on (not those recorded): a scenario that judges a header the
   * mock would refuse the request without supplies it, so the client is judged, not stopped.
   * Returning a string passes that body on instead of the client's (the record keeps the client's).
   */
  readonly forward?: (request: TappedRequest, headers: Record<string, string | string[] | undefined>) => string | void;
  /**
   * For these requests an answer the mock streams (SSE) reaches the client as JSON: the
   * stream's JSON-RPC response alone, once the stream ends. For a client that does not take
   * SSE where the official scenario's server answers in JSON.
   */
  readonly answerAsJson?: (request: TappedRequest) => boolean;
}

/** A tap started in front of `target`. */
export interface WireTap {
  /** The tap's base (`http://127.0.0.1:PORT`). */
  readonly origin: string;
  /** `target`'s path on the tap: what the client connects to. */
  readonly url: string;
  /** Every request recorded, in arrival order. */
  readonly requests: TappedRequest[];
  close(): Promise<void>;
}

function headersOf(message: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  return headers;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Starts a tap on a free loopback port that forwards to `target` (a mock's `url`). Without a
 * target (a client over stdio or in memory) it answers only what `intercept` takes, and 404 to
 * the rest: a canary host beside the mock.
 */
export async function startWireTap(target: string | undefined, options: WireTapOptions = {}): Promise<WireTap> {
  const upstream = new URL(target ?? "http://127.0.0.1/");
  const requests: TappedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const record = (whole: Buffer): TappedRequest => {
      const body = whole.subarray(0, RECORDED_BODY_LIMIT).toString("utf8");
      const tapped: TappedRequest = { method: req.method ?? "GET", path: req.url ?? "/", headers: headersOf(req), body, json: parse(body), at: performance.now() };
      requests.push(tapped);
      if (requests.length > RECORDED_REQUEST_LIMIT) requests.shift();
      return tapped;
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= FORWARDED_BODY_LIMIT) return;
      // Too large for the mock: recorded cut, answered now, and the rest never read.
      req.off("data", onData).off("end", onEnd).pause();
      record(Buffer.concat(chunks, Math.min(size, RECORDED_BODY_LIMIT)));
      chunks.length = 0;
      res.writeHead(413, { "content-type": "application/json", connection: "close" }).end(TOO_LARGE);
    };
    req.on("data", onData);
    req.on("error", () => res.destroy());
    const onEnd = (): void => {
      const whole = Buffer.concat(chunks, size);
      const tapped = record(whole);
      if (options.intercept?.(tapped, res)) return;
      if (target === undefined) {
        res.writeHead(404, { "content-type": "text/plain" }).end("Not found: this is a scenario's canary host, not an MCP endpoint.");
        return;
      }
      const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: upstream.host };
      const replaced = options.forward?.(tapped, headers);
      const passed = typeof replaced === "string" ? Buffer.from(replaced, "utf8") : whole;
      if (passed !== whole) {
        delete headers["transfer-encoding"];
        headers["content-length"] = String(passed.length);
      }
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (answer) => {
          answer.once("close", () => (tapped.answerEndedAt = performance.now()));
          if (options.answerAsJson?.(tapped) && String(answer.headers["content-type"]).startsWith("text/event-stream")) {
            const frames: Buffer[] = [];
            answer.on("data", (chunk: Buffer) => frames.push(chunk));
            answer.on("end", () => {
              const body = responseOfStream(Buffer.concat(frames).toString("utf8"));
              res.writeHead(body === undefined ? 502 : (answer.statusCode ?? 200), { "content-type": "application/json" }).end(body ?? "");
            });
            answer.on("error", () => res.destroy());
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on("error", () => res.destroy());
        },
      );
      forward.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
      // The client went away (an SSE stream closed, a request cancelled): so does the mock's side.
      res.on("close", () => forward.destroy());
      forward.end(passed);
    };
    req.on("end", onEnd);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}${upstream.pathname}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** The JSON-RPC response an SSE stream carried (its last `data:` that has an id and a result or an error). */
function responseOfStream(text: string): string | undefined {
  const data = text.split(/\r?\n/).filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trim());
  return data.reverse().find((line) => {
    const message = parse(line) as { id?: unknown; result?: unknown; error?: unknown } | undefined;
    return typeof message === "object" && message !== null && message.id !== undefined && (message.result !== undefined || message.error !== undefined);
  });
}

/** The POSTs among `requests` whose JSON-RPC method is `method` (a batch counts each member). */
export function postsOf(requests: readonly TappedRequest[], method?: string): TappedRequest[] {
  return requests.filter((r) => {
    if (r.method !== "POST") return false;
    const messages = Array.isArray(r.json) ? r.json : [r.json];
    return messages.some((m) => typeof m === "object" && m !== null && (method === undefined || (m as { method?: unknown }).method === method));
  });
}

/** The JSON-RPC message of a tapped POST (the first of a batch). */
export function messageOf(request: TappedRequest): { method?: string; id?: unknown; params?: Record<string, unknown> } {
  const message = Array.isArray(request.json) ? request.json[0] : request.json;
  return typeof message === "object" && message !== null ? (message as { method?: string }) : {};
}

/** The request fields a 2026-07-28 `Mcp-Name` header mirrors. */
const NAME_FIELDS: Readonly<Record<string, "name" | "uri">> = { "tools/call": "name", "resources/read": "uri", "prompts/get": "name" };

/**
 * Supplies `Accept`, `Mcp-Method` and `Mcp-Name` on a POST that lacks them before it reaches the mock
 * (which refuses a 2026-07-28 POST without them, as a server should). The official scenarios'
 * servers do not demand them outside the header scenarios, and the record keeps what the client
 * really sent, so a scenario judges the client by its own question only.
 */
export function supplyStandardHeaders(request: TappedRequest, headers: Record<string, string | string[] | undefined>): void {
  const message = messageOf(request);
  if (request.method !== "POST" || !message.method) return;
  const accept = String(headers["accept"] ?? "");
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) headers["accept"] = "application/json, text/event-stream";
  headers["mcp-method"] ??= message.method;
  const field = NAME_FIELDS[message.method];
  const value = field ? message.params?.[field] : undefined;
  if (typeof value === "string") headers["mcp-name"] ??= value;
}
