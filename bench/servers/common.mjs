// Shared by the bench servers: the request they all answer, a ready line for the runner, and the
// relays' session with their upstream.
export const RESULT = { content: [{ type: "text", text: '{"sum":3}' }] };
export function ready(url) {
  process.stdout.write(`READY ${url}\n`);
}
export function onStop(close) {
  process.on("SIGTERM", async () => {
    await close();
    process.exit(0);
  });
}

/**
 * The headers a relay sends its upstream, after opening a session with it as a proxy must with a
 * stateful server (initialize, then notifications/initialized; the session id it answers with,
 * if any, on every call after). A stateless upstream answers without one. `send(headers, body)`
 * posts through the relay's own client (its pool or agent, so that no second HTTP client is
 * loaded into the relay's process) and resolves to the answer's headers, lower-cased, once its
 * body is read.
 */
export async function upstreamHeaders(send) {
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench-relay", version: "1" } };
  const answered = await send(base, JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params }));
  const session = answered["mcp-session-id"];
  const headers = { ...base, "mcp-protocol-version": params.protocolVersion, ...(session ? { "mcp-session-id": session } : {}) };
  await send(headers, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return headers;
}

/** `upstreamHeaders`'s `send` for a relay whose client is an undici Pool. */
export function poolSender(pool, path) {
  return async (headers, body) => {
    const answer = await pool.request({ path, method: "POST", headers, body });
    await answer.body.text();
    return answer.headers;
  };
}
