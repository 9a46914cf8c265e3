/**
 * The in-memory transport: an SDK `Transport` for a client in the same process, connected to
 * the mock without a socket. Each {@link MemoryTransports.open} is one connection, and one
 * implicit session opened at `initialize` (as over stdio; `pipe.ts` does the work both share).
 *
 * Messages cross as a pipe carries them: as JSON text, one microtask later, in order, so
 * neither side holds the other's objects and neither sees a message before `send` returns.
 * What a fault does here (see `pipe.ts`): `connection-reset` closes the transport (the client's
 * `onclose`); `malformed-json` is text the client side cannot parse (its `onerror` with a
 * `SyntaxError`, as the SDK's stdio reader reports a bad line); `empty-response` and
 * `drop-stream-after` send nothing (more); `wrong-id` and `duplicate-response` are messages.
 * @module
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { MockCore } from "../engine/core.js";
import { PREFIX } from "../values/errors.js";
import { PipeConnection } from "./pipe.js";

/** The client's end of one in-memory connection: the SDK `Transport` `mock.clientTransport()` returns. */
export class MemoryClientTransport implements Transport {
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  /** The session the mock opened at initialize (as `Mcp-Session-Id` would name it over HTTP). */
  sessionId?: string | undefined;
  readonly #server: MemoryConnection;
  #started = false;
  #closed = false;

  /** @internal */
  constructor(server: MemoryConnection) {
    this.#server = server;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error("MemoryClientTransport already started: connect() starts it; each mock.clientTransport() is one connection.");
    if (this.#closed) throw new Error("MemoryClientTransport is closed: take a new one from mock.clientTransport().");
    this.#started = true;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error("Not connected: this in-memory connection is closed.");
    const text = JSON.stringify(message);
    queueMicrotask(() => this.#server.receive(text));
  }

  /** The version negotiated at initialize (the SDK tells every transport; a pipe carries no header). */
  setProtocolVersion(version: string): void {
    void version;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#server.stop();
    this.onclose?.();
  }

  /** @internal One message's text from the mock: parsed here, as a client's reader would. */
  deliver(text: string): void {
    queueMicrotask(() => {
      if (this.#closed) return;
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch (error) {
        this.onerror?.(error as Error);
        return;
      }
      if (typeof message !== "object" || message === null || Array.isArray(message)) {
        this.onerror?.(new Error(`not a JSON-RPC message: ${text.slice(0, 120)}`));
        return;
      }
      this.sessionId ??= this.#server.sessionId;
      this.onmessage?.(message as JSONRPCMessage);
    });
  }

  /** @internal The mock ends the connection (a reset, or close()): after what is on its way. */
  end(): void {
    queueMicrotask(() => {
      if (this.#closed) return;
      this.#closed = true;
      this.onclose?.();
    });
  }
}

/** The mock's end of one in-memory connection. */
class MemoryConnection {
  readonly #pipe: PipeConnection;
  readonly #core: MockCore;
  readonly #owner: MemoryTransports;
  readonly client: MemoryClientTransport;
  #stopped = false;

  constructor(core: MockCore, owner: MemoryTransports) {
    this.#core = core;
    this.#owner = owner;
    this.client = new MemoryClientTransport(this);
    this.#pipe = new PipeConnection(core, "memory", {
      send: (text) => this.client.deliver(text),
      reset: () => this.close(),
      log: (text) => {
        if (core.options.onUnmatched !== "silent") process.stderr.write(`${PREFIX} ${text}\n`);
      },
    }, () => core.sessions.nextId());
  }

  get sessionId(): string | undefined {
    return this.#pipe.session?.id;
  }

  receive(text: string): void {
    if (this.#stopped) return;
    this.#pipe.handle(JSON.parse(text), text).catch((error: unknown) => {
      if (!this.#stopped) process.stderr.write(`${PREFIX} error while answering in memory: ${String(error)}\n`);
    });
  }

  /** The client went away: its streams stop and its session ends. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#pipe.stop();
    const session = this.#pipe.session;
    if (session && this.#core.sessions.get(session.id) === session) this.#core.sessions.end(session.id);
    this.#owner.forget(this);
  }

  /** The mock ends the connection: the client's `onclose` fires. */
  close(): void {
    this.stop();
    this.client.end();
  }
}

/** Every in-memory connection of a mock. */
export class MemoryTransports {
  readonly #core: MockCore;
  readonly #open = new Set<MemoryConnection>();

  constructor(core: MockCore) {
    this.#core = core;
  }

  /** A new connection: the client's end of it. */
  open(): MemoryClientTransport {
    const connection = new MemoryConnection(this.#core, this);
    this.#open.add(connection);
    return connection.client;
  }

  /** @internal */
  forget(connection: MemoryConnection): void {
    this.#open.delete(connection);
  }

  /** Ends every connection (the mock closes). */
  closeAll(): void {
    for (const connection of [...this.#open]) connection.close();
  }
}
