/**
 * The stdio transport: newline-delimited JSON-RPC on stdin and stdout, through the same
 * pipeline as HTTP. Nothing but protocol goes to stdout; anything else goes to the log
 * (stderr). The session is implicit: it opens at initialize and ends when stdin closes.
 * @module
 */
import type { Readable, Writable } from "node:stream";
import type { InitializeOutcome, MockCore, RequestContext } from "../engine/core.js";
import type { RequestId } from "../stubs/call.js";
import { PREFIX } from "../values/errors.js";
import { classifyMessage } from "../protocol/jsonrpc.js";
import { OPENING_METHODS } from "../protocol/methods/index.js";
import { playOutcomes, receive, renderReply, type ReplyWriter } from "./transport.js";
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, ErrorCodes, supportedRevision } from "../protocol/revisions.js";
import type { Session } from "../engine/session-store.js";

/** How long answers in flight may still be written after stdin closes. */
export const FINISH_GRACE_MS = 2_000;

/** Longest line accepted (the SDK's stdio buffer limit). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** Where stdio writes: protocol lines, and log lines. */
export interface StdioStreams {
  readonly input: Readable;
  readonly output: Writable;
  readonly log: Writable;
}

export class StdioTransport {
  readonly #core: MockCore;
  readonly #io: StdioStreams;
  #session: Session | undefined;
  #buffer = "";
  /** Inside an over-long line: dropped up to its newline. */
  #discarding = false;
  #closed = false;
  #resolveDone!: () => void;
  /** Resolves when stdin has closed and every answer in flight is written. */
  readonly done: Promise<void>;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #abort = new AbortController();
  /** Ends the grace period of #finish at once. */
  #endGrace: (() => void) | undefined;
  /** Called for the `connection-reset` fault: the process should end as if it crashed. */
  onCrash: () => void = () => undefined;

  constructor(core: MockCore, io: StdioStreams) {
    this.#core = core;
    this.#io = io;
    this.done = new Promise((resolve) => (this.#resolveDone = resolve));
    io.input.setEncoding?.("utf8");
    io.input.on("data", (chunk: string | Buffer) => this.#onData(String(chunk)));
    io.input.on("end", () => void this.#finish());
    io.input.on("close", () => void this.#finish());
    io.input.on("error", () => void this.#finish());
  }

  #write(message: unknown): void {
    this.#line(JSON.stringify(message));
  }

  /** One line on stdout; nothing once stdout has ended (after a connection-reset fault). */
  #line(text: string): void {
    if (this.#io.output.writableEnded) return;
    this.#io.output.write(`${text}\n`);
  }

  #logLine(text: string): void {
    this.#io.log.write(`${PREFIX} ${text}\n`);
  }

  #onData(chunk: string): void {
    this.#buffer += chunk;
    let newline: number;
    while ((newline = this.#buffer.indexOf("\n")) >= 0) {
      const line = this.#buffer.slice(0, newline).replace(/\r$/, "");
      this.#buffer = this.#buffer.slice(newline + 1);
      if (this.#discarding) {
        this.#discarding = false; // the end of an over-long line
        continue;
      }
      if (Buffer.byteLength(line) > MAX_LINE_BYTES) {
        this.#logLine(`a line longer than ${MAX_LINE_BYTES} bytes was dropped.`);
        continue;
      }
      if (line.trim()) this.#track(this.#onLine(line));
    }
    if (!this.#discarding && Buffer.byteLength(this.#buffer) > MAX_LINE_BYTES) {
      this.#logLine(`a line longer than ${MAX_LINE_BYTES} bytes was dropped (up to its newline).`);
      this.#discarding = true;
    }
    if (this.#discarding) this.#buffer = "";
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => this.#logLine(`error while answering: ${String(error)}`)).finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }

  async #onLine(line: string): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.#logLine(`ignored a line that is not JSON (as the SDK does): ${line.slice(0, 120)}`);
      return;
    }
    const items = Array.isArray(parsed) ? parsed : [parsed];
    const version = this.#session?.protocolVersion;
    if (Array.isArray(parsed) && (version === undefined || !supportedRevision(version).batching)) {
      this.#logLine(
        version === undefined
          ? "ignored a batch before initialize: initialize comes alone, and only protocol 2025-03-26 has batches."
          : `ignored a batch: protocol version ${version} has no batches (only 2025-03-26 does).`,
      );
      return;
    }
    const batch = Array.isArray(parsed) ? new Set<RequestId>() : undefined;
    await Promise.all(items.map((item) => this.#onMessage(item, line, batch)));
  }

  async #onMessage(item: unknown, body: string, batch: Set<RequestId> | undefined): Promise<void> {
    const m = classifyMessage(item, body.length);
    if (m.kind === "invalid") {
      this.#logLine(`ignored an invalid JSON-RPC message: ${m.reason}`);
      return;
    }
    const isInit = m.kind === "request" && OPENING_METHODS.has(m.method);
    // The session is the connection's: its version, or the default before initialize.
    const version = isInit ? this.#core.era.negotiate(m.params?.["protocolVersion"]) : (this.#session?.protocolVersion ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION);
    const ctx: RequestContext = { session: isInit ? undefined : this.#session, sessionId: isInit ? undefined : this.#session?.id, headers: {}, protocolVersion: version, body, transport: "stdio", ...(batch ? { batch } : {}) };
    const received = receive(this.#core, m, ctx);
    // A notification's raw status has no meaning over stdio; a response has no answer.
    if (m.kind !== "request" || received === undefined) return;
    const outcome = await received;
    if (isInit && outcome.kind === "message" && outcome.initialize) this.#openSession(outcome.initialize);
    await renderReply([outcome], { batch: false, stream: false }, this.#writer(m.id));
  }

  #openSession(init: InitializeOutcome): void {
    const session = this.#core.era.open(init, "stdio").session as Session;
    session.stream = { emit: (json: string) => this.#line(json), attached: true };
    this.#session = session;
    this.#core.push.streamOpened();
  }

  /** How an answer is written as lines on stdout. */
  #writer(id: RequestId): ReplyWriter<Promise<void> | void> {
    return {
      json: (text) => void this.#line(text),
      // Lines until `dropAfter` of them are written; the rest of the stream is not.
      events: (outcomes, dropAfter) => {
        let sent = 0;
        return playOutcomes(outcomes, {
          signal: this.#abort.signal,
          send: (message) => {
            if (dropAfter !== undefined && sent >= dropAfter) return;
            sent++;
            this.#write(message);
          },
        });
      },
      // There is no HTTP status over stdio: the nearest is an error naming it.
      status: (status, body) =>
        this.#write({ jsonrpc: "2.0", id, error: { code: ErrorCodes.InternalError, message: `HTTP ${status} (respondsWithStatus has no meaning over stdio)`, data: body } }),
      reset: () => {
        this.#logLine("fault connection-reset: the server ends as if it crashed.");
        this.#io.output.end();
        this.onCrash();
      },
      raw: (text) => {
        if (text !== "") this.#line(text);
      },
    };
  }

  async #finish(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Answers already in flight get a moment to be written; long streams are then stopped.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => {
      this.#endGrace = resolve;
      timer = setTimeout(resolve, FINISH_GRACE_MS);
    });
    await Promise.race([Promise.allSettled([...this.#inFlight]), grace]);
    clearTimeout(timer);
    this.#abort.abort();
    this.#resolveDone(); // what still runs (a stub's delay) ends when the mock closes
  }

  /** Ends now (the mock is closing): answers still running are stopped, no grace. */
  close(): void {
    void this.#finish();
    this.#endGrace?.();
  }
}
