/**
 * Sessions: ids issued on initialize, the version each negotiated, what its client declared,
 * and its open GET stream.
 * @module
 */

import { SessionStreams } from "./event-stream.js";

/** Where server-initiated messages of a session go: the GET stream over HTTP, stdout over stdio. */
export interface PushStream {
  /** Sends one JSON-RPC message. */
  emit(json: string): unknown;
  /** A client is listening now. */
  readonly attached: boolean;
}

/** One client session. */
export interface Session {
  readonly id: string;
  readonly protocolVersion: string;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  readonly clientInfo: Readonly<Record<string, unknown>> | undefined;
  /** `notifications/initialized` arrived. */
  initialized: boolean;
  /** The level from the client's `logging/setLevel` (log steps below it are not sent). */
  logLevel: "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency" | undefined;
  readonly createdAt: number;
  lastSeenAt: number;
  /** Every SSE stream of the session, kept for resuming. */
  readonly streams: SessionStreams;
  /** The standalone GET stream (or stdout over stdio). */
  stream: PushStream | undefined;
}

/** How stateful session ids are made: deterministic (`session-1`, ...) by default. */
export type SessionIdGenerator = "sequential" | "uuid" | (() => string);

const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

export class SessionStore {
  #sessions = new Map<string, Session>();
  #next = 0;
  readonly #generator: SessionIdGenerator;

  constructor(generator: SessionIdGenerator = "sequential") {
    this.#generator = generator;
  }

  /** A fresh id from the generator. */
  nextId(): string {
    if (this.#generator === "uuid") return crypto.randomUUID();
    if (typeof this.#generator === "function") return this.#generator();
    return `session-${++this.#next}`;
  }

  /** Opens a session; the id must be visible ASCII (the spec's rule). */
  open(init: Pick<Session, "protocolVersion" | "clientCapabilities" | "clientInfo"> & { id?: string }): Session {
    const id = init.id ?? this.nextId();
    if (!VISIBLE_ASCII.test(id)) {
      throw new Error(`session id ${JSON.stringify(id)} must be visible ASCII (0x21-0x7E), as MCP requires`);
    }
    this.#sessions.get(id)?.streams.closeAll();
    const now = Date.now();
    const session: Session = {
      id,
      protocolVersion: init.protocolVersion,
      clientCapabilities: init.clientCapabilities,
      clientInfo: init.clientInfo,
      initialized: false,
      logLevel: undefined,
      createdAt: now,
      lastSeenAt: now,
      streams: new SessionStreams(),
      stream: undefined,
    };
    this.#sessions.set(id, session);
    return session;
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  /** Ends a session (and its stream); later requests with its id get 404. */
  end(id: string): boolean {
    const session = this.#sessions.get(id);
    if (!session) return false;
    session.streams.closeAll();
    session.stream = undefined;
    this.#sessions.delete(id);
    return true;
  }

  all(): Session[] {
    return [...this.#sessions.values()];
  }

  /** Ends every session. */
  clear(): void {
    for (const id of [...this.#sessions.keys()]) this.end(id);
  }
}
