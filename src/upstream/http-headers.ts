/**
 * Relaying HTTP to a real server byte for byte (the recorder's proxy): which headers belong to
 * the message and pass, and which belong to one connection and stay.
 * @module
 */

/** Headers that belong to one connection, not the message (RFC 9110 section 7.6.1), and ones fetch sets itself. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length", "content-encoding"]);

/** A copy of headers without hop-by-hop ones (each `Set-Cookie` line kept apart). */
export function relayedHeaders(headers: Headers): Headers {
  const out = new Headers();
  headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name.toLowerCase())) out.append(name, value);
  });
  // Headers.forEach joins Set-Cookie lines; keep them apart.
  if (headers.getSetCookie().length > 1) {
    out.delete("set-cookie");
    for (const cookie of headers.getSetCookie()) out.append("set-cookie", cookie);
  }
  return out;
}
