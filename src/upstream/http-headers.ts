/**
 * What a header may be, and which headers belong to the message and which to one connection:
 * for the upstream's headers where they are given, for the requests the mock's connections send,
 * and for relaying HTTP to a real server byte for byte (the recorder's proxy).
 * @module
 */

/** A header name as HTTP allows it (RFC 9110 token). */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** What no header value may hold: a line break or NUL would end the header early. */
export const HEADER_BREAKS = /[\r\n\0]/;

/**
 * Headers that belong to one connection, not the message (RFC 9110 section 7.6.1), with the
 * length that frames the message on it: whoever sends the message sets them (names in lower case).
 */
export const CONNECTION_HEADERS: ReadonlySet<string> = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "content-length"]);

/** Those, and the ones fetch sets itself. */
const HOP_BY_HOP = new Set([...CONNECTION_HEADERS, "host", "content-encoding"]);

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
