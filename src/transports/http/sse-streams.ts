/**
 * The SSE side of Streamable HTTP: answers sent as a numbered, resumable event stream of the
 * session, the standalone GET stream, and resuming either with `Last-Event-ID`.
 * @module
 */
import type { Context } from "hono";
import type { MockCore, Outcome, RequestContext } from "../../engine/core.js";
import { EventStream, parseEventId } from "../../engine/event-stream.js";
import type { Session } from "../../engine/session-store.js";
import { ErrorCodes, HeaderNames, supportedRevision } from "../../protocol/revisions.js";
import { HTTP_GET_STREAM } from "../../protocol/entry-points.js";
import { messageText, playOutcomes } from "../transport.js";
import { allHeaders, directResponse, header, nodeResponse } from "./node-io.js";
import { rejection, Rejections } from "./rejections.js";
import { channelLimits, SseChannel, type ChannelLimits } from "./sse-channel.js";
import { PREFIX } from "../../values/errors.js";

/** Default keep-alive period on idle streams. */
export const DEFAULT_KEEP_ALIVE_MS = 15_000;
/** Default `retry:` advised on SSE streams. */
export const DEFAULT_RETRY_MS = 1000;
/** How long a session's dropped stream waits to be resumed before its script is stopped. */
export const RESUME_GRACE_MS = 10_000;

/** Every open SSE connection of one HTTP transport. */
export class SseStreams {
  readonly #core: MockCore;
  readonly #channels = new Set<SseChannel>();
  readonly #graceTimers = new Set<ReturnType<typeof setTimeout>>();
  readonly #keepAliveMs: number;
  readonly #limits: ChannelLimits;

  constructor(core: MockCore) {
    this.#core = core;
    this.#keepAliveMs = core.options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
    this.#limits = channelLimits(core.options);
  }

  /** Ends every open stream now. */
  closeAll(): void {
    for (const timer of this.#graceTimers) clearTimeout(timer);
    this.#graceTimers.clear();
    for (const channel of this.#channels) channel.close();
    this.#channels.clear();
  }

  #channel(c: Context, headers: Record<string, string>): SseChannel {
    const channel = new SseChannel(headers, this.#keepAliveMs, this.#limits, directResponse(c), nodeResponse(c));
    this.#channels.add(channel);
    void channel.done.then(() => this.#channels.delete(channel));
    return channel;
  }

  /** A priming event (an id, `retry:`, empty data) for clients at 2025-11-25 or later. */
  #prime(channel: SseChannel, stream: EventStream, version: string): void {
    if (supportedRevision(version).primingEvents) channel.prime(`${stream.number}-0`, this.#core.options.sseRetryMs ?? DEFAULT_RETRY_MS);
  }

  /**
   * An answer as a numbered, resumable event stream of the session: each message an event
   * with an id; the connection may drop after `dropAfter` events while the stream goes on
   * (a client resumes it with GET and `Last-Event-ID`).
   */
  answer(c: Context, headers: Record<string, string>, session: Session | undefined, version: string, outcomes: readonly Outcome[], dropAfter?: number): Response {
    // Without a session nothing can be resumed: no ids, so clients do not try.
    const stream = session ? session.streams.open() : new EventStream(0, false);
    const channel = this.#channel(c, headers);
    if (session) this.#prime(channel, stream, version);
    let emitted = 0;
    const emit = (text: string): void => {
      stream.emit(text);
      if (dropAfter !== undefined && ++emitted === dropAfter) stream.drop();
    };
    const send = (message: unknown): void => emit(JSON.stringify(message));
    // Only a streamed answer needs to hear that the stream ended: an AbortSignal costs more
    // than the rest of a plain answer.
    if (!outcomes.some((o) => o.kind === "stream")) {
      stream.attach(channel, 0);
      if (dropAfter === 0) stream.drop();
      for (const outcome of outcomes) {
        if (outcome.kind === "message") emit(messageText(outcome));
        else if (outcome.kind === "fault") send(outcome.message);
      }
      stream.finish();
      return channel.response;
    }
    const abort = new AbortController();
    stream.attach(channel, 0, () => {
      if (stream.finished) return;
      // A client dropped for not reading is not waited for; the journal says why.
      if (channel.stalled) return abort.abort(channel.stalled);
      // A disconnect is not a cancellation: a session's stream waits a while to be resumed.
      if (!session) return abort.abort();
      const timer = setTimeout(() => {
        this.#graceTimers.delete(timer);
        if (!stream.attached && !stream.finished) abort.abort();
      }, RESUME_GRACE_MS);
      timer.unref();
      this.#graceTimers.add(timer);
    });
    if (dropAfter === 0) stream.drop();
    void playOutcomes(outcomes, { signal: abort.signal, send, ready: () => stream.ready() })
      .catch(() => undefined)
      .finally(() => stream.finish());
    return channel.response;
  }

  /**
   * A held-open stream that belongs to no session (2026-07-28 `subscriptions/listen`): its
   * messages go as they come, unnumbered; `ended` settles (and `signal` aborts) when the client goes.
   */
  hold(c: Context): { response: Response; stream: EventStream; ended: Promise<void>; signal: AbortSignal } {
    const stream = new EventStream(0, false);
    const channel = this.#channel(c, {});
    const gone = new AbortController();
    stream.attach(channel, 0, () => gone.abort());
    return { response: channel.response, stream, ended: channel.done.then(() => undefined), signal: gone.signal };
  }

  /** The standalone GET stream of a session (its openStream() script plays on it), or a resumed stream. */
  open(c: Context, session: Session, version: string): Response {
    const headers = { [HeaderNames.sessionId]: session.id };
    const lastEventId = header(c, HeaderNames.lastEventId);
    if (lastEventId !== undefined) return this.#resume(c, session, lastEventId, headers);
    if (session.stream?.attached) return Rejections.streamConflict();
    const stream = session.streams.open();
    const channel = this.#channel(c, headers);
    this.#prime(channel, stream, version);
    session.stream = stream;
    const ended = new AbortController();
    stream.attach(channel, 0, () => ended.abort());
    const core = this.#core;
    core.push.streamOpened();
    const ctx: RequestContext = { session, sessionId: session.id, headers: allHeaders(c), protocolVersion: version, body: "", transport: "http" };
    // GET streams are not journaled: clients open them on their own schedule, and they carry no request.
    const script = core.takeEventStub(HTTP_GET_STREAM, ctx);
    if (script?.plan.kind === "stream") {
      void core.playOnStream({ ...script, plan: script.plan }, session, { signal: AbortSignal.any([ended.signal, core.closing.signal]), send: (m) => stream.emit(JSON.stringify(m)), ready: () => stream.ready() });
    }
    return channel.response;
  }

  /** GET with Last-Event-ID: replays that stream's missed events, then carries it on. */
  #resume(c: Context, session: Session, lastEventId: string, headers: Record<string, string>): Response {
    const parsed = parseEventId(lastEventId);
    const stream = parsed && session.streams.get(parsed.stream);
    if (!parsed || !stream) {
      return rejection(400, ErrorCodes.TransportError, "Invalid event ID format", `[mcpmock] Last-Event-ID ${JSON.stringify(lastEventId)} names no stream of ${session.id} that can be resumed.`);
    }
    if (stream.attached) return Rejections.resumeConflict();
    const channel = this.#channel(c, headers);
    // Events dropped to the byte bound cannot be replayed: say so, on the stream and on stderr.
    const missed = stream.missedAfter(parsed.seq);
    if (missed) {
      const what = `Last-Event-ID ${lastEventId}: events ${parsed.stream}-${missed.from} to ${parsed.stream}-${missed.to} of ${session.id} were dropped (a stream keeps at most maxStreamBytes of events, a session maxSessionStreamBytes); the replay starts after them.`;
      channel.comment(`mcpmock: ${what}`);
      if (this.#core.options.onUnmatched !== "silent") process.stderr.write(`${PREFIX} ${what}\n`);
    }
    stream.attach(channel, parsed.seq);
    if (session.streams.get(parsed.stream) === session.stream) this.#core.push.streamOpened();
    return channel.response;
  }
}
