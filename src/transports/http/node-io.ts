/**
 * Reading a request and writing an answer, fast: on @hono/node-server the Node request and
 * response are used directly (no Web Request, no body stream, no Response object; SSE
 * channels write to the response too); anywhere else (`app.request()` in tests) the
 * Web-standard path does the same.
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context } from "hono";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { HeaderNames } from "../../protocol/revisions.js";
import { readStreamCapped } from "../../values/capped-stream.js";

interface NodeBindings {
  readonly incoming?: IncomingMessage;
  readonly outgoing?: ServerResponse;
}

function node(c: Context): NodeBindings {
  return (c.env as NodeBindings | undefined) ?? {};
}

/** One request header (name in lower case), several values joined as HTTP joins them. */
export function header(c: Context, name: string): string | undefined {
  const incoming = node(c).incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Every request header, names in lower case. */
export function allHeaders(c: Context): Record<string, string> {
  const incoming = node(c).incoming;
  const out: Record<string, string> = {};
  if (!incoming) {
    c.req.raw.headers.forEach((value, name) => (out[name] = value));
    return out;
  }
  const headers = incoming.headers;
  // Node joins repeated headers into one string, except set-cookie (an array): usually no copy is needed.
  if (headers["set-cookie"] === undefined) return headers as Record<string, string>;
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  return out;
}

/** The body up to `limit` bytes; `"too-large"` when its length says so, `"cut"` when reading stopped mid-body. */
export async function readBody(c: Context, limit: number): Promise<Uint8Array | "too-large" | "cut"> {
  const length = Number(header(c, "content-length") ?? NaN);
  if (length > limit) return "too-large";
  const incoming = node(c).incoming;
  if (!incoming) {
    const body = c.req.raw.body;
    return body ? readStreamCapped(body, limit) : new Uint8Array(0);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Plain events: cheaper than an async iterator on the hot path.
  // The listeners stay on a request read to its end (it is never read again).
  const cut = await new Promise<boolean>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size <= limit) chunks.push(chunk);
      else {
        incoming.off("data", onData).off("end", onEnd);
        resolve(true);
      }
    };
    const onEnd = (): void => resolve(false);
    incoming.on("data", onData).on("end", onEnd).once("error", reject);
  });
  if (cut) return "cut";
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
}

/**
 * The Node response to write an answer to directly: on @hono/node-server, when no Origin
 * header came (so no CORS headers need adding to the answer) and nothing was written yet.
 */
export function directResponse(c: Context): ServerResponse | undefined {
  const { incoming, outgoing } = node(c);
  return outgoing && incoming?.headers.origin === undefined && !outgoing.headersSent ? outgoing : undefined;
}

/** The Node response under a request on @hono/node-server, whatever its headers (to cut the connection). */
export function nodeResponse(c: Context): ServerResponse | undefined {
  return node(c).outgoing;
}

/** What a handler returns after writing its answer to the Node response itself. */
export { RESPONSE_ALREADY_SENT };

/**
 * Answers with a JSON body (and the session id, when there is one). On Node, without an
 * Origin header (so no CORS headers to add), it is written straight to the socket.
 */
export function sendJson(c: Context, status: number, sessionId: string | undefined, body: string): Response {
  const outgoing = directResponse(c);
  if (outgoing) {
    const length = String(Buffer.byteLength(body));
    // The flat-array form: Node writes it as is, without building a header map.
    outgoing.writeHead(
      status,
      sessionId === undefined
        ? ["content-type", "application/json", "content-length", length]
        : ["content-type", "application/json", "content-length", length, HeaderNames.sessionId, sessionId],
    );
    outgoing.end(body);
    return RESPONSE_ALREADY_SENT;
  }
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (sessionId !== undefined) headers[HeaderNames.sessionId] = sessionId;
  return new Response(body, { status, headers });
}
