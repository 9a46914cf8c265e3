/**
 * What a recording holds: one exchange per client request (its method and params, the
 * server's messages on the way, and the answer), in the order the requests arrived. The
 * proxies feed it; the definition writer reads it.
 * @module
 */

/** A JSON-RPC message as it crossed the wire. */
export type WireMessage = Readonly<Record<string, unknown>>;

/** One client request and what the server sent for it. */
export interface Exchange {
  /** The request's method, e.g. `"tools/call"`. */
  readonly method: string;
  /** The request's params as sent. */
  readonly params: Readonly<Record<string, unknown>> | undefined;
  /** The server's notifications and requests sent for this request before its answer, in order. */
  readonly steps: WireMessage[];
  /** When each step, and then the answer, arrived (milliseconds, `performance.now()`): the pauses the replay keeps. */
  readonly times: number[];
  /** The answer: a JSON-RPC result or error; absent while the request is open. */
  answer?: { readonly result?: unknown; readonly error?: { code: number; message: string; data?: unknown } };
  /** The client's answers to the server's requests among `steps`, by step index (`mcpmock check` answers with them). */
  readonly replies?: Array<ClientReply | undefined>;
}

/** The client's answer to a server-to-client request: its result, or its JSON-RPC error. */
export type ClientReply = { readonly result: unknown } | { readonly error: Readonly<Record<string, unknown>> };

/** Whether a message is a request (a method and an id). */
export function isRequest(message: WireMessage): boolean {
  return typeof message["method"] === "string" && message["id"] !== undefined && message["id"] !== null;
}

/** Whether a message is a notification (a method, no id). */
export function isNotification(message: WireMessage): boolean {
  return typeof message["method"] === "string" && message["id"] === undefined;
}

/** Whether a message is a response (a result or an error, no method). */
export function isResponse(message: WireMessage): boolean {
  return message["method"] === undefined && ("result" in message || "error" in message);
}

/** Parses a JSON-RPC body (one message or a batch) into messages; anything else gives none. */
export function messagesIn(text: string): WireMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const list = Array.isArray(value) ? value : [value];
  return list.filter((m): m is WireMessage => m !== null && typeof m === "object" && !Array.isArray(m));
}

/** How many answered requests a recording remembers to find repeats of (a client polling, a soak). */
const REPEATS_REMEMBERED = 1024;

/**
 * The exchanges of one recording. `changed` runs after each answer arrives, so the file can
 * be rewritten as the recording grows. An answered exchange equal to a recent one (the same
 * method, params and answer, nothing streamed) is kept as that one: a request repeated many
 * times (a polling client, a soak) costs a slot in the list, not a copy of its messages, and
 * the file written is the same.
 */
export class Recording {
  readonly #exchanges: Exchange[] = [];
  /** Where each exchange still open sits in the list. */
  readonly #slots = new WeakMap<Exchange, number>();
  /** Recent answered exchanges by their text (method, params, answer), oldest first. */
  readonly #recent = new Map<string, Exchange>();
  readonly #changed: () => void;
  /** Credential values seen on the wire (header values), kept out of the file. */
  readonly secrets = new Set<string>();
  /** The server's requests waiting for the client's answer, by their id: which exchange and step. */
  readonly #asked = new Map<string, { readonly exchange: Exchange; readonly step: number }>();

  constructor(changed: () => void = () => {}) {
    this.#changed = changed;
  }

  /** The exchanges so far, answered or not, in the order their requests arrived. */
  get exchanges(): readonly Exchange[] {
    return this.#exchanges;
  }

  /** A client request begins an exchange. */
  request(message: WireMessage): Exchange {
    const params = message["params"];
    const exchange: Exchange = {
      method: message["method"] as string,
      params: params !== null && typeof params === "object" ? (params as Record<string, unknown>) : undefined,
      steps: [],
      times: [],
      replies: [],
    };
    this.#slots.set(exchange, this.#exchanges.push(exchange) - 1);
    return exchange;
  }

  /** A server message for an open exchange: a step (notification or request) or its answer. */
  fromServer(exchange: Exchange, message: WireMessage): void {
    if (exchange.answer) return;
    if (isResponse(message) || typeof message["method"] === "string") exchange.times.push(performance.now());
    if (isResponse(message)) {
      exchange.answer = "error" in message ? { error: message["error"] as { code: number; message: string } } : { result: message["result"] };
      this.#keep(exchange);
      this.#changed();
    } else if (typeof message["method"] === "string") {
      exchange.steps.push(message);
      if (isRequest(message)) this.#asked.set(JSON.stringify(message["id"]), { exchange, step: exchange.steps.length - 1 });
    }
  }

  /** An exchange just answered: kept as an equal recent one when there is one (see the class). */
  #keep(exchange: Exchange): void {
    const slot = this.#slots.get(exchange);
    this.#slots.delete(exchange);
    if (slot === undefined || exchange.steps.length > 0) return;
    const key = `${exchange.method}\n${JSON.stringify(exchange.params) ?? ""}\n${JSON.stringify(exchange.answer)}`;
    const same = this.#recent.get(key);
    if (same !== undefined) {
      this.#exchanges[slot] = same;
      return;
    }
    this.#recent.set(key, exchange);
    if (this.#recent.size > REPEATS_REMEMBERED) this.#recent.delete(this.#recent.keys().next().value as string);
  }

  /** A client's message that is a response: its answer to a server request, kept beside that step. */
  fromClient(message: WireMessage): void {
    if (!isResponse(message)) return;
    const key = JSON.stringify(message["id"]);
    const asked = this.#asked.get(key);
    if (!asked) return;
    this.#asked.delete(key);
    const reply: ClientReply = "error" in message ? { error: message["error"] as Record<string, unknown> } : { result: message["result"] };
    if (asked.exchange.replies) asked.exchange.replies[asked.step] = reply;
  }
}

/**
 * Notifications that belong to the session, not to a request: a server sends them when it
 * likes (server-everything's tools/list_changed shortly after it starts), so they are neither
 * recorded as part of a call's stream where nothing ties them to one (stdio), nor compared as
 * one by `check`.
 */
export const SESSION_NOTIFICATIONS: ReadonlySet<string> = new Set([
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed",
  "notifications/resources/updated",
]);

/**
 * Correlates a stream of messages where nothing else says which request a server message
 * belongs to (stdio): a response by its id, a progress notification by its token, anything
 * else to the latest open request.
 */
export class Correlator {
  readonly #recording: Recording;
  readonly #open = new Map<string, Exchange>();
  readonly #tokens = new Map<string, Exchange>();

  constructor(recording: Recording) {
    this.#recording = recording;
  }

  /** A message from the client. */
  fromClient(message: WireMessage): void {
    if (isResponse(message)) return this.#recording.fromClient(message);
    if (!isRequest(message)) return;
    const exchange = this.#recording.request(message);
    this.#open.set(JSON.stringify(message["id"]), exchange);
    const token = (exchange.params?.["_meta"] as { progressToken?: unknown } | undefined)?.progressToken;
    if (token !== undefined) this.#tokens.set(JSON.stringify(token), exchange);
  }

  /** A message from the server. */
  fromServer(message: WireMessage): void {
    if (isResponse(message)) {
      const key = JSON.stringify(message["id"]);
      const exchange = this.#open.get(key);
      if (!exchange) return; // the answer to a client's answer, or to nothing
      this.#open.delete(key);
      this.#recording.fromServer(exchange, message);
      return;
    }
    // A notification of the session's (a list changed, a resource updated) belongs to no call:
    // over stdio it may land while any call is in flight, so it is not made part of one's stream.
    if (!isRequest(message) && SESSION_NOTIFICATIONS.has(String(message["method"]))) return;
    const token = message["method"] === "notifications/progress" ? (message["params"] as { progressToken?: unknown } | undefined)?.progressToken : undefined;
    const byToken = token === undefined ? undefined : this.#tokens.get(JSON.stringify(token));
    const latest = [...this.#open.values()].pop();
    const exchange = byToken && !byToken.answer ? byToken : latest;
    if (exchange) this.#recording.fromServer(exchange, message);
  }
}
