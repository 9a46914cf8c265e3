/**
 * One session with a real server, through the SDK's client: opened with its own `initialize`
 * (declaring its client's capabilities), any method relayed as is, the server's own requests
 * and notifications handed to the session's relay, and trouble turned into an answer that
 * names the upstream and what happened.
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import { PREFIX } from "../values/errors.js";
import { VERSION } from "../values/version.js";
import type { SessionRelay, UpstreamAnswer, UpstreamCall, UpstreamInfo } from "../engine/upstream-port.js";

/** Any result: the upstream's answer is relayed, not checked. */
const ANY_RESULT = z.looseObject({});

/** The SDK's timeout, out of the way of the mock's own (the longest a timer takes). */
const NO_SDK_TIMEOUT = 2 ** 31 - 1;

/** JSON-RPC's internal error: what the mock answers when the upstream cannot. */
const INTERNAL_ERROR = -32603;

/** A session with the upstream. */
export class UpstreamSession {
  readonly #client: Client;
  readonly #name: string;
  readonly #timeoutMs: number;
  /** Why the session ended, once it has (the next call opens a new one). */
  ended: string | undefined;
  /** Called once when the session ends by itself (the server exited, the connection closed). */
  onEnd: ((why: string) => void) | undefined;
  #closing = false;
  /** Progress of requests in flight, by the token the mock gave them upstream. */
  readonly #progress = new Map<string, (progress: Record<string, unknown>) => void>();
  #tokens = 0;

  private constructor(client: Client, name: string, timeoutMs: number) {
    this.#client = client;
    this.#name = name;
    this.#timeoutMs = timeoutMs;
  }

  /** Opens a session: connects and initializes within `timeoutMs`; rejects with a message naming the upstream. */
  static async open(transport: Transport, name: string, relay: SessionRelay, timeoutMs: number, lastWords: () => string): Promise<UpstreamSession> {
    const client = new Client({ name: "mcpmock-proxy", version: VERSION }, { capabilities: relay.clientCapabilities });
    const session = new UpstreamSession(client, name, timeoutMs);
    client.fallbackRequestHandler = async (request) => (await relay.request(request.method, request.params)) as never;
    client.fallbackNotificationHandler = async (notification) => relay.notify(notification.method, notification.params);
    client.onerror = () => {}; // what matters reaches the call that hit it, as its answer
    client.onclose = () => {
      if (session.#closing || session.ended !== undefined) return;
      const words = lastWords().trim().split("\n").slice(-1)[0];
      const cause = (transport as { closedWhy?: string }).closedWhy;
      session.ended = `the connection to ${name} closed${cause ? `: ${cause}` : ""}${words ? ` (its last words: ${JSON.stringify(words.slice(0, 200))})` : ""}`;
      session.onEnd?.(session.ended);
    };
    try {
      await client.connect(transport, { timeout: timeoutMs });
    } catch (error) {
      session.#closing = true;
      await client.close().catch(() => {});
      throw new Error(`${PREFIX} the upstream ${name} could not be reached: ${reason(error, timeoutMs)}`);
    }
    // Progress is read where it arrives, in order with the answer: the SDK's own handlers run a
    // tick later, after an answer that followed the last progress has already ended its request.
    const sdkOnMessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = message as { method?: string; params?: { progressToken?: unknown } };
      const handler = m.method === "notifications/progress" ? session.#progress.get(String(m.params?.progressToken)) : undefined;
      if (handler) {
        const { progressToken: _token, ...progress } = m.params as Record<string, unknown>;
        handler(progress);
      } else sdkOnMessage?.(message, extra);
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

  /** Relays one request; resolves with the upstream's result or error, or an error naming what went wrong. */
  async request(call: UpstreamCall): Promise<UpstreamAnswer> {
    if (this.ended !== undefined) return failure(`${PREFIX} ${call.method} was not sent: ${this.ended}.`, this.#name);
    // The mock's own timeout, started again by each progress: the SDK's would end a long call that reports progress.
    // One signal per call, let go of when it is answered: nothing stays listening on the
    // caller's signal (which may live as long as the mock), and an answered call is never cancelled.
    const abort = new AbortController();
    let timedOut = false;
    const expire = (): void => {
      timedOut = true;
      abort.abort();
    };
    const cancel = (): void => abort.abort();
    if (call.signal.aborted) abort.abort();
    else call.signal.addEventListener("abort", cancel, { once: true });
    let timer = setTimeout(expire, this.#timeoutMs);
    const token = call.onProgress ? `mcpmock-${++this.#tokens}` : undefined;
    if (token !== undefined) {
      this.#progress.set(token, (progress) => {
        clearTimeout(timer);
        timer = setTimeout(expire, this.#timeoutMs);
        call.onProgress?.(progress);
      });
    }
    try {
      const params = token === undefined ? call.params : { ...call.params, _meta: { ...(call.params?.["_meta"] as object | undefined), progressToken: token } };
      const request = params === undefined ? { method: call.method } : { method: call.method, params };
      const result = await this.#client.request(request as never, ANY_RESULT, { signal: abort.signal, timeout: NO_SDK_TIMEOUT });
      return { result: result as Record<string, unknown> };
    } catch (error) {
      if (error instanceof McpError && isServerError(error)) {
        return { error: error.data === undefined ? { code: error.code, message: stripPrefix(error.message) } : { code: error.code, message: stripPrefix(error.message), data: error.data } };
      }
      const why = timedOut ? `no answer within ${this.#timeoutMs} ms` : call.signal.aborted ? "the call was cancelled" : (this.ended ?? reason(error, this.#timeoutMs));
      return failure(`${PREFIX} the upstream ${this.#name} did not answer ${call.method}: ${why}.`, this.#name);
    } finally {
      clearTimeout(timer);
      call.signal.removeEventListener("abort", cancel);
      if (token !== undefined) this.#progress.delete(token);
    }
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

/** The SDK's own errors (timeout, closed connection) are not the server's answer. */
function isServerError(error: McpError): boolean {
  return error.code !== -32001 && error.code !== -32000;
}

/** The SDK puts "MCP error <code>: " before the server's message. */
function stripPrefix(message: string): string {
  return message.replace(/^MCP error -?\d+: /, "");
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

/** An answer for a call the upstream could not answer. */
export function failure(message: string, upstream: string): UpstreamAnswer {
  return { error: { code: INTERNAL_ERROR, message, data: { upstream } } };
}
