/**
 * The message tap: the wire tap's counterpart for a client over stdio or in memory. It records
 * every JSON-RPC message the client sends, in order, and lets a scenario answer one itself (a
 * server behaviour the mock rightly never has, such as a result without `resultType`) instead
 * of passing it to the mock. Over stdio it sits on the bridge's socket, line by line; in memory
 * it wraps the SDK transport the client connects with.
 * @module
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { Transform, type TransformCallback } from "node:stream";

/** At most this many messages are recorded; older ones give way. */
const RECORDED_MESSAGE_LIMIT = 2_000;
/** A line longer than this passes on whole but is recorded as unparsed. */
const RECORDED_LINE_LIMIT = 256 * 1024;
/** The longest line the mock's stdio side takes (the SDK's limit); a longer one is dropped there, so here, up to its newline. */
const PASSED_LINE_LIMIT = 10 * 1024 * 1024;

/** A client message as the tap saw it: its JSON-RPC fields (empty when it was not JSON). */
export interface TappedMessage {
  readonly method?: string;
  readonly id?: unknown;
  readonly params?: Record<string, unknown>;
}

/** A scenario's own answer to a client message (the JSON-RPC response to send back), or `undefined` to pass it on. */
export type MessageIntercept = (message: TappedMessage) => Record<string, unknown> | undefined;

function parsed(text: string): TappedMessage {
  if (text.length > RECORDED_LINE_LIMIT) return {};
  try {
    const message = JSON.parse(text) as unknown;
    return typeof message === "object" && message !== null && !Array.isArray(message) ? (message as TappedMessage) : {};
  } catch {
    return {};
  }
}

/** Records what a client sends over stdio or in memory, and answers what `intercept` takes. */
export class MessageTap {
  /** Every message recorded, in arrival order. */
  readonly messages: TappedMessage[] = [];
  readonly #intercept: MessageIntercept | undefined;

  constructor(intercept?: MessageIntercept) {
    this.#intercept = intercept;
  }

  /** Records one message; returns the scenario's answer to it, if it takes it. */
  #receive(message: TappedMessage): Record<string, unknown> | undefined {
    this.messages.push(message);
    if (this.messages.length > RECORDED_MESSAGE_LIMIT) this.messages.shift();
    return this.#intercept?.(message);
  }

  /**
   * For the stdio bridge: the client's lines pass through to the mock, recorded; a line the
   * scenario answers goes no further, and its answer is written with `answer`.
   */
  lines(answer: (line: string) => void): Transform {
    // A line's pieces are kept as they came, as bytes: nothing is joined or searched again chunk
    // by chunk (a 60 MB line took 50 s so), and a character split between chunks stays whole.
    let parts: Buffer[] = [];
    let size = 0;
    /** Inside a line over the limit: dropped up to its newline. */
    let skipping = false;
    const receive = (line: string, out: Transform): void => {
      if (line.trim() === "") return;
      const own = this.#receive(parsed(line));
      if (own) answer(`${JSON.stringify(own)}\n`);
      else out.push(`${line}\n`);
    };
    const take = (bytes: Buffer, start: number, end: number): void => {
      if (skipping || end === start) return;
      if (size + (end - start) > PASSED_LINE_LIMIT) {
        parts = [];
        size = 0;
        skipping = true;
        return;
      }
      parts.push(bytes.subarray(start, end));
      size += end - start;
    };
    const line = (): string => {
      const text = Buffer.concat(parts, size).toString("utf8");
      parts = [];
      size = 0;
      return text;
    };
    return new Transform({
      transform(chunk: Buffer, _encoding, done: TransformCallback) {
        let start = 0;
        let newline: number;
        while ((newline = chunk.indexOf(10, start)) !== -1) {
          take(chunk, start, newline);
          if (skipping) skipping = false;
          else receive(line(), this);
          start = newline + 1;
        }
        take(chunk, start, chunk.length);
        done();
      },
      flush(done: TransformCallback) {
        if (!skipping) receive(line(), this);
        done();
      },
    });
  }

  /** In memory: `inner` (a transport from `mock.clientTransport()`), its sends recorded and answered where the scenario takes them. */
  transport(inner: Transport): Transport {
    const tap = this;
    const outer: Transport = {
      async start() {
        inner.onmessage = (message) => outer.onmessage?.(message);
        inner.onclose = () => outer.onclose?.();
        inner.onerror = (error) => outer.onerror?.(error);
        await inner.start();
      },
      async send(message) {
        const own = tap.#receive(message as TappedMessage);
        if (own) queueMicrotask(() => outer.onmessage?.(own as JSONRPCMessage));
        else await inner.send(message);
      },
      close: () => inner.close(),
      setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
      get sessionId() {
        return inner.sessionId;
      },
    };
    return outer;
  }
}
