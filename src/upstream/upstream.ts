/**
 * The upstream of a mock in proxy mode: one session with the real server per client session
 * (opened on its first proxied call, ended with it), a shared one for calls that belong to no
 * session (2026-07-28 clients), and the first session's word on what the server is.
 * @module
 */
import { PREFIX } from "../values/errors.js";
import { DEFAULT_CLIENT_TIMEOUT_MS } from "../engine/client-requests.js";
import { failure, type UpstreamAnswer, type UpstreamCall, type UpstreamInfo, type UpstreamPort } from "../engine/upstream-port.js";
import { upstreamTransport } from "./target.js";
import { upstreamName, type ProxyTarget } from "../proxy-target.js";
import { UpstreamSession } from "./upstream-session.js";
import { redactor, secretsOf, type Redactor } from "./secrets.js";
import { withWatchedProvider } from "./oauth.js";

/**
 * The upstream of a mock started with `proxy` (none without), its first session opened: a
 * server that is down is a warning on stderr, not a failure.
 */
export async function startUpstream(options: { readonly proxy?: ProxyTarget; readonly clientTimeoutMs?: number }): Promise<Upstream | undefined> {
  if (options.proxy === undefined) return undefined;
  const upstream = new Upstream(options.proxy, { timeoutMs: options.clientTimeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS });
  await upstream.probe();
  return upstream;
}

/** The stderr a stdio upstream wrote last, kept to say why it exited. */
const LAST_WORDS_CHARS = 2_000;

/** How the upstream is reached and reported. */
export interface UpstreamOptions {
  /** Milliseconds to wait for it to connect or to answer a request (the mock's `clientTimeoutMs`). */
  readonly timeoutMs: number;
  /** Where one-line reports go (a warning that it is down, that it exited); default: stderr. */
  readonly report?: (line: string) => void;
}

/** An upstream: sessions with a real server. */
export class Upstream implements UpstreamPort {
  readonly name: string;
  readonly #target: ProxyTarget;
  readonly #options: UpstreamOptions;
  readonly #sessions = new Map<string, Promise<UpstreamSession | string>>();
  /** The sessions of `#sessions` that opened, for a call to take without waiting on a promise. */
  readonly #opened = new Map<string, UpstreamSession>();
  #info: UpstreamInfo | undefined;
  /** Its credentials, replaced wherever the mock shows or writes them (never in what a client receives from it). */
  readonly #redactor: Redactor;
  #closed = false;
  /** Sessions ending (their child process given its grace, then signalled): `close()` waits for them too. */
  readonly #ending = new Set<Promise<void>>();

  constructor(target: ProxyTarget, options: UpstreamOptions) {
    this.name = upstreamName(target);
    this.#redactor = redactor(secretsOf(target));
    this.#target = withWatchedProvider(target, this.#redactor);
    this.#options = options;
  }

  get info(): UpstreamInfo | undefined {
    return this.#info;
  }

  /**
   * Opens the shared session to learn what the server is. A server that is down is a warning,
   * not a failure: calls then answer errors naming it, and it is tried again on each session.
   */
  async probe(): Promise<void> {
    const opened = await this.#session("", { clientCapabilities: {}, notify: () => {}, request: () => Promise.reject(new Error("no client to ask")) });
    if (typeof opened === "string") this.#report(`${opened.replace(PREFIX, `${PREFIX} warning:`)}; calls that go to it answer an error until it is up.`);
  }

  /**
   * Relays a call on its session's upstream session (taken without a promise hop once open).
   * The upstream's own answer reaches the client as it sent it; the mock's word on trouble
   * (which may quote the server's last words) shows no secret: the session redacts it.
   */
  request(call: UpstreamCall): Promise<UpstreamAnswer> {
    if (this.#closed) return Promise.resolve(failure(`${PREFIX} the mock is closing; ${call.method} was not sent to ${this.name}.`, this.name));
    const open = this.#opened.get(call.sessionKey);
    if (open !== undefined && open.ended === undefined) return open.request(call);
    return this.#session(call.sessionKey, call.relay).then((session) => (typeof session === "string" ? failure(this.#redactor.text(session), this.name) : session.request(call)));
  }

  /** A value as the mock may show or write it (the journal, a snapshot, a log line): its credentials replaced. */
  redact<T>(value: T): T {
    return this.#redactor.value(value);
  }

  open(sessionKey: string, relay: UpstreamCall["relay"]): void {
    if (!this.#closed) void this.#session(sessionKey, relay);
  }

  notify(sessionKey: string, method: string, params: Record<string, unknown> | undefined): void {
    void this.#sessions.get(sessionKey)?.then((s) => typeof s !== "string" && s.notify(method, params));
  }

  endSession(sessionKey: string): void {
    const session = this.#sessions.get(sessionKey);
    this.#sessions.delete(sessionKey);
    this.#opened.delete(sessionKey);
    if (session) this.#end(session);
  }

  /** Ends a session in the background, kept until it has ended (a stdio server that does not exit at its stdin's end is signalled first). */
  #end(session: Promise<UpstreamSession | string> | UpstreamSession): void {
    const ending: Promise<void> = Promise.resolve(session)
      .then((s) => (typeof s === "string" ? undefined : s.close()))
      .finally(() => this.#ending.delete(ending));
    this.#ending.add(ending);
  }

  /** Ends every upstream session (and every child process). */
  async close(): Promise<void> {
    this.#closed = true;
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    this.#opened.clear();
    for (const session of open) this.#end(session);
    // Those a client's end began are waited for too: close() leaves no child process behind.
    await Promise.all(this.#ending);
  }

  /** The open session for a key, opened if there is none (or it ended); a string says why it cannot be. */
  #session(key: string, relay: UpstreamCall["relay"]): Promise<UpstreamSession | string> {
    const found = this.#sessions.get(key);
    if (found) return found.then((s) => (typeof s === "string" || s.ended !== undefined ? this.#open(key, relay, found) : s));
    return this.#open(key, relay, undefined);
  }

  #open(key: string, relay: UpstreamCall["relay"], replacing: Promise<UpstreamSession | string> | undefined): Promise<UpstreamSession | string> {
    const current = this.#sessions.get(key);
    if (current !== undefined && current !== replacing) return current; // another call is opening it
    let words = "";
    const transport = upstreamTransport(this.#target, (chunk) => (words = (words + chunk).slice(-LAST_WORDS_CHARS)));
    const opening = UpstreamSession.open(transport, this.name, relay, this.#options.timeoutMs, () => words, (text) => this.#redactor.text(text)).then(
      (session) => {
        this.#info ??= session.info;
        if (this.#sessions.get(key) === opening) this.#opened.set(key, session);
        session.onEnd = (why) => {
          if (!this.#closed) this.#report(`${PREFIX} ${why}; the next call opens a new session${"command" in this.#target ? " (the server is started again)" : ""}.`);
        };
        if (this.#closed) this.#end(session);
        return session;
      },
      (error: Error) => {
        // Tried again by the next call.
        if (this.#sessions.get(key) === opening) this.#sessions.delete(key);
        return error.message;
      },
    );
    this.#sessions.set(key, opening);
    return opening;
  }

  #report(line: string): void {
    const shown = this.#redactor.text(line);
    (this.#options.report ?? ((l: string) => process.stderr.write(`${l}\n`)))(shown);
  }
}
