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
 * if any, on every call after). A stateless upstream answers without one.
 */
export async function upstreamHeaders(url) {
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench-relay", version: "1" } };
  const init = await fetch(url, { method: "POST", headers: base, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params }) });
  await init.text();
  const session = init.headers.get("mcp-session-id");
  const headers = { ...base, "mcp-protocol-version": params.protocolVersion, ...(session ? { "mcp-session-id": session } : {}) };
  await (await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  return headers;
}
