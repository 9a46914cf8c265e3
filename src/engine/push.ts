/**
 * Server-initiated traffic outside a request: `notify()`, `mock.request()` and `list_changed`,
 * to the sessions' push streams (the GET stream over HTTP, stdout over stdio), waiting a while
 * for a client to open one.
 * @module
 */
import { McpMockError, PREFIX } from "../values/errors.js";
import { JsonRpcFailure } from "../protocol/jsonrpc.js";
import type { ClientRequests } from "./client-requests.js";
import type { SessionStore, Session } from "./session-store.js";
import { assertClientCapability } from "./stream-player.js";
import { Subscriptions } from "./subscriptions.js";

/** How many messages wait, per session, for its push stream to open. */
const MAX_HELD = 100;

/** The sessions' push streams. */
export class Push {
  readonly #sessions: SessionStore;
  readonly #requests: ClientRequests;
  readonly #stateful: boolean;
  readonly #closing: AbortSignal;
  readonly #waiters = new Set<() => void>();
  /** Messages for sessions whose push stream is not open yet, in order (a 2025-11-25 task's requests and statuses). */
  readonly #held = new Map<string, string[]>();
  /** The 2026-07-28 listen streams, which belong to no session. */
  readonly subscriptions = new Subscriptions();

  constructor(sessions: SessionStore, requests: ClientRequests, stateful: boolean, closing: AbortSignal) {
    this.#sessions = sessions;
    this.#requests = requests;
    this.#stateful = stateful;
    this.#closing = closing;
    // A session that ends before it opens its push stream never takes what was held for it.
    sessions.onEnd((id) => this.#held.delete(id));
  }

  /** How many sessions have messages waiting for their push stream to open. */
  get heldSessions(): number {
    return this.#held.size;
  }

  /** A transport says a session's push stream opened (wakes `notify`/`request` waiting for one). */
  streamOpened(): void {
    for (const [sessionId, held] of [...this.#held]) {
      const session = this.#sessions.get(sessionId);
      if (!session) this.#held.delete(sessionId);
      else if (session.stream?.attached) {
        this.#held.delete(sessionId);
        for (const json of held) session.stream.emit(json);
      }
    }
    for (const wake of [...this.#waiters]) wake();
  }

  /**
   * Sends a message to a session's push stream now, or holds it until the stream opens (at
   * most {@link MAX_HELD} per session, the oldest dropped first): what a 2025-11-25 task sends
   * outside its request, so that a client which opens its GET stream late still gets it.
   */
  deliverWhenOpen(sessionId: string, json: string): void {
    const session = this.#sessions.get(sessionId);
    if (!session) return;
    if (session.stream?.attached) {
      session.stream.emit(json);
      return;
    }
    const held = this.#held.get(sessionId) ?? [];
    if (held.length >= MAX_HELD) held.shift();
    held.push(json);
    this.#held.set(sessionId, held);
  }

  /**
   * Tells every session with an open push stream that a list changed
   * (`notifications/tools/list_changed` and the like), as the advertised `listChanged` promises.
   */
  listChanged(list: "tools" | "resources" | "prompts"): void {
    const method = `notifications/${list}/list_changed`;
    const message = JSON.stringify({ jsonrpc: "2.0", method });
    for (const session of this.#sessions.all()) session.stream?.emit(message);
    this.subscriptions.deliver(method, undefined);
  }

  /** The sessions a push goes to: one by id, or every one; waits up to `timeout` ms for push streams to open. */
  async targets(sessionId: string | undefined, timeout: number, what: string): Promise<Session[]> {
    const sessions = this.#sessions;
    const ready = (): Session[] | undefined => {
      if (sessionId !== undefined) {
        const session = sessions.get(sessionId);
        if (!session) throw new McpMockError(`${what}: there is no session ${JSON.stringify(sessionId)}. Open sessions: ${sessions.all().map((s) => s.id).join(", ") || "none"}.`);
        return session.stream?.attached ? [session] : undefined;
      }
      const open = sessions.all().filter((s) => s.stream?.attached);
      return open.length ? open : undefined;
    };
    const now = ready();
    if (now) return now;
    if (!this.#stateful) throw new McpMockError(`${what}: a stateless mock has no sessions and no GET streams to push to. Use sessions: "stateful", or put the message in a streams() answer.`);
    return new Promise((resolve, reject) => {
      const wake = (): void => {
        try {
          const targets = ready();
          if (!targets) return;
          finish();
          resolve(targets);
        } catch (error) {
          finish();
          reject(error);
        }
      };
      const finish = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
      };
      const timer = setTimeout(() => {
        finish();
        const target = sessionId === undefined ? "any session" : `session ${JSON.stringify(sessionId)}`;
        const stateless =
          sessionId === undefined && sessions.all().length === 0
            ? " A 2026-07-28 client has no session: it hears notifications on a subscriptions/listen stream, and is asked for input only inside a call (a streams() answer's .request(...) steps become input_required rounds)."
            : "";
        reject(new McpMockError(`${what}: no GET stream opened for ${target} within ${timeout} ms. SDK clients open it after initialize; a client that never does cannot receive server-initiated messages.${stateless}`));
      }, timeout);
      this.#waiters.add(wake);
    });
  }

  /**
   * `mock.notify()`: to one session's push stream, or to every open one and every listen
   * stream whose filter lets it through (then waiting for no session while a listen stream is open).
   */
  async notify(method: string, params: Record<string, unknown> | undefined, sessionId: string | undefined, timeout: number): Promise<string[]> {
    const listeners = sessionId === undefined ? this.subscriptions.deliver(method, params).map((id) => `subscription:${String(id)}`) : [];
    // With a listen stream open, a notification its filter holds back is not a failure to deliver.
    const targets = sessionId === undefined && this.subscriptions.size > 0 ? this.#sessions.all().filter((s) => s.stream?.attached) : await this.targets(sessionId, timeout, `notify(${JSON.stringify(method)})`);
    const json = JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
    for (const session of targets) session.stream?.emit(json);
    return [...targets.map((s) => s.id), ...listeners];
  }

  /**
   * `mock.request()`: to the session named, or the only one; resolves with the client's result,
   * and turns its error (or the mock's own report) into an `McpMockError`.
   */
  async ask(method: string, params: unknown, sessionId: string | undefined, timeoutMs: number | undefined): Promise<unknown> {
    const what = `request(${JSON.stringify(method)})`;
    const open = this.#sessions.all();
    if (sessionId === undefined && open.length > 1) {
      throw new McpMockError(`${what}: ${open.length} sessions are open (${open.map((s) => s.id).join(", ")}); say which: { sessionId: "..." }.`);
    }
    const [session] = await this.targets(sessionId ?? open[0]?.id, 1000, what);
    try {
      return await this.request(session as Session, method, params, timeoutMs);
    } catch (error) {
      if (error instanceof JsonRpcFailure && error.message.startsWith(PREFIX)) throw new McpMockError(error.message);
      if (error instanceof JsonRpcFailure) throw Object.assign(new McpMockError(`${what}: the client answered with error ${error.code}: ${error.message}`), { code: error.code, data: error.data });
      throw error;
    }
  }

  /** Sends a request to one session's client on its push stream (capabilities checked) and resolves with the answer. */
  async request(session: Session, method: string, params: unknown, timeoutMs: number | undefined): Promise<unknown> {
    assertClientCapability(method, session, "mock.request()", params);
    const stream = session.stream;
    if (!stream) throw new McpMockError(`mock.request(): session ${session.id} has no open GET stream (its client closed it). To ask during a tool call instead, put .request(...) in a streams() answer.`);
    return this.#requests.send(method, params, session, (m) => stream.emit(JSON.stringify(m)), timeoutMs, this.#closing);
  }
}
