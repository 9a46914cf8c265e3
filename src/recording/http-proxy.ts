/**
 * The recording proxy for Streamable HTTP (and any other HTTP a client sends the same way):
 * each request goes to the real server unchanged (headers less hop-by-hop ones, the body as
 * is, session ids both ways), each answer comes back unchanged (JSON or an SSE stream, read
 * as it flows), and the JSON-RPC messages on the way feed the recording.
 * @module
 */
import { Hono } from "hono";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { listen, type Listening } from "../transports/http/listener.js";
import { DEFAULT_CLIENT_TIMEOUT_MS } from "../engine/client-requests.js";
import { relayedHeaders } from "../upstream/http-headers.js";
import { headerSecrets } from "../upstream/secrets.js";
import { httpUpstream } from "../upstream/target.js";
import { bearerFor, watchedProvider } from "../upstream/oauth.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { isRequest, isResponse, messagesIn, type Exchange, type Recording, type WireMessage } from "./exchanges.js";

/** Where the proxy listens and where it sends. */
export interface HttpProxyOptions {
  /** The real server's MCP endpoint, e.g. `http://127.0.0.1:3001/mcp` (a user and password in it are sent as Basic authorization). */
  readonly target: string;
  /** Headers sent with every request to it, over the client's own (credentials: never written or shown). */
  readonly headers?: Readonly<Record<string, string>>;
  /** An OAuth client provider whose access token is sent with every request (renewed on a 401). */
  readonly authProvider?: OAuthClientProvider;
  /** Port to listen on (0, the default: a free one); the host is always 127.0.0.1. */
  readonly port?: number;
  /** Where the exchanges go. */
  readonly recording: Recording;
  /** Milliseconds the target gets to answer a request (an SSE answer: to start it); 10000 by default. */
  readonly timeoutMs?: number;
  /** Where one-line reports go (the target too slow); default: stderr. */
  readonly report?: (line: string) => void;
}

/** The recorder's default wait for the target: the mock's `clientTimeoutMs` default. */
export const DEFAULT_RECORD_TIMEOUT_MS = DEFAULT_CLIENT_TIMEOUT_MS;

/** A running recording proxy. */
export interface HttpProxy {
  /** The URL to point a client at: the target's path on the proxy's origin. */
  readonly url: string;
  /** Stops listening and ends the streams in flight. */
  close(): Promise<void>;
}

/** Remembers the credential values of these headers in the recording's secrets (the rule of `upstream/secrets.ts`). */
function noteSecrets(headers: Headers, recording: Recording): void {
  for (const secret of headerSecrets(headers)) recording.secrets.add(secret);
}

/**
 * The client's headers or query parameters with the given ones set over them: each name given
 * replaces every value the client sent under it (`given` may hold a name more than once).
 */
function withGiven<T extends Headers | URLSearchParams>(client: T, given: Iterable<readonly [string, string]>): T {
  const entries = [...given];
  for (const [name] of entries) client.delete(name);
  for (const [name, value] of entries) client.append(name, value);
  return client;
}

/**
 * Where a client's request goes: its path and query on the target's origin, with the target's
 * own query parameters (an `?api_key=...`) set over the client's, as given headers are (a query
 * only one of them has, or both alike, passes as written).
 */
function upstreamUrlOf(incoming: URL, target: URL): URL {
  const url = new URL(incoming.pathname + (incoming.search || target.search), target.origin);
  if (incoming.search !== "" && target.search !== "" && incoming.search !== target.search) withGiven(url.searchParams, target.searchParams);
  return url;
}

/** Feeds the server's messages for one POST to the exchanges its requests opened. */
function serverMessages(recording: Recording, opened: ReadonlyMap<string, Exchange>): (messages: readonly WireMessage[]) => void {
  return (messages) => {
    for (const message of messages) {
      if (isResponse(message)) {
        const exchange = opened.get(JSON.stringify(message["id"]));
        if (exchange) recording.fromServer(exchange, message);
        continue;
      }
      // A notification or a server request on this POST's stream belongs to its first open request.
      const open = [...opened.values()].find((e) => !e.answer);
      if (open) recording.fromServer(open, message);
    }
  };
}

/** Reads an SSE body to its end, handing each event's messages on. */
async function readEvents(body: ReadableStream<Uint8Array>, deliver: (messages: readonly WireMessage[]) => void): Promise<void> {
  const events = body.pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).pipeThrough(new EventSourceParserStream());
  const reader = events.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value.event === undefined || value.event === "message") deliver(messagesIn(value.data));
    }
  } catch {
    // The stream was cut (the client went away, or the proxy closed): what came is recorded.
  }
}

/**
 * `body` passed on as the client reads it, each chunk shown to the recording too (which reads
 * at once): a client that stops reading holds the upstream back, as a proxy's sockets would,
 * where a `tee()` would read on for the recording and keep for the client all it leaves unread.
 * A client that goes away ends the upstream's stream (and with it the recording's).
 */
function passedOn(body: ReadableStream<Uint8Array>): [toClient: ReadableStream<Uint8Array>, toRecording: ReadableStream<Uint8Array>] {
  const reader = body.getReader();
  let recording!: ReadableStreamDefaultController<Uint8Array>;
  const toRecording = new ReadableStream<Uint8Array>({ start: (controller) => void (recording = controller) });
  // Closed, not errored, when the upstream cuts the stream: the recording still reads what came.
  const endRecording = (): void => {
    try {
      recording.close();
    } catch {
      // already closed
    }
  };
  const toClient = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            endRecording();
            return controller.close();
          }
          recording.enqueue(value);
          controller.enqueue(value);
        } catch (error) {
          endRecording();
          controller.error(error);
        }
      },
      cancel(reason) {
        endRecording();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return [toClient, toRecording];
}

/**
 * A stream that passes `body` on as the client reads it and, when no byte has come for
 * `timeoutMs` while it waits for one, asks `last` for its last bytes: with them, it ends (and
 * `stop` breaks off the upstream); without (nothing is waiting any more), it keeps waiting.
 * When the upstream cuts the stream (mid-event, or before answering), `last` is asked too,
 * once `recorded` (the recording's reading of the same bytes) has seen every answer, so a
 * waiting client reads the cut rather than a broken stream.
 */
function watchdog(body: ReadableStream<Uint8Array>, timeoutMs: number, last: (why: "stalled" | "cut") => Uint8Array | undefined, stop: () => void, recorded: Promise<unknown>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  /** Ends the client's stream with the recorder's own last bytes, or with `error` when there are none. */
  const cut = async (controller: ReadableStreamDefaultController<Uint8Array>, error?: unknown): Promise<void> => {
    ended = true;
    await recorded;
    const bytes = last("cut");
    if (bytes === undefined && error !== undefined) return controller.error(error);
    if (bytes !== undefined) controller.enqueue(bytes);
    controller.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (ended) return;
        const arm = (): void => {
          timer = setTimeout(() => {
            const bytes = last("stalled");
            if (bytes === undefined) return arm();
            ended = true;
            controller.enqueue(bytes);
            controller.close();
            reader.cancel().catch(() => {});
            stop();
          }, timeoutMs);
        };
        arm();
        try {
          const { done, value } = await reader.read();
          clearTimeout(timer);
          if (ended) return;
          if (done) return await cut(controller);
          controller.enqueue(value);
        } catch (error) {
          clearTimeout(timer);
          if (ended) return;
          await cut(controller, error);
        }
      },
      cancel(reason) {
        ended = true;
        clearTimeout(timer);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Starts a recording proxy on 127.0.0.1 in front of `target`.
 *
 * @example
 * ```ts
 * import { Recording } from "./exchanges.js";
 * const proxy = await startHttpProxy({ target: "http://127.0.0.1:3001/mcp", recording: new Recording() });
 * console.log(proxy.url); // point the client here
 * await proxy.close();
 * ```
 */
export async function startHttpProxy(options: HttpProxyOptions): Promise<HttpProxy> {
  // The target without its user information (sent as a header); messages name it so.
  const { url: target, headers: given } = httpUpstream(options.target, options.headers);
  const shown = `${target.origin}${target.pathname}`;
  const provider = options.authProvider === undefined ? undefined : watchedProvider(options.authProvider, (secret) => options.recording.secrets.add(secret));
  const recording = options.recording;
  const closing = new AbortController();
  const reading = new Set<Promise<void>>();
  /** The calls in flight, each with the controller that ends its fetch. */
  const live = new Set<AbortController>();
  const app = new Hono();
  app.all("*", async (c) => {
    const incoming = new URL(c.req.url);
    const upstreamUrl = upstreamUrlOf(incoming, target);
    noteSecrets(c.req.raw.headers, recording);
    const hasBody = c.req.method !== "GET" && c.req.method !== "HEAD";
    const text = hasBody ? await c.req.text() : undefined;
    const opened = new Map<string, Exchange>();
    // The body's messages, read once: its requests open exchanges (and a timeout answers them);
    // the rest are the client's answers to the server's own requests.
    const messages = text === undefined ? [] : messagesIn(text);
    const requests = messages.filter(isRequest);
    if (c.req.method === "POST") {
      for (const message of messages) {
        if (isRequest(message)) opened.set(JSON.stringify(message["id"]), recording.request(message));
        else recording.fromClient(message);
      }
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_RECORD_TIMEOUT_MS;
    const slow = new AbortController();
    const timer = setTimeout(() => slow.abort(), timeoutMs);
    // What ends this call's fetch: the proxy closing, the client gone, the target too slow. A
    // signal of its own, listed while the call lasts (not AbortSignal.any over the proxy's
    // long-lived one, which kept a reference per call for as long as the proxy ran).
    const call = new AbortController();
    const abort = (): void => call.abort();
    c.req.raw.signal.addEventListener("abort", abort, { once: true });
    slow.signal.addEventListener("abort", abort, { once: true });
    if (closing.signal.aborted) call.abort();
    live.add(call);
    // Too slow: each request of the POST gets a JSON-RPC error naming the target, and stderr one line.
    const tooSlow = (): Response => {
      const what = [...new Set(requests.map((m) => String(m["method"])))].join(", ") || `${c.req.method} ${incoming.pathname}`;
      const message = `mcpmock record: the target ${shown} did not answer ${what} within ${timeoutMs} ms`;
      (options.report ?? ((line: string) => process.stderr.write(`${line}\n`)))(`${message}; the client got ${requests.length > 0 ? "a JSON-RPC error" : "HTTP 504"}.`);
      if (requests.length === 0) return c.text(message, 504);
      const errors = requests.map((m) => ({ jsonrpc: "2.0", id: m["id"], error: { code: -32603, message, data: { target: shown } } }));
      // The recorder's own answer is not the server's: the recording keeps the exchange open.
      return Response.json(errors.length === 1 ? errors[0] : errors);
    };
    let upstream: Response;
    try {
      const send = async (renew: boolean): Promise<Response> => {
        const headers = withGiven(relayedHeaders(c.req.raw.headers), Object.entries(given));
        // An OAuth provider's token over the client's (renewed once when the server refuses it).
        const bearer = provider === undefined ? undefined : await bearerFor(provider, target, renew);
        if (bearer !== undefined) headers.set("authorization", bearer);
        return fetch(upstreamUrl, {
          method: c.req.method,
          headers,
          ...(text === undefined ? {} : { body: text }),
          redirect: "manual",
          signal: call.signal,
        });
      };
      upstream = await send(false);
      if (upstream.status === 401 && provider !== undefined) {
        await upstream.body?.cancel();
        upstream = await send(true);
      }
    } catch (error) {
      clearTimeout(timer);
      live.delete(call);
      if (slow.signal.aborted) return tooSlow();
      return c.text(`mcpmock record: the target ${shown} did not answer: ${(error as Error).message}`, 502);
    }
    noteSecrets(upstream.headers, recording);
    const headers = relayedHeaders(upstream.headers);
    const deliver = serverMessages(recording, opened);
    const type = upstream.headers.get("content-type") ?? "";
    if (upstream.body && type.includes("text/event-stream")) {
      // A stream has started: it may last as long as it likes, as long as bytes keep coming while
      // a request of it waits (a GET stream, with none, may be quiet for ever).
      clearTimeout(timer);
      const [toClient, toRecording] = passedOn(upstream.body);
      const done = readEvents(toRecording, deliver).finally(() => (reading.delete(done), live.delete(call)));
      reading.add(done);
      const last = (why: "stalled" | "cut"): Uint8Array | undefined => {
        const waiting = [...opened].filter(([, e]) => !e.answer);
        if (waiting.length === 0) return undefined;
        const what = [...new Set(waiting.map(([, e]) => e.method))].join(", ");
        const message =
          why === "stalled"
            ? `mcpmock record: the target ${shown} stalled its stream for ${what}: no byte within ${timeoutMs} ms (--timeout)`
            : `mcpmock record: the target ${shown} cut its stream for ${what} before answering`;
        (options.report ?? ((line: string) => process.stderr.write(`${line}\n`)))(`${message}; the client got a JSON-RPC error.`);
        // The recorder's own answer is not the server's: the recording keeps the exchange open.
        // A blank line first ends an event the cut left half-written, so the error is an event of its own.
        const events = waiting.map(([id]) => `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(id) as unknown, error: { code: -32603, message, data: { target: shown } } })}\n\n`);
        return new TextEncoder().encode((why === "cut" ? "\n\n" : "") + events.join(""));
      };
      const watched = requests.length === 0 ? toClient : watchdog(toClient, timeoutMs, last, () => slow.abort(), done);
      return new Response(watched, { status: upstream.status, headers });
    }
    let body: ArrayBuffer;
    try {
      body = await upstream.arrayBuffer();
    } catch (error) {
      if (slow.signal.aborted) return tooSlow();
      return c.text(`mcpmock record: the target ${shown} broke off its answer: ${(error as Error).message}`, 502);
    } finally {
      clearTimeout(timer);
      live.delete(call);
    }
    if (type.includes("json")) deliver(messagesIn(new TextDecoder().decode(body)));
    return new Response(upstream.status === 204 || upstream.status === 304 ? null : body, { status: upstream.status, headers });
  });
  const listening: Listening = await listen(app.fetch, options.port ?? 0, "127.0.0.1");
  return {
    // Without the target's query: the proxy adds it to each request (it may hold an API key).
    url: `http://127.0.0.1:${listening.port}${target.pathname}`,
    async close() {
      closing.abort();
      for (const call of live) call.abort();
      await listening.close();
      await Promise.allSettled([...reading]);
    },
  };
}
