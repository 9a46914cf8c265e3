/**
 * Proxy mode's plan played: the call goes to the upstream on its session's upstream session,
 * its progress comes back as it flows (a streamed answer, with the client's own token), and the
 * upstream's answer becomes the call's (altered by the stub's transform, or merged with the
 * mock's declared items for a list). The upstream's own notifications and requests go to the
 * client: on the stream of a call in flight, else on the session's push stream.
 * @module
 */
import type { McpCall } from "../stubs/call.js";
import type { RequestId } from "../protocol/jsonrpc.js";
import type { ProxyPlan } from "../stubs/stub.js";
import { PREFIX } from "../values/errors.js";
import { assertJsonCarriable, isJsonObject } from "../values/json-value.js";
import { resultResponse, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import { ErrorCodes, supportedRevision } from "../protocol/revisions.js";
import type { ClientRequests } from "./client-requests.js";
import type { Outcome } from "./outcome.js";
import type { JournalEntry } from "../journal/entry.js";
import type { Push } from "./push.js";
import { errorMessage } from "./selection.js";
import type { SessionStore } from "./session-store.js";
import type { StreamSink } from "./stream-player.js";
import { failure, type SessionRelay, type UpstreamAnswer, type UpstreamInfo, type UpstreamPort } from "./upstream-port.js";
import { InFlight } from "../values/in-flight.js";

/** What a journal entry of a proxied call keeps of the upstream. */
interface UpstreamNote {
  /** The upstream's answer, before any transform: `{ result }` or `{ error }`. */
  readonly answer: UpstreamAnswer;
  /** Milliseconds the upstream took. */
  readonly durationMs: number;
}

/** What proxied answers read from the mock. */
export interface ProxiedSource {
  readonly upstream: UpstreamPort;
  readonly sessions: SessionStore;
  readonly requests: ClientRequests;
  readonly push: Push;
  readonly closing: AbortSignal;
  /** An outcome as the call's era sends it (2026-07-28 results completed). */
  complete(outcome: Outcome, call: McpCall): Outcome;
}

/** Pages of the upstream's tools/list read to learn its tools' schemas. */
const MAX_TOOL_PAGES = 20;

/** The field that names an item of each list, for merging. */
const ITEM_KEYS = ["name", "uri", "uriTemplate"] as const;

/** Plays proxied answers. */
export class ProxiedAnswers {
  readonly #src: ProxiedSource;
  /** Streamed proxied calls in flight, by session key: where that session's upstream traffic goes first. */
  readonly #sinks = new InFlight<StreamSink[]>();
  readonly #relays = new Map<string, SessionRelay>();
  /** What ends each proxied call in flight, by session key and request id, for `notifications/cancelled` and closing. */
  readonly #cancels = new InFlight<(why: string) => void>();
  /**
   * What the upstream answered each call, until {@link mark} takes it out. Taken out, not left
   * for the WeakMap to drop: it drops an entry only at a full GC, so until then its table grew
   * by every call and each young-generation GC walked it; a proxied call cost 1.2x the CPU
   * (51-57 µs against 42-46, fast upstream, 32 connections, 2026-12-07).
   */
  readonly #notes = new WeakMap<McpCall, UpstreamNote>();
  /** Whether each upstream tool declares an outputSchema, as its tools/list answers said (stubs of its tools are wrapped by it). */
  readonly #outputSchemas = new Map<string, boolean>();
  /** The upstream's tools asked for once, for a stub answering a tool no list has named yet. */
  #learning: Promise<void> | undefined;

  constructor(source: ProxiedSource) {
    this.#src = source;
    // One listener for every call in flight, not one per call.
    source.closing.addEventListener(
      "abort",
      () => {
        for (const cancel of this.#cancels.values()) cancel("the mock is closing");
      },
      { once: true },
    );
  }

  /** Marks the journal entry of a call the upstream answered: `proxied`, and the upstream's answer and time. */
  mark(call: McpCall, entry: JournalEntry): void {
    const note = this.#notes.get(call);
    if (note === undefined) return;
    this.#notes.delete(call);
    entry.proxied = true;
    entry.upstream = note;
  }

  /** What the upstream can do, as its first session said (until then, everything a proxied call may need). */
  upstreamCapabilities(): Record<string, unknown> {
    return this.#src.upstream.info?.capabilities ?? { tools: {}, resources: {}, prompts: {}, logging: {}, completions: {} };
  }

  /** What the upstream said it is, once a session with it opened. */
  upstreamInfo(): UpstreamInfo | undefined {
    return this.#src.upstream.info;
  }

  /**
   * Whether the upstream's tool `name` declares an outputSchema, as its tools/list said:
   * `undefined` when no list has named it yet (see {@link learnTools}).
   */
  upstreamOutputSchema(name: string): boolean | undefined {
    return this.#outputSchemas.get(name);
  }

  /**
   * Asks the upstream for its tools once (every page, on the call's session), so that a stub's
   * answer for one of them is wrapped as the upstream declares it; a failure leaves them unknown.
   */
  learnTools(call: McpCall): Promise<void> {
    this.#learning ??= (async () => {
      let cursor: unknown;
      for (let page = 0; page < MAX_TOOL_PAGES; page++) {
        const answer = await this.#src.upstream.request({ sessionKey: call.sessionId ?? "", method: "tools/list", params: cursor === undefined ? {} : { cursor }, relay: this.#relay(call.sessionId ?? "", call) });
        if ("error" in answer) return;
        this.#noteTools(answer.result);
        cursor = answer.result["nextCursor"];
        if (typeof cursor !== "string") return;
      }
    })().catch(() => undefined);
    return this.#learning;
  }

  /** Notes each listed tool's outputSchema. */
  #noteTools(result: Record<string, unknown>): void {
    const tools = Array.isArray(result["tools"]) ? (result["tools"] as unknown[]) : [];
    for (const tool of tools) if (isJsonObject(tool) && typeof tool["name"] === "string") this.#outputSchemas.set(tool["name"], isJsonObject(tool["outputSchema"]));
  }

  /** Plays a proxy plan: `own` is the mock's built-in answer, for a plan that merges a list. */
  play(plan: ProxyPlan, call: McpCall, own?: () => Outcome | Promise<Outcome>): Outcome | Promise<Outcome> {
    const key = call.sessionId ?? "";
    const token = (call.params?.["_meta"] as Record<string, unknown> | undefined)?.["progressToken"];
    const cancelKey = `${key}\u0000${String(call.id)}`;
    // What ends the call is kept while it is in flight: a client's cancel, the mock closing (see
    // the constructor), the end of a streamed call's own stream (`signal`).
    const cancelWith = (cancel: (why: string) => void): void => void this.#cancels.set(cancelKey, cancel);
    const ask = async (signal?: AbortSignal, onProgress?: (p: Record<string, unknown>) => void): Promise<Outcome> => {
      if (this.#src.closing.aborted) return this.#outcome(plan, call, failure(`${PREFIX} the mock is closing; ${call.method} was not sent to ${this.#src.upstream.name}.`, this.#src.upstream.name), own);
      const started = Date.now();
      try {
        const params = token === undefined ? call.params : withoutProgressToken(call.params as Record<string, unknown>);
        const answer = await this.#src.upstream.request({ sessionKey: key, method: call.method, params, relay: this.#relay(key, call), cancelWith, signal, onProgress });
        this.#notes.set(call, { answer, durationMs: Date.now() - started });
        return this.#outcome(plan, call, answer, own);
      } finally {
        this.#cancels.delete(cancelKey);
      }
    };
    if (token === undefined) return ask();
    return {
      kind: "stream",
      run: async (sink) => {
        const open = this.#sinks.get(key) ?? [];
        this.#sinks.set(key, [...open, sink]);
        try {
          const outcome = this.#src.complete(await ask(sink.signal, (p) => sink.send({ jsonrpc: "2.0", method: "notifications/progress", params: { ...p, progressToken: token } })), call);
          sink.send(outcome.kind === "message" || outcome.kind === "fault" ? outcome.message : errorMessage(call, ErrorCodes.InternalError, `${PREFIX} a proxied answer cannot be ${outcome.kind}.`));
        } finally {
          const left = (this.#sinks.get(key) ?? []).filter((s) => s !== sink);
          if (left.length === 0) this.#sinks.delete(key);
          else this.#sinks.set(key, left);
        }
      },
    };
  }

  /** The upstream's answer to a call as one message (for a fault to break on the way back). */
  async message(call: McpCall): Promise<JsonRpcResponse> {
    const outcome = await this.play({ kind: "proxy" }, call);
    if (outcome.kind === "message") return outcome.message;
    // A call with a progress token: its progress is dropped, its answer kept.
    let last: unknown;
    await (outcome as Extract<Outcome, { kind: "stream" }>).run({ send: (m) => (last = m), signal: this.#src.closing });
    return last as JsonRpcResponse;
  }

  /** A client's notification, to its upstream session (cancellations end the proxied call they name). */
  notify(call: McpCall): void {
    const key = call.sessionId ?? "";
    if (call.method === "notifications/cancelled") {
      this.#cancels.get(`${key}\u0000${String(call.params?.["requestId"])}`)?.("the call was cancelled");
      return;
    }
    // The upstream session opens with its client's (the SDK sends its own notifications/initialized).
    if (call.method === "notifications/initialized") {
      if (key !== "") this.#src.upstream.open(key, this.#relay(key, call));
    } else this.#src.upstream.notify(key, call.method, call.params);
  }

  /** Ends every upstream session, for `close()`. */
  close(): Promise<void> {
    return this.#src.upstream.close();
  }

  /** A client session ended: its upstream session ends too. */
  endSession(sessionId: string): void {
    this.#relays.delete(sessionId);
    this.#src.upstream.endSession(sessionId);
  }

  /** The call's outcome from the upstream's answer: at once, unless the plan merges or transforms it. */
  #outcome(plan: ProxyPlan, call: McpCall, answer: UpstreamAnswer, own: (() => Outcome | Promise<Outcome>) | undefined): Outcome | Promise<Outcome> {
    if ("error" in answer) return { kind: "message", message: errorMessage(call, answer.error.code, answer.error.message, answer.error.data) };
    if (call.method === "tools/list") this.#noteTools(answer.result);
    const merges = plan.merge !== undefined && own !== undefined && call.params?.["cursor"] === undefined;
    return merges || plan.transform ? this.#altered(plan, call, answer.result, merges ? own : undefined) : resultOutcome(call, answer.result);
  }

  /** The upstream's result merged with the mock's own list (`own`, when given) and transformed, as the plan says. */
  async #altered(plan: ProxyPlan, call: McpCall, upstream: Record<string, unknown>, own: (() => Outcome | Promise<Outcome>) | undefined): Promise<Outcome> {
    let result: unknown = upstream;
    if (own !== undefined && plan.merge !== undefined) {
      const mine = await own();
      const ownResult = mine.kind === "message" && "result" in mine.message ? mine.message.result : undefined;
      result = merged(upstream, ownResult, plan.merge);
    }
    if (plan.transform) {
      const where = "the transform of .proxies(...)";
      result = await plan.transform(result as Record<string, unknown>, call);
      assertJsonCarriable(result, where, "returned value");
    }
    return resultOutcome(call, result);
  }

  /** Where a session's upstream traffic goes: a streamed call of it in flight, else its push stream. */
  #relay(key: string, call: McpCall): SessionRelay {
    const found = this.#relays.get(key);
    if (found) return found;
    const { sessions, requests, push } = this.#src;
    const session = key === "" ? undefined : sessions.get(key);
    const sinkOf = (): StreamSink | undefined => this.#sinks.get(key)?.at(-1);
    const relay: SessionRelay = {
      clientCapabilities: { ...(session?.clientCapabilities ?? {}) },
      notify: (method, params) => {
        const message = params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
        const sink = sinkOf();
        if (sink) sink.send(message);
        else if (key === "") push.subscriptions.deliver(method, params);
        else sessions.get(key)?.stream?.emit(JSON.stringify(message));
      },
      request: (method, params) => {
        const sink = sinkOf();
        const open = key === "" ? undefined : sessions.get(key);
        if (sink) return requests.send(method, params, open, (m) => sink.send(m), undefined, sink.signal);
        if (!open) return Promise.reject(new Error(`${PREFIX} ${method} from the upstream cannot reach the client: no call of it is in flight, and a client without a session (${call.protocolVersion}) has no push stream. Have the upstream ask while it answers a call (the request then goes back on that call's stream), or connect a 2025-11-25 client to a mock with sessions: "stateful" (the request then goes on its GET stream).`));
        return push.request(open, method, params, undefined);
      },
    };
    this.#relays.set(key, relay);
    return relay;
  }
}

/**
 * A proxied result as the call's outcome. Serialized once, here: the transport writes this JSON
 * and the journal keeps it (for the answer and the upstream's note both). A 2026-07-28 result is
 * completed after, so not yet.
 */
function resultOutcome(call: McpCall, result: unknown): Outcome {
  const message = resultResponse(call.id as RequestId, result);
  return supportedRevision(call.protocolVersion).stateless ? { kind: "message", message } : { kind: "message", message, resultJson: JSON.stringify(result) };
}

/** Params without `_meta.progressToken` (the upstream gets the mock's own token). */
function withoutProgressToken(params: Record<string, unknown>): Record<string, unknown> {
  const { progressToken: _token, ...meta } = params["_meta"] as Record<string, unknown>;
  const { _meta: _old, ...rest } = params;
  return Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta };
}

/** The upstream's list with the mock's own items first; on a name both have, the mock's. */
function merged(upstream: Record<string, unknown>, own: unknown, field: string): Record<string, unknown> {
  const mine = isJsonObject(own) && Array.isArray(own[field]) ? (own[field] as unknown[]) : [];
  const theirs = Array.isArray(upstream[field]) ? (upstream[field] as unknown[]) : [];
  const idOf = (item: unknown): string | undefined => {
    if (!isJsonObject(item)) return undefined;
    for (const k of ITEM_KEYS) if (typeof item[k] === "string") return item[k];
    return undefined;
  };
  const taken = new Set(mine.map(idOf).filter((id) => id !== undefined));
  return { ...upstream, [field]: [...mine, ...theirs.filter((item) => !taken.has(idOf(item) as string))] };
}
