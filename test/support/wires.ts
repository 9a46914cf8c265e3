/**
 * The transports a mock serves, each behind one small shape, so the transport contract suite
 * runs the same cases over every one (as Hono runs one router suite over every router):
 *
 * - `client()`: the official SDK v1 Client connected over the transport;
 * - `raw(request)`: one request sent as bytes, and what came back for it, read as a client's
 *   parser would (messages, text that is not JSON, or the connection ending). In memory there
 *   are no bytes: a bare `mock.clientTransport()` sends it, and what its `onerror` got stands
 *   where text that is not JSON would (the error's name).
 */
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { McpMock, type McpMockOptions } from "../../src/index.js";
import { HEADERS, openSession } from "./raw-http.js";
import { LegacyStream } from "./legacy-sse.js";
import { Waiters } from "./waiters.js";

/** What came back for one raw request. */
export interface RawReply {
  /** The JSON-RPC messages that came back for it, in order. */
  readonly messages: Array<Record<string, unknown>>;
  /** Text where a message belongs that is not JSON (an empty body counts). */
  readonly garbage: string[];
  /** The connection ended without an answer (a reset, or a stdio server that died). */
  readonly ended: boolean;
}

/** One transport of a mock. */
export interface Wire {
  readonly name: "http" | "stdio" | "memory" | "sse";
  readonly mock: McpMock;
  /** The SDK v1 Client connected over this transport (one connection, one session). */
  client(capabilities?: Record<string, unknown>): Promise<Client>;
  /** Sends `request` as bytes in an initialized session and reads what came back for it. */
  raw(request: Record<string, unknown>): Promise<RawReply>;
  /** Closes the clients, then the mock. */
  close(): Promise<void>;
}

/** Starts a mock and serves it over `name`. */
export async function startWire(name: Wire["name"], options: McpMockOptions): Promise<Wire> {
  if (name === "memory") return new MemoryWire(await McpMock.start({ ...options, transport: "none" }));
  if (name === "sse") return new SseWire(await McpMock.start(options));
  return name === "http" ? HttpWire.start(options) : StdioWire.start(options);
}

const CLIENT_INFO = { name: "contract", version: "1.0.0" };

class HttpWire implements Wire {
  readonly name = "http";
  readonly #clients: Client[] = [];
  #session: Record<string, string> | undefined;

  private constructor(readonly mock: McpMock) {}

  static async start(options: McpMockOptions): Promise<HttpWire> {
    return new HttpWire(await McpMock.start(options));
  }

  async client(capabilities: Record<string, unknown> = {}): Promise<Client> {
    const client = new Client(CLIENT_INFO, { capabilities });
    this.#clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(this.mock.url)));
    return client;
  }

  async raw(request: Record<string, unknown>): Promise<RawReply> {
    this.#session ??= (await openSession(this.mock.url)).headers;
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.mock.url, { method: "POST", headers: { ...HEADERS, ...this.#session }, body: JSON.stringify(request) });
      text = await response.text();
    } catch {
      return { messages: [], garbage: [], ended: true };
    }
    const texts = (response.headers.get("content-type") ?? "").startsWith("text/event-stream")
      ? text
          .split("\n\n")
          .flatMap((event) => event.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)))
          .filter((data) => data !== "")
      : [text];
    return parsed(texts, false);
  }

  async close(): Promise<void> {
    await Promise.all(this.#clients.map((c) => c.close()));
    await this.mock.close();
  }
}

/** The 2024-11-05 HTTP+SSE transport: the SDK's SSEClientTransport, and a raw GET /sse reader. */
class SseWire implements Wire {
  readonly name = "sse";
  readonly #clients: Client[] = [];
  readonly #streams: LegacyStream[] = [];

  constructor(readonly mock: McpMock) {}

  async client(capabilities: Record<string, unknown> = {}): Promise<Client> {
    const client = new Client(CLIENT_INFO, { capabilities });
    this.#clients.push(client);
    await client.connect(new SSEClientTransport(new URL(this.mock.sseUrl)));
    return client;
  }

  /** The message events after the request, up to the answer of a ping sent right behind it (or the stream's end). */
  async raw(request: Record<string, unknown>): Promise<RawReply> {
    const stream = await LegacyStream.open(this.mock.sseUrl);
    this.#streams.push(stream);
    await stream.initialize("2025-11-25");
    const before = stream.events.length;
    await stream.post(request);
    await stream.post({ jsonrpc: "2.0", id: "probe", method: "ping" }).catch(() => undefined);
    const probe = (data: string): boolean => data.includes('"id":"probe"');
    await stream.settle(() => stream.events.some((e) => probe(e.data)));
    const texts = stream.events.slice(before).filter((e) => e.event === "message" && !probe(e.data)).map((e) => e.data);
    return parsed(texts, stream.ended);
  }

  async close(): Promise<void> {
    await Promise.all(this.#clients.map((c) => c.close()));
    for (const stream of this.#streams) stream.close();
    await this.mock.close();
  }
}

/** An SDK Transport over a pair of streams: newline-delimited JSON, as the SDK's stdio transports frame it. */
class StreamTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #buffer = new ReadBuffer();

  constructor(
    readonly input: PassThrough,
    readonly output: PassThrough,
  ) {}

  async start(): Promise<void> {
    this.output.on("data", (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.#buffer.readMessage();
        } catch (error) {
          this.onerror?.(error as Error);
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    this.output.on("end", () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.input.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.input.end();
    this.onclose?.();
  }
}

class StdioWire implements Wire {
  readonly name = "stdio";
  readonly #clients: Client[] = [];
  #rawStarted = false;

  private constructor(
    readonly mock: McpMock,
    readonly options: McpMockOptions,
  ) {}

  static async start(options: McpMockOptions): Promise<StdioWire> {
    return new StdioWire(await McpMock.start({ ...options, transport: "none" }), options);
  }

  async client(capabilities: Record<string, unknown> = {}): Promise<Client> {
    const input = new PassThrough();
    const output = new PassThrough();
    void this.mock.serveStdio({ input, output, log: new PassThrough() });
    const client = new Client(CLIENT_INFO, { capabilities });
    this.#clients.push(client);
    await client.connect(new StreamTransport(input, output));
    return client;
  }

  /** Lines written after the request, up to the answer of a ping sent right behind it. */
  async raw(request: Record<string, unknown>): Promise<RawReply> {
    if (this.#rawStarted) throw new Error("one raw request per stdio wire: a fault may end the server");
    this.#rawStarted = true;
    const input = new PassThrough();
    const output = new PassThrough();
    const lines: string[] = [];
    let ended = false;
    let crashed = false;
    const waiters = new Waiters();
    let pending = "";
    output.setEncoding("utf8");
    output.on("data", (chunk: string) => {
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf("\n")) >= 0) {
        lines.push(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
      }
      waiters.wake();
    });
    output.on("end", () => ((ended = true), waiters.wake()));
    void this.mock.serveStdio({ input, output, log: new PassThrough() }, () => ((crashed = true), waiters.wake()));
    const send = (message: unknown): void => void input.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO } });
    await waiters.until(() => (lines.some((l) => l.includes('"id":"init"')) ? true : undefined), 2000, () => `no initialize answer: ${lines.join("\n")}`);
    lines.length = 0;
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send(request);
    send({ jsonrpc: "2.0", id: "probe", method: "ping" });
    const probe = (line: string): boolean => line.includes('"id":"probe"');
    await waiters.until(() => (lines.some(probe) || ended || crashed ? true : undefined), 2000, () => `no answer: ${lines.join("\n")}`);
    input.end();
    const reply = parsed(lines.filter((l) => !probe(l)), ended || crashed);
    return reply;
  }

  async close(): Promise<void> {
    await Promise.all(this.#clients.map((c) => c.close()));
    await this.mock.close();
  }
}

/** The mock in memory: every client gets its own `mock.clientTransport()`. */
class MemoryWire implements Wire {
  readonly name = "memory";
  readonly #clients: Client[] = [];

  constructor(readonly mock: McpMock) {}

  async client(capabilities: Record<string, unknown> = {}): Promise<Client> {
    const client = new Client(CLIENT_INFO, { capabilities });
    this.#clients.push(client);
    await client.connect(this.mock.clientTransport());
    return client;
  }

  /** What a bare transport got after the request, up to the answer of a ping sent right behind it. */
  async raw(request: Record<string, unknown>): Promise<RawReply> {
    const transport = this.mock.clientTransport();
    const messages: Array<Record<string, unknown>> = [];
    const garbage: string[] = [];
    let ended = false;
    const waiters = new Waiters();
    transport.onmessage = (message) => void (messages.push(message as Record<string, unknown>), waiters.wake());
    transport.onerror = (error) => void (garbage.push(error.name), waiters.wake());
    transport.onclose = () => void ((ended = true), waiters.wake());
    await transport.start();
    const send = (message: Record<string, unknown>): Promise<void> => transport.send(message as JSONRPCMessage).catch(() => undefined);
    await send({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO } });
    await waiters.until(() => (messages.some((m) => m["id"] === "init") ? true : undefined), 2000, () => `no initialize answer: ${JSON.stringify(messages)}`);
    messages.length = 0;
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await send(request);
    await send({ jsonrpc: "2.0", id: "probe", method: "ping" });
    const probe = (m: Record<string, unknown>): boolean => m["id"] === "probe";
    await waiters.until(() => (messages.some(probe) || ended ? true : undefined), 2000, () => `no answer: ${JSON.stringify(messages)}`);
    const reply = { messages: messages.filter((m) => !probe(m)), garbage, ended };
    await transport.close();
    return reply;
  }

  async close(): Promise<void> {
    await Promise.all(this.#clients.map((c) => c.close()));
    await this.mock.close();
  }
}

function parsed(texts: readonly string[], ended: boolean): RawReply {
  const messages: Array<Record<string, unknown>> = [];
  const garbage: string[] = [];
  for (const text of texts) {
    try {
      messages.push(JSON.parse(text) as Record<string, unknown>);
    } catch {
      garbage.push(text);
    }
  }
  return { messages, garbage, ended };
}
