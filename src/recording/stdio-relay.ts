/**
 * The stdio recorder: it is the server a client launches. The byte relay of `upstream/`
 * spawns the real server and relays lines both ways unchanged; every JSON-RPC line it sees
 * feeds the recording.
 * @module
 */
import type { Readable, Writable } from "node:stream";
import { relayBytes, type ByteRelay } from "../upstream/stdio-relay.js";
import { Correlator, messagesIn, type Recording } from "./exchanges.js";

/** What the relay runs and where it reads and writes. */
export interface StdioRelayOptions {
  /** The real server's command. */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** Environment variables over the SDK's default environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Values the server's stderr must not show (replaced by `[redacted]`). */
  readonly secrets?: readonly string[];
  /** The client's side: its requests arrive here (the recorder's stdin). */
  readonly input: Readable;
  /** The client's side: answers go here (the recorder's stdout). */
  readonly output: Writable;
  /** Where the exchanges go. */
  readonly recording: Recording;
}

/** A running relay. */
export type StdioRelay = ByteRelay;

/**
 * Spawns the real server and relays. When the client closes its side, the server's stdin is
 * closed too; a server that does not exit within 2 s gets SIGTERM.
 *
 * @example
 * ```ts
 * import { Recording } from "./exchanges.js";
 * const relay = relayStdio({ command: "node", args: ["server.js"], input: process.stdin, output: process.stdout, recording: new Recording() });
 * await relay.exited;
 * ```
 */
export function relayStdio(options: StdioRelayOptions): StdioRelay {
  const correlator = new Correlator(options.recording);
  return relayBytes({
    command: options.command,
    args: options.args,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
    input: options.input,
    output: options.output,
    clientLine: (line) => messagesIn(line).forEach((m) => correlator.fromClient(m)),
    serverLine: (line) => messagesIn(line).forEach((m) => correlator.fromServer(m)),
  });
}
