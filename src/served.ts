/**
 * How a mock is served: its HTTP listener (unless `transport: "none"`), a stdio server, and its
 * in-memory connections; and how all of them end when the mock closes.
 * @module
 */
import type { MockCore } from "./engine/core.js";
import type { McpMockOptions } from "./options.js";
import { McpMockError } from "./values/errors.js";
import { authOf, type MockAuth } from "./auth/mock-auth.js";

export type { MockAuth } from "./auth/mock-auth.js";
import { HttpTransport } from "./transports/http/streamable.js";
import { listen, type Listening } from "./transports/http/listener.js";
import { StdioTransport, type StdioStreams } from "./transports/stdio.js";
import { MemoryTransports, type MemoryClientTransport } from "./transports/memory.js";

/** The transports of one mock. */
export class Served {
  readonly #core: MockCore;
  /** The Streamable HTTP endpoint, unless `transport: "none"`. */
  readonly http: HttpTransport | undefined;
  readonly #server: Listening | undefined;
  #stdio: StdioTransport | undefined;
  readonly #memory: MemoryTransports;
  /** The MCP endpoint's URL, when there is a listener. */
  readonly url: string | undefined;

  private constructor(core: MockCore, http: HttpTransport | undefined, server: Listening | undefined) {
    this.#core = core;
    this.http = http;
    this.#server = server;
    this.#memory = new MemoryTransports(core);
    const host = server?.host.includes(":") ? `[${server.host}]` : server?.host;
    this.url = server ? `http://${host}:${server.port}${core.options.path ?? "/mcp"}` : undefined;
    if (this.url !== undefined) core.apps.setOrigin(new URL(this.url).origin);
  }

  /** Listens as the options say (no listener with `transport: "none"`). */
  static async start(core: MockCore, options: McpMockOptions): Promise<Served> {
    if (options.transport === "none") return new Served(core, undefined, undefined);
    const http = new HttpTransport(core);
    const server = await listen((req, env) => http.app.fetch(req, env), options.port ?? 0, options.host ?? "127.0.0.1");
    return new Served(core, http, server);
  }

  /** `mock.url`: the MCP endpoint, or an error saying how to connect a mock that listens on no port. */
  endpointUrl(): string {
    if (this.url !== undefined) return this.url;
    throw new McpMockError(
      `mock.url: this mock was started with transport: "none", so it listens on no port and has no URL. ` +
        `Connect a client in memory instead: await client.connect(mock.clientTransport()); or start it without transport: "none" to get an HTTP URL.`,
    );
  }

  /** The legacy HTTP+SSE endpoint's URL (`mock.sseUrl`); throws without a listener or with `legacySse: false`. */
  sseUrl(): string {
    if (this.http && this.url !== undefined) return this.http.sseUrl(this.url);
    throw new McpMockError('sseUrl: this mock listens on no port (transport: "none"), so it serves no HTTP+SSE endpoint.');
  }

  /** `mock.auth`: the HTTP transport's authorization side, or an error naming the `auth` option. */
  get auth(): MockAuth {
    return authOf(this.http);
  }

  /** The listener's port, 0 without one. */
  get port(): number {
    return this.#server?.port ?? 0;
  }

  /** A new in-memory connection: its client end. */
  clientTransport(): MemoryClientTransport {
    return this.#memory.open();
  }

  /**
   * @internal Serves stdio on these streams; resolves when the input closes. One pair at a
   * time: another may follow once the last is done (a client that probes the era on a
   * short-lived process first, then starts its own).
   */
  serveStdio(io: StdioStreams, onCrash: () => void): Promise<void> {
    if (this.#stdio) throw new McpMockError("serveStdio: this mock already serves stdio.");
    const stdio = new StdioTransport(this.#core, io);
    this.#stdio = stdio;
    stdio.onCrash = onCrash;
    return stdio.done.then(() => {
      if (this.#stdio === stdio) this.#stdio = undefined;
    });
  }

  /** Ends every stream and connection of every transport, then the listener. */
  async close(): Promise<void> {
    this.http?.closeStreams();
    this.#stdio?.close();
    this.#memory.closeAll();
    this.#core.sessions.clear();
    await this.#server?.close();
  }
}
