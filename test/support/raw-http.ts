/**
 * Raw HTTP against a mock, for the details a real client hides: the headers an SDK client
 * sends, a session opened by hand, an SSE body read up to a given text, a request through
 * node:http (which, unlike fetch, sends any Host header and any header size).
 */
import http from "node:http";

/** The Accept header of the SDK clients: both JSON and SSE answers. */
export const ACCEPT_BOTH = "application/json, text/event-stream";

/** The headers of every SDK client POST. */
export const HEADERS = { accept: ACCEPT_BOTH, "content-type": "application/json" };

/** POSTs `initialize` with the SDK client headers; the response's body is read already. */
export async function postInitialize(url: string, options: { protocolVersion?: string; clientName?: string; capabilities?: Record<string, unknown> } = {}): Promise<Response> {
  const { protocolVersion = "2025-11-25", clientName = "raw", capabilities = {} } = options;
  const res = await fetch(url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion, capabilities, clientInfo: { name: clientName, version: "1" } } }),
  });
  await res.text();
  return res;
}

/** The session headers (`mcp-session-id`, `mcp-protocol-version`) an initialize answer sets up. */
export function sessionHeaders(res: Response, protocolVersion = "2025-11-25"): { "mcp-session-id": string; "mcp-protocol-version": string } {
  return { "mcp-session-id": res.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": protocolVersion };
}

/** Initializes a session whose client declares `capabilities`; returns the headers of its POSTs. */
export async function initializedHeaders(url: string, capabilities: Record<string, unknown> = {}): Promise<Record<string, string>> {
  return { ...HEADERS, ...sessionHeaders(await postInitialize(url, { capabilities })) };
}

/**
 * Opens a session by hand, as a client does: initialize, then notifications/initialized.
 * Returns the session id and the headers of the session's POSTs.
 */
export async function openSession(url: string, protocolVersion = "2025-11-25"): Promise<{ sessionId: string; headers: Record<string, string> }> {
  const init = await postInitialize(url, { protocolVersion });
  const session = sessionHeaders(init, protocolVersion);
  const headers = { ...HEADERS, ...session };
  await (await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  return { sessionId: session["mcp-session-id"], headers };
}

/** Reads an SSE body until `text` has arrived, then lets go of the reader; returns what was read. */
export async function readUntil(response: Response, text: string): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let seen = "";
  while (!seen.includes(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the stream ended before ${JSON.stringify(text)}; got ${JSON.stringify(seen)}`);
    seen += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return seen;
}

/** A body sent in chunks, without a content-length (chunked transfer encoding). */
export function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const queue = chunks.map((c) => new TextEncoder().encode(c));
  return new ReadableStream({ pull: (controller) => void (queue.length ? controller.enqueue(queue.shift()) : controller.close()) });
}

/** A request through node:http, which (unlike fetch) sends any Host header and any header size. */
export function nodeRequest(
  url: string,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const target = new URL(url);
  const headers = options.headers ?? {};
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: target.hostname, port: target.port, path: options.path ?? target.pathname, method: options.method ?? "POST", headers, setHost: !("host" in headers), agent: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}
