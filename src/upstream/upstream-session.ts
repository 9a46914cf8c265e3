/**
 * One session with a real server: opened by the SDK's client with its own `initialize`
 * (declaring its client's capabilities), the server's own requests and notifications handed by
 * that client to the session's relay; a relayed request goes on the transport itself, its
 * answer taken where it arrives and passed on as the server sent it (not checked a second
 * time), and trouble turned into an answer that names the upstream and what happened.
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { PREFIX } from "../values/errors.js";
import { VERSION } from "../values/version.js";
import { failure, type SessionRelay, type UpstreamAnswer, type UpstreamCall, type UpstreamInfo } from "../engine/upstream-port.js";
import { InFlight } from "../values/in-flight.js";

/** A message from the upstream, as far as a relay reads it. */
type Message = { method?: string; id?: string | number; params?: Record<string, unknown>; result?: unknown; error?: unknown };

/** A relayed request's outcome: the upstream's answer, or why none came (in words). */
type Settled = { readonly message: Message } | { readonly why: string };

/** A session with the upstream. */
export class UpstreamSession {
  readonly #client: Client;
  readonly #transport: Transport;
  readonly #name: string;
  readonly #timeoutMs: number;
  /** The mock's own words on trouble, as it may show them (the upstream's credentials replaced). */
  readonly #redact: (text: string) => string;
  /** Why the session ended, once it has (the next call opens a new one). */
  ended: string | undefined;
  /** Called once when the session ends by itself (the server exited, the connection closed). */
  onEnd: ((why: string) => void) | undefined;
  #closing = false;
  /** Progress of requests in flight, by the token the mock gave them upstream. */
  readonly #progress = new InFlight<(progress: Record<string, unknown>) => void>();
  #tokens = 0;
  /** Relayed requests in flight, by the id the mock gave them upstream. */
  readonly #pending = new InFlight<(settled: Settled) => void>();
  /** The last id given upstream (the SDK's `initialize` took 0). */
  #ids = 0;

  private constructor(client: Client, transport: Transport, name: string, timeoutMs: number, redact: (text: string) => string) {
    this.#client = client;
    this.#transport = transport;
    this.#name = name;
    this.#timeoutMs = timeoutMs;
    this.#redact = redact;
  }

  /**
   * Opens a session: connects and initializes within `timeoutMs`; rejects with a message naming
   * the upstream. `redact` is applied to what the session says of trouble (which may quote the
   * server's last words) before a call's answer carries it.
   */
  static async open(transport: Transport, name: string, relay: SessionRelay, timeoutMs: number, lastWords: () => string, redact: (text: string) => string = (text) => text): Promise<UpstreamSession> {
    const client = new Client({ name: "mcpmock-proxy", version: VERSION }, { capabilities: relay.clientCapabilities });
    const session = new UpstreamSession(client, transport, name, timeoutMs, redact);
    client.fallbackRequestHandler = async (request) => (await relay.request(request.method, request.params)) as never;
    client.fallbackNotificationHandler = async (notification) => relay.notify(notification.method, notification.params);
    client.onerror = () => {}; // what matters reaches the call that hit it, as its answer
    client.onclose = () => {
      if (!session.#closing && session.ended === undefined) {
        // Redacted before it is cut: a cut in the middle of a secret would leave a part of it.
        const words = redact(lastWords()).trim().split("\n").slice(-1)[0];
        const cause = (transport as { closedWhy?: string }).closedWhy;
        session.ended = `the connection to ${name} closed${cause ? `: ${cause}` : ""}${words ? ` (its last words: ${JSON.stringify(words.slice(0, 200))})` : ""}`;
        session.onEnd?.(session.ended);
      }
      // Requests in flight get no answer now.
      const pending = session.#pending.values();
      session.#pending.clear();
      for (const settle of pending) settle({ why: session.ended ?? "the connection closed" });
    };
    try {
      await client.connect(transport, { timeout: timeoutMs });
    } catch (error) {
      session.#closing = true;
      await client.close().catch(() => {});
      throw new Error(`${PREFIX} the upstream ${name} could not be reached: ${reason(error, timeoutMs)}`);
    }
    // A relayed request's answer and progress are read where they arrive, in order: the SDK's own
    // handlers would check each answer again, and run a tick later, after an answer that followed
    // the last progress has already ended its request. The rest (the server's own requests and
    // notifications) goes to the SDK's client.
    const sdkOnMessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = message as Message;
      if (m.method === undefined) {
        const settle = m.id === undefined ? undefined : session.#pending.get(typeof m.id === "number" ? m.id : Number(m.id));
        if (settle) {
          session.#pending.delete(Number(m.id));
          settle({ message: m });
          return;
        }
      } else if (m.method === "notifications/progress") {
        const handler = session.#progress.get(String(m.params?.["progressToken"]));
        if (handler) {
          const { progressToken: _token, ...progress } = m.params as Record<string, unknown>;
          handler(progress);
          return;
        }
      }
      sdkOnMessage?.(message, extra);
    };
    return session;
  }

  /** What the upstream said it is. */
  get info(): UpstreamInfo {
    return {
      capabilities: (this.#client.getServerCapabilities() ?? {}) as Record<string, unknown>,
      serverInfo: this.#client.getServerVersion() as Record<string, unknown> | undefined,
      instructions: this.#client.getInstructions(),
    };
  }

  /**
   * Relays one request; resolves with the upstream's result or error, or an error naming what
   * went wrong. One promise a call: what it set up (its timer, its progress handler, its listener
   * on the caller's signal) is undone where it settles.
   */
  request(call: UpstreamCall): Promise<UpstreamAnswer> {
    if (this.ended !== undefined) return Promise.resolve(this.#failure(`${PREFIX} ${call.method} was not sent: ${this.ended}.`));
    const signal = call.signal;
    if (signal?.aborted) return Promise.resolve(this.#notAnswered(call.method, abortReason(signal)));
    const id = ++this.#ids;
    const token = call.onProgress ? `mcpmock-${++this.#tokens}` : undefined;
    return new Promise<UpstreamAnswer>((resolve) => {
      // The mock's own timeout, started again by each progress. Nothing stays listening on the
      // caller's signal once the call is answered, and an answered call is never cancelled.
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      const settle = (settled: Settled): void => {
        clearTimeout(timer);
        if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
        if (token !== undefined) this.#progress.delete(token);
        resolve("why" in settled ? this.#notAnswered(call.method, settled.why) : this.#answer(settled.message, call.method));
      };
      this.#pending.set(id, settle);
      // No answer will come (cancelled, timed out): the upstream is told, the call answered.
      const stop = (why: string): void => {
        if (!this.#pending.delete(id)) return;
        this.#transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: why } }).catch(() => {});
        settle({ why });
      };
      try {
        timer = setTimeout(() => stop(`no answer within ${this.#timeoutMs} ms`), this.#timeoutMs);
        if (token !== undefined) {
          this.#progress.set(token, (progress) => {
            timer?.refresh();
            call.onProgress?.(progress);
          });
        }
        call.cancelWith?.(stop);
        if (signal !== undefined) {
          onAbort = () => stop(abortReason(signal));
          signal.addEventListener("abort", onAbort, { once: true });
        }
        const params = token === undefined ? call.params : { ...call.params, _meta: { ...(call.params?.["_meta"] as object | undefined), progressToken: token } };
        const request = params === undefined ? { jsonrpc: "2.0" as const, id, method: call.method } : { jsonrpc: "2.0" as const, id, method: call.method, params };
        this.#transport.send(request).catch((error: unknown) => {
          // Not sent: the connection's end, when it ended, says why better than the write.
          if (this.#pending.delete(id)) settle({ why: this.ended ?? reason(error, this.#timeoutMs) });
        });
      } catch (error) {
        if (this.#pending.delete(id)) settle({ why: reason(error, this.#timeoutMs) });
      }
    });
  }

  /** The mock's word that a call went unanswered, and why. */
  #notAnswered(method: string, why: string): UpstreamAnswer {
    return this.#failure(`${PREFIX} the upstream ${this.#name} did not answer ${method}: ${why}.`);
  }

  /** The mock's word on trouble, as the client gets it: the upstream's credentials replaced. */
  #failure(text: string): UpstreamAnswer {
    return failure(this.#redact(text), this.#name);
  }

  /** The upstream's answer as the client gets it: its result or its error as it sent them. */
  #answer(message: Message, method: string): UpstreamAnswer {
    if ("error" in message) {
      const e = message.error as { code?: unknown; message?: unknown; data?: unknown } | null;
      if (e === null || typeof e !== "object" || typeof e.code !== "number" || typeof e.message !== "string") return this.#notAnswered(method, `it answered with an error that is not a JSON-RPC error (${preview(message.error, this.#redact)})`);
      // The SDK's own codes (a timeout, a closed connection) name trouble, not an answer.
      if (e.code === -32001) return this.#notAnswered(method, `no answer within ${this.#timeoutMs} ms`);
      if (e.code === -32000) return this.#notAnswered(method, e.message === "Connection closed" ? "the connection closed" : e.message);
      return { error: e.data === undefined ? { code: e.code, message: e.message } : { code: e.code, message: e.message, data: e.data } };
    }
    const result = message.result;
    if (result === null || typeof result !== "object" || Array.isArray(result)) return this.#notAnswered(method, `its result is not an object (${preview(result, this.#redact)})`);
    return { result: result as Record<string, unknown> };
  }

  /** Relays a notification (a lost one is no answer to lose). */
  notify(method: string, params: Record<string, unknown> | undefined): void {
    if (this.ended !== undefined) return;
    this.#client.notification((params === undefined ? { method } : { method, params }) as never).catch(() => {});
  }

  /** Ends the session (over HTTP a DELETE; over stdio the child process ends). */
  async close(): Promise<void> {
    this.#closing = true;
    const transport = this.#client.transport as { terminateSession?: () => Promise<void> } | undefined;
    await transport?.terminateSession?.().catch(() => {});
    await this.#client.close().catch(() => {});
  }
}

/** Why a signal aborted, in words (its reason when that is a string). */
function abortReason(signal: AbortSignal): string {
  return typeof signal.reason === "string" ? signal.reason : "the call was cancelled";
}

/** The start of a value, for a message: redacted, then cut (a cut in the middle of a secret would leave a part of it). */
function preview(value: unknown, redact: (text: string) => string): string {
  const text = redact(JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** What went wrong, in a few words. */
function reason(error: unknown, timeoutMs: number): string {
  if (error instanceof McpError && error.code === -32001) return `no answer within ${timeoutMs} ms`;
  if (error instanceof McpError && error.code === -32000) return /^MCP error -32000: Connection closed$/.test(error.message) ? "the connection closed" : error.message.replace(/^MCP error -?\d+: /, "");
  const e = error as { message?: string; code?: unknown; cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  let text = String(e.message ?? error).replace(/^MCP error -?\d+: /, "");
  // The SDK's HTTP errors carry the status as their code.
  if (typeof e.code === "number" && e.code >= 100 && e.code < 600) text = `HTTP ${e.code} (${text})`;
  return cause && !text.includes(cause) ? `${text} (${cause})` : text;
}
