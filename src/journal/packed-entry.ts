/**
 * An answered journal entry packed as text into memory outside the JavaScript heap, and made
 * an object again when it is read. A busy mock keeps thousands of entries, each a graph of
 * objects (the entry, its call, params, headers, answer) that lives long enough for the
 * garbage collector to copy it twice and mark it until it is dropped: that cost, not the
 * mock's own work, was most of a journaled call's CPU. Packed, an entry is a hundred bytes or so
 * in a buffer the collector never walks.
 *
 * A packed entry is its numbers (seq, arrival, duration) and two texts, their parts joined by
 * NUL, which JSON text never holds. Its prefix: its other fields (a JSON array) and its
 * headers; when they are the previous entry's, they are not written again, and the entry
 * points at the one in the same chunk that wrote them. Then its message (the raw body when the
 * body is the message, else its params as JSON) and its answer (the result's JSON when the
 * caller has it, else the answer as JSON), and, for a proxied call, what the upstream answered and
 * how long it took (as JSON; empty otherwise).
 * @module
 */
import { declaredExtensionsOf, McpCall } from "../stubs/call.js";
import type { JournalEntry } from "./entry.js";

/** The size of a chunk that holds many packed entries. */
const CHUNK_BYTES = 1 << 20;
/**
 * Before the texts: the rest's length, where the prefix is (`OWN_PREFIX`, or the offset of the
 * entry in the same chunk whose prefix this one shares) and the prefix's length (u32), then
 * seq, receivedAt and durationMs (f64).
 */
const NUMBERS_BYTES = 36;
const OWN_PREFIX = 0xffffffff;
const SEPARATOR = "\u0000";

/** A buffer of packed entries, filled from the start; reused once no kept entry is in it. */
export class PackedChunk {
  readonly bytes: Buffer;
  used = 0;
  /** How many kept entries are packed in it. */
  live = 0;

  constructor(size: number) {
    this.bytes = Buffer.allocUnsafeSlow(size);
  }
}

/** How the message part is read: the raw body (`params` is its `params`; method and id are its own), or params as JSON. */
const BODY = 0;
const PARAMS = 1;
/** How the answer part is read: none, the answer as JSON, or a result's JSON (the answer is `{ jsonrpc, id, result }`). */
const NO_ANSWER = 0;
const JSON_ANSWER = 1;
const RESULT_ANSWER = 2;

/** The fields of the fields part, in order. */
type Fields = [
  kind: JournalEntry["kind"], method: string | null, id: JournalEntry["id"] | null, sessionId: string | null, protocolVersion: string, transport: JournalEntry["transport"],
  stubId: string | null, unmatched: boolean, missReport: string | null, taskId: string | null, truncatedBytes: number | null, hasCall: boolean, messageForm: number, answerForm: number,
  proxied: boolean, sessionExtensions: Record<string, unknown> | null,
];

/**
 * Where answered entries are packed: the chunk being filled, a spare one, and the last fields
 * and headers written (their text reused). A chunk no kept entry is in is filled again: a new
 * one for every thousands of calls would be memory outside the heap that only a full
 * collection gives back, and V8 runs one whenever enough of it has been allocated.
 */
export class EntryPacker {
  #chunk = new PackedChunk(CHUNK_BYTES);
  #spare: PackedChunk | undefined;
  /** Where the last prefix written in full is in the chunk being filled (-1: none yet); its parts are the last fields' and headers' texts. */
  #prefixAt = -1;
  #fields: unknown[] = [];
  #fieldsJson = "";
  #headers: Readonly<Record<string, string>> | undefined;
  #headersJson = "{}";

  /** The chunk being filled: the one the last entry packed is in. */
  get chunk(): PackedChunk {
    return this.#chunk;
  }

  /**
   * Packs an answered entry: the offset it now lives at in `chunk`, or -1 when it cannot be
   * written as JSON (a value JSON has no form for) and stays an object. `body` is the raw text
   * of its message, `resultJson` its answer's result as JSON, when known.
   */
  pack(entry: JournalEntry, body: string | undefined, resultJson: string | undefined): number {
    const lastFields = this.#fieldsJson;
    const lastHeaders = this.#headersJson;
    let message: string;
    let fields: string;
    let answer = "";
    let upstream = "";
    try {
      // The raw body is the message when it is one object (a batch is an array).
      const asBody = body !== undefined && entry.kind !== "response" && !entry.truncated && body.charCodeAt(0) === 123; /* { */
      message = asBody ? body : entry.params === undefined ? "" : JSON.stringify(entry.params);
      const sent = entry.answer as { id?: unknown; result?: unknown } | undefined;
      let answerForm = NO_ANSWER;
      if (sent !== undefined && resultJson !== undefined && sent.id === entry.id && sent.result !== undefined) {
        answer = resultJson;
        answerForm = RESULT_ANSWER;
      } else if (sent !== undefined) {
        answer = JSON.stringify(sent);
        answerForm = JSON_ANSWER;
      }
      // The upstream's result passed on as it came is the answer's: its JSON is already here.
      if (entry.upstream !== undefined) upstream = answerForm === RESULT_ANSWER && sameResult(entry.upstream.answer, sent) ? `{"answer":{"result":${resultJson}},"durationMs":${JSON.stringify(entry.upstream.durationMs)}}` : JSON.stringify(entry.upstream);
      fields = this.#fieldsOf([
        entry.kind, asBody ? null : entry.method, asBody ? null : entry.id, entry.sessionId, entry.protocolVersion, entry.transport,
        entry.stubId, entry.unmatched, entry.missReport, entry.taskId, entry.truncated?.bytes, entry.call !== undefined, asBody ? BODY : PARAMS, answerForm,
        entry.proxied === true, entry.call?.sessionExtensions ?? null,
      ]);
    } catch {
      return -1;
    }
    const headers = this.#headersOf(entry.headers);
    const rest = message + SEPARATOR + answer + SEPARATOR + upstream;
    // UTF-8 takes at most 3 bytes a UTF-16 unit; the exact length is counted only when that much does not fit.
    const most = NUMBERS_BYTES + 3 * (fields.length + headers.length + rest.length + 1);
    if (this.#chunk.used + most > this.#chunk.bytes.length) {
      const exact = NUMBERS_BYTES + Buffer.byteLength(fields, "utf8") + Buffer.byteLength(headers, "utf8") + 1 + Buffer.byteLength(rest, "utf8");
      if (this.#chunk.used + exact > this.#chunk.bytes.length) {
        this.#chunk = this.#fresh(exact);
        this.#prefixAt = -1;
      }
    }
    const chunk = this.#chunk;
    chunk.live++;
    const offset = chunk.used;
    const bytes = chunk.bytes;
    let at = offset + NUMBERS_BYTES;
    if (this.#prefixAt !== -1 && fields === lastFields && headers === lastHeaders) {
      bytes.writeUInt32LE(this.#prefixAt, offset + 4);
      bytes.writeUInt32LE(0, offset + 8);
    } else {
      const prefixBytes = bytes.write(fields + SEPARATOR + headers, at, "utf8");
      at += prefixBytes;
      bytes.writeUInt32LE(OWN_PREFIX, offset + 4);
      bytes.writeUInt32LE(prefixBytes, offset + 8);
      this.#prefixAt = offset;
    }
    const written = bytes.write(rest, at, "utf8");
    bytes.writeUInt32LE(written, offset);
    bytes.writeDoubleLE(entry.seq, offset + 12);
    bytes.writeDoubleLE(entry.receivedAt, offset + 20);
    bytes.writeDoubleLE(entry.durationMs ?? Number.NaN, offset + 28);
    chunk.used = at + written;
    return offset;
  }

  /** A kept entry packed in `chunk` was dropped, or read (it is an object again). */
  release(chunk: PackedChunk): void {
    if (--chunk.live > 0 || chunk === this.#chunk || chunk.bytes.length !== CHUNK_BYTES) return;
    chunk.used = 0;
    this.#spare = chunk;
  }

  /** The journal was cleared: no kept entry is packed anywhere, and the chunk is filled again from the start. */
  reset(): void {
    this.#chunk.used = 0;
    this.#chunk.live = 0;
    this.#spare = undefined;
    this.#prefixAt = -1;
  }

  /** An empty chunk with room for `bytes`: the spare one if it has, else a new one (of its own size if larger than a chunk). */
  #fresh(bytes: number): PackedChunk {
    const spare = this.#spare;
    if (spare !== undefined && bytes <= spare.bytes.length) {
      this.#spare = undefined;
      return spare;
    }
    return new PackedChunk(Math.max(CHUNK_BYTES, bytes));
  }

  /** The fields as JSON: the last entry's text again when they are the same (they are, call after call, from one client to one stub). */
  #fieldsOf(fields: unknown[]): string {
    const last = this.#fields;
    let same = last.length === fields.length;
    for (let i = 0; same && i < fields.length; i++) same = fields[i] === last[i];
    if (same) return this.#fieldsJson;
    this.#fields = fields;
    return (this.#fieldsJson = JSON.stringify(fields));
  }

  /** The headers as JSON: the last ones' text again when they are the same (a client repeats its headers). */
  #headersOf(headers: Readonly<Record<string, string>>): string {
    if (this.#headers !== undefined && sameHeaders(headers, this.#headers)) return this.#headersJson;
    this.#headers = headers;
    return (this.#headersJson = JSON.stringify(headers));
  }
}

/** The same names with the same values (a header's value is a string, never undefined). */
function sameHeaders(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  if (a === b) return true;
  for (const name in a) if (a[name] !== b[name]) return false;
  for (const name in b) if (a[name] === undefined) return false;
  return true;
}

/** The entry packed at `offset` of `chunk`, an object again (a new one on each call). */
export function unpack(chunk: PackedChunk, offset: number): JournalEntry {
  const bytes = chunk.bytes;
  const shared = bytes.readUInt32LE(offset + 4);
  const prefixAt = shared === OWN_PREFIX ? offset : shared;
  const prefixStart = prefixAt + NUMBERS_BYTES;
  const [fieldsText, headersText] = bytes.toString("utf8", prefixStart, prefixStart + bytes.readUInt32LE(prefixAt + 8)).split(SEPARATOR) as [string, string];
  const restStart = offset + NUMBERS_BYTES + bytes.readUInt32LE(offset + 8);
  const [messageText, answerText, upstreamText] = bytes.toString("utf8", restStart, restStart + bytes.readUInt32LE(offset)).split(SEPARATOR) as [string, string, string];
  const durationMs = bytes.readDoubleLE(offset + 28);
  const [kind, method, id, sessionId, protocolVersion, transport, stubId, unmatched, missReport, taskId, truncatedBytes, hasCall, messageForm, answerForm, proxied, sessionExtensions] = JSON.parse(fieldsText) as Fields;
  const headers = JSON.parse(headersText) as Record<string, string>;
  const parsed = messageText === "" ? undefined : (JSON.parse(messageText) as Record<string, unknown>);
  const message = messageForm === BODY ? (parsed as { method: string; id?: JournalEntry["id"]; params?: Record<string, unknown> }) : { method: method ?? undefined, id: id ?? undefined, params: parsed };
  const answer = answerForm === NO_ANSWER ? undefined : answerForm === RESULT_ANSWER ? { jsonrpc: "2.0", id: message.id, result: JSON.parse(answerText) as unknown } : (JSON.parse(answerText) as unknown);
  let call: McpCall | undefined;
  if (hasCall && message.method !== undefined) {
    call = new McpCall({ method: message.method, params: message.params, id: message.id, sessionId: sessionId ?? undefined, headers, protocolVersion, body: "", transport });
    call.compact();
    if (sessionExtensions !== null) call.declaredExtensions({ extensions: sessionExtensions });
  }
  // Field for field in the order Journal.record builds an entry (one object shape for both);
  // a proxied entry's two proxy fields after, as the proxy marks them.
  const entry: JournalEntry = {
    seq: bytes.readDoubleLE(offset + 12),
    kind,
    method: message.method,
    id: message.id,
    params: message.params,
    sessionId: sessionId ?? undefined,
    headers,
    protocolVersion,
    transport,
    receivedAt: bytes.readDoubleLE(offset + 20),
    call,
    clientExtensions: kind === "response" ? undefined : declaredExtensionsOf(call),
    stubId: stubId ?? undefined,
    answer,
    unmatched,
    missReport: missReport ?? undefined,
    durationMs: Number.isNaN(durationMs) ? undefined : durationMs,
    taskId: taskId ?? undefined,
    truncated: truncatedBytes === null ? undefined : { bytes: truncatedBytes },
  };
  if (proxied) entry.proxied = true;
  if (upstreamText !== "") entry.upstream = JSON.parse(upstreamText) as NonNullable<JournalEntry["upstream"]>;
  return entry;
}

/** Whether a proxied entry's upstream answer is the result its answer passed on: the very object (no transform made another). */
export function sameResult(upstream: unknown, answer: unknown): boolean {
  const result = (upstream as { result?: unknown }).result;
  return result !== undefined && result === (answer as { result?: unknown } | undefined)?.result;
}
