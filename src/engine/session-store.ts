/**
 * Sessions: ids issued on initialize, the version each negotiated, what its client declared,
 * and its open GET stream.
 * @module
 */

import { SessionStreams, type StreamLimits } from "./event-stream.js";
import type { SessionIdGenerator } from "../options.js";
/** Declared with the options since issue 43; re-exported for code that imports it from here. */
export type { SessionIdGenerator } from "../options.js";

/** Where server-initiated messages of a session go: the GET stream over HTTP, stdout over stdio. */
interface PushStream {
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
  /** When it was last used, as a tick of its store (orders sessions for the cap without re-inserting them). */
  lastUse: number;
  /** Every SSE stream of the session, kept for resuming. */
  readonly streams: SessionStreams;
  /** The standalone GET stream (or stdout over stdio). */
  stream: PushStream | undefined;
  /** With `auth`: who opened it (the client and user of its token); another token's requests get 404. */
  principal?: string | undefined;
}

const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/** Default cap on open sessions (most clients never send DELETE). */
const DEFAULT_MAX_SESSIONS = 1000;
/** Default idle time after which a session expires (then its id gets 404). */
const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;

/** Limits on abandoned sessions, and on the events each keeps for resuming. */
interface SessionLimits extends StreamLimits {
  readonly maxSessions?: number;
  readonly sessionIdleMs?: number;
}

/**
 * Open sessions by id. Abandoned sessions cost bounded memory: past
 * the cap the least recently used one ends, and one idle too long ends when next looked up.
 */
export class SessionStore {
  #sessions = new Map<string, Session>();
  #next = 0;
  #tick = 0;
  readonly #generator: SessionIdGenerator;
  readonly #max: number;
  readonly #idleMs: number;
  readonly #streamLimits: StreamLimits;
  /** How many sessions ended by the cap or by idling. */
  evicted = 0;
  /**
   * Who a request speaks for (with `auth`, the client and user of its bearer token), from its
   * headers: what sessions and tasks are bound to. Set by the transport that checks the tokens.
   */
  principalOf: ((headers: Readonly<Record<string, string>>) => string | undefined) | undefined;

  constructor(generator: SessionIdGenerator = "sequential", limits: SessionLimits = {}) {
    this.#generator = generator;
    this.#max = limits.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.#idleMs = limits.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.#streamLimits = { ...(limits.maxStreamBytes === undefined ? {} : { maxStreamBytes: limits.maxStreamBytes }), ...(limits.maxSessionStreamBytes === undefined ? {} : { maxSessionStreamBytes: limits.maxSessionStreamBytes }) };
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
      lastUse: ++this.#tick,
      streams: new SessionStreams(this.#streamLimits),
      stream: undefined,
    };
    this.#sessions.delete(id);
    this.#sessions.set(id, session);
    this.#evictOverCap(session);
    return session;
  }

  /** The cap, for messages. */
  get maxSessions(): number {
    return this.#max;
  }

  /**
   * Whether a new session can open without passing the cap: there is room, or a session no
   * client listens on can end for it. When every session holds a stream, none can.
   */
  hasRoom(): boolean {
    if (this.#sessions.size < this.#max) return true;
    for (const session of this.#sessions.values()) if (!session.stream?.attached) return true;
    return false;
  }

  /** Ends the least recently used sessions past the cap; never `opened`, the one just handed out. */
  #evictOverCap(opened: Session): void {
    while (this.#sessions.size > this.#max) {
      // The least recently used one that no client is listening on (a scan, only past the cap).
      let oldest: Session | undefined;
      for (const session of this.#sessions.values()) {
        if (session.stream?.attached || session === opened) continue;
        if (oldest === undefined || session.lastUse < oldest.lastUse) oldest = session;
      }
      if (oldest === undefined) return;
      this.end(oldest.id);
      this.evicted++;
    }
  }

  /** The session with this id, unless it idled out; marks it used. */
  get(id: string): Session | undefined {
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    const now = Date.now();
    if (now - session.lastSeenAt > this.#idleMs && !session.stream?.attached) {
      this.end(id);
      this.evicted++;
      return undefined;
    }
    session.lastSeenAt = now;
    session.lastUse = ++this.#tick;
    return session;
  }

  /** How many sessions are open. */
  get size(): number {
    return this.#sessions.size;
  }

  readonly #endListeners: ((id: string) => void)[] = [];

  /** Calls `listener` whenever a session ends (proxy mode ends its upstream session; push drops what it held). */
  onEnd(listener: (id: string) => void): void {
    this.#endListeners.push(listener);
  }

  /** Ends a session (and its stream); later requests with its id get 404. */
  end(id: string): boolean {
    const session = this.#sessions.get(id);
    if (!session) return false;
    for (const listener of this.#endListeners) listener(id);
    session.streams.closeAll();
    session.stream = undefined;
    this.#sessions.delete(id);
    return true;
  }

  /** The open sessions (expired ones end here first). */
  all(): Session[] {
    const now = Date.now();
    for (const [id, session] of this.#sessions) {
      if (now - session.lastSeenAt > this.#idleMs && !session.stream?.attached) {
        this.end(id);
        this.evicted++;
      }
    }
    return [...this.#sessions.values()];
  }

  /** Ends every session. */
  clear(): void {
    for (const id of [...this.#sessions.keys()]) this.end(id);
  }
}
