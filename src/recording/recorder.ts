/**
 * The recorder as code: `startRecorder` puts a recording proxy (Streamable HTTP) or relay
 * (stdio) in front of a real server for an outside client, the file rewritten as answers
 * arrive (what `mcpmock record` runs); `record` drives its own client through one (the
 * server's lists, then the caller's session) and resolves with the definition written.
 * @module
 */
import type { Readable, Writable } from "node:stream";
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { MockDefinition } from "../definition/format.js";
import { McpMockError } from "../values/errors.js";
import { upstreamName } from "../engine/proxy-target.js";
import { shownTarget } from "../proxy-target.js";
import { z } from "zod";
import { VERSION } from "../values/version.js";
import { capabilitiesExtensions } from "../protocol/extensions.js";
import { SKILLS_EXTENSION } from "../protocol/skills.js";
import { RecordingFile } from "./definition-file.js";
import { toDefinition } from "./definition-writer.js";
import { Recording } from "./exchanges.js";
import { DEFAULT_RECORD_TIMEOUT_MS, startHttpProxy } from "./http-proxy.js";
import { parsePointers, type Pointer } from "./json-pointer.js";
import { relayStdio } from "./stdio-relay.js";
import { orderedSecrets, redactText, secretsOf } from "../upstream/secrets.js";
import { credentialProblems } from "../upstream/credentials.js";
import { LineReader } from "../values/line-reader.js";
import { MAX_LINE_BYTES } from "../upstream/line-reader.js";


/** An extension's result, as the recorder asks for it: any object (the recording keeps it whole). */
const ANY_RESULT = z.looseObject({});
/**
 * The real server a recording (or a check) talks to: a Streamable HTTP endpoint (with the
 * `headers` it needs, such as an API key), or a command that serves MCP on its stdio (with
 * the `env` it needs). A stdio server starts with the SDK's default environment (HOME, PATH,
 * ...) plus `env`, never the whole of the recorder's. Credentials (a secret-looking value in
 * `headers` or `env`, a URL's password) never reach the file or a message: `[redacted]`.
 *
 * @example
 * ```ts
 * import type { RecordTarget } from "mcpmock/recording";
 * const http: RecordTarget = { target: "http://127.0.0.1:3001/mcp", headers: { authorization: "Bearer sk-0123456789abcdef" } };
 * const stdio: RecordTarget = { command: "node", args: ["server.js", "stdio"], env: { API_KEY: "sk-0123456789abcdef" } };
 * ```
 * @category Definitions
 */
export type RecordTarget =
  | {
      /** The real server's MCP endpoint, e.g. `http://127.0.0.1:3001/mcp` (a `user:password@` in it is sent as Basic authorization). */
      readonly target: string;
      /** Headers sent with every request to it, e.g. `{ authorization: "Bearer ..." }` (over the client's own). */
      readonly headers?: Readonly<Record<string, string>>;
      /** An OAuth client provider (the SDK's `OAuthClientProvider`): its access token is sent, renewed when the server answers 401; its tokens never reach the file. */
      readonly authProvider?: OAuthClientProvider;
    }
  | {
      /** The command that serves MCP on its stdin and stdout, e.g. `"node"`. */
      readonly command: string;
      /** Its arguments. */
      readonly args?: readonly string[];
      /** Environment variables over the SDK's default environment, e.g. `{ API_KEY: "..." }`. */
      readonly env?: Readonly<Record<string, string>>;
    };

/**
 * How a recording is written: where, what never reaches the file, what varies.
 *
 * @example
 * ```ts
 * import type { RecordFileOptions } from "mcpmock/recording";
 * const options: RecordFileOptions = { out: "recorded.json", redact: ["/arguments/password"], ignore: ["/arguments/requestId"] };
 * ```
 * @category Definitions
 */
export interface RecordFileOptions {
  /** The definition file to write (rewritten as each answer arrives, and last when the recording stops). */
  readonly out: string;
  /** JSON Pointers into request params or answers whose values never reach the file, e.g. `"/arguments/password"` (`--redact`). */
  readonly redact?: readonly string[];
  /** JSON Pointers into request params that vary from run to run: matched with `{ "$any": true }` (`--ignore`). */
  readonly ignore?: readonly string[];
  /** Milliseconds the server gets to answer a request (an SSE answer: to start it); 10000 by default (`--timeout`). */
  readonly timeoutMs?: number;
}

/**
 * Where an outside client's recording listens (HTTP) or reads and writes (stdio), and the
 * capabilities written in the file.
 *
 * @example
 * ```ts
 * import { startRecorder } from "mcpmock/recording";
 * const recorder = await startRecorder({ target: "http://127.0.0.1:3001/mcp", out: "recorded.json" });
 * ```
 * @category Definitions
 */
export type RecorderOptions = RecordTarget &
  RecordFileOptions & {
    /** HTTP: the proxy's port on 127.0.0.1 (0, the default: a free one). */
    readonly port?: number;
    /** stdio: where the client's bytes arrive (default: `process.stdin`). */
    readonly input?: Readable;
    /** stdio: where the server's bytes go to the client (default: `process.stdout`). */
    readonly output?: Writable;
    /** The client capabilities written in `recorded.clientCapabilities`, which `mcpmock check` declares (default: what the client declared). */
    readonly capabilities?: Record<string, unknown>;
  };

/**
 * What a recording wrote.
 *
 * @example
 * ```ts
 * import { record } from "mcpmock/recording";
 * const { definition, path, exchanges } = await record({ command: "node", args: ["server.js", "stdio"], out: "recorded.json" });
 * console.log(`${exchanges} exchanges in ${path}: ${definition.tools?.length ?? 0} tools`);
 * ```
 * @category Definitions
 */
export interface RecordResult {
  /** The definition written. */
  readonly definition: MockDefinition;
  /** The file it was written to (`out`). */
  readonly path: string;
  /** How many requests were answered. */
  readonly exchanges: number;
}

/**
 * A running recorder: point a client at `url` (HTTP), or it relays `input` and `output`
 * (stdio); `stop()` ends it and writes the file a last time.
 *
 * @example
 * ```ts
 * import { startRecorder } from "mcpmock/recording";
 * const recorder = await startRecorder({ target: "http://127.0.0.1:3001/mcp", out: "recorded.json" });
 * console.log(recorder.url); // the client's URL
 * const { exchanges } = await recorder.stop();
 * ```
 * @category Definitions
 */
export interface Recorder {
  /** HTTP: the URL to point the client at; stdio: `undefined`. */
  readonly url: string | undefined;
  /** stdio: resolves when the real server exits (its exit code, 127 when it could not start); HTTP: never. */
  readonly exited: Promise<number | null>;
  /** The definition of what was recorded so far. */
  definition(): MockDefinition;
  /** Ends the recording (the proxy closes, the stdio server ends) and writes the file a last time. */
  stop(): Promise<RecordResult>;
}

/** JSON Pointers given as text, their mistakes named with the option. */
function pointers(option: string, texts: readonly string[] | undefined): Pointer[] {
  return parsePointers(texts, (message) => new McpMockError(`record({ ${option} }): ${message}`));
}

/**
 * Starts recording a real server for an outside client (what `mcpmock record` runs): a proxy
 * on 127.0.0.1 in front of `target`, or the stdio server the client launched (`command`,
 * relaying `input` and `output`). The file is a valid definition at every moment.
 *
 * @example
 * ```ts
 * import { startRecorder } from "mcpmock/recording";
 * const recorder = await startRecorder({ target: "http://127.0.0.1:3001/mcp", out: "recorded.json", redact: ["/arguments/password"] });
 * // ... a client talks to recorder.url ...
 * const { definition } = await recorder.stop();
 * ```
 * @category Definitions
 */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  return (await openRecorder(options)).recorder;
}

/** A recorder, and every secret its recording knows so far (the target's, a client's credential headers, an OAuth provider's tokens). */
async function openRecorder(options: RecorderOptions): Promise<{ readonly recorder: Recorder; readonly secrets: () => string[] }> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_RECORD_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) throw new McpMockError(`record({ timeoutMs }) takes milliseconds (a whole number above 0), received ${String(options.timeoutMs)}.`);
  const write = {
    redact: pointers("redact", options.redact),
    ignore: pointers("ignore", options.ignore),
    ...(options.capabilities === undefined ? {} : { capabilities: options.capabilities }),
  };
  // Written soon after each answer (debounced: a huge answer is one slow write, not one per later answer).
  const recording: Recording = new Recording(() => file.changed());
  const problems = credentialProblems(options, "record");
  if (problems.length > 0) throw new McpMockError(problems.join("\n"));
  // The target's credentials never reach the file.
  for (const secret of secretsOf(options)) recording.secrets.add(secret);
  const file = new RecordingFile(options.out, recording, write);
  file.flush();
  let stopServer: () => Promise<void>;
  let url: string | undefined;
  let exited: Promise<number | null>;
  if ("command" in options) {
    if (typeof options.command !== "string" || options.command === "") throw new McpMockError('record({ command }) takes the command that serves MCP on stdio, like "node".');
    const relay = relayStdio({ command: options.command, args: options.args ?? [], ...(options.env === undefined ? {} : { env: options.env }), secrets: [...recording.secrets], input: options.input ?? process.stdin, output: options.output ?? process.stdout, recording });
    stopServer = async () => relay.stop();
    exited = relay.exited;
  } else {
    if (typeof options.target !== "string" || !URL.canParse(options.target)) throw new McpMockError(`record({ target }) takes the real server's URL, like "http://127.0.0.1:3001/mcp"; received ${typeof options.target === "string" ? JSON.stringify(shownTarget(options.target)) : shownTarget(options.target)}.`);
    const proxy = await startHttpProxy({ target: new URL(options.target).href, ...(options.headers === undefined ? {} : { headers: options.headers }), ...(options.authProvider === undefined ? {} : { authProvider: options.authProvider }), port: options.port ?? 0, recording, timeoutMs });
    stopServer = () => proxy.close();
    url = proxy.url;
    exited = new Promise(() => {});
  }
  const definition = (): MockDefinition => toDefinition(recording.exchanges, { ...write, secrets: recording.secrets });
  let stopped: Promise<RecordResult> | undefined;
  const recorder: Recorder = {
    url,
    exited,
    definition,
    stop: () =>
      (stopped ??= (async () => {
        await stopServer();
        file.flush();
        return { definition: definition(), path: options.out, exchanges: recording.exchanges.filter((e) => e.answer).length };
      })()),
  };
  return { recorder, secrets: () => orderedSecrets(recording.secrets) };
}

/**
 * Options of {@link record}: the server, the file, the capabilities its client declares, and
 * the session it plays.
 *
 * @example
 * ```ts
 * import type { RecordOptions } from "mcpmock/recording";
 * const options: RecordOptions = { command: "node", args: ["server.js", "stdio"], out: "recorded.json", capabilities: { elicitation: {} } };
 * ```
 * @category Definitions
 */
export type RecordOptions = RecordTarget &
  RecordFileOptions & {
    /** The capabilities the recording's client declares (and the file keeps, for `check`), e.g. `{ elicitation: {}, sampling: {} }`; none by default. */
    readonly capabilities?: Record<string, unknown>;
    /**
     * What the client does after listing the server's tools, resources, templates and
     * prompts: calls to record (set request handlers on it to answer the server's own
     * requests, for the capabilities declared).
     */
    readonly session?: (client: Client) => Promise<void>;
  };

/** The client side of a stdio relay: the SDK's newline-delimited JSON over two streams. */
class StreamTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  // Our own reader: a line that is not JSON (a server's stray print) is skipped, where the
  // SDK's read buffer would throw inside the data listener and end the process.
  readonly #lines = new LineReader({
    line: (line) => {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        return;
      }
      if (message !== null && typeof message === "object" && !Array.isArray(message)) this.onmessage?.(message as JSONRPCMessage);
    },
  }, MAX_LINE_BYTES);
  readonly #readable: Readable;
  readonly #writable: Writable;
  #closed = false;

  constructor(readable: Readable, writable: Writable) {
    this.#readable = readable;
    this.#writable = writable;
  }

  async start(): Promise<void> {
    this.#readable.on("data", (chunk: Buffer) => {
      this.#lines.push(chunk);
    });
    this.#readable.once("end", () => this.#close());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.#writable.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.#writable.end();
    this.#close();
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}

/**
 * Records a real server with a client of its own: it connects through a recorder (declaring
 * `capabilities`), lists the server's tools, resources, resource templates and prompts, plays
 * `session`, and resolves with the definition written to `out` once the server is stopped.
 *
 * @example
 * ```ts
 * import { record } from "mcpmock/recording";
 * const { definition, path } = await record({
 *   command: "node",
 *   args: ["server.js", "stdio"],
 *   out: "recorded.json",
 *   session: async (client) => {
 *     await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
 *   },
 * });
 * ```
 * @category Definitions
 */
export async function record(options: RecordOptions): Promise<RecordResult> {
  const { capabilities, session, ...rest } = options;
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const { recorder, secrets } = await openRecorder("command" in rest ? { ...rest, input: toServer, output: fromServer } : rest);
  const client = new Client({ name: "mcpmock-record", version: VERSION }, { capabilities: capabilities ?? {} });
  const transport: Transport = recorder.url === undefined ? new StreamTransport(fromServer, toServer) : new StreamableHTTPClientTransport(new URL(recorder.url));
  try {
    await client.connect(transport, { timeout: options.timeoutMs ?? DEFAULT_RECORD_TIMEOUT_MS });
    const offers = client.getServerCapabilities() ?? {};
    if (offers.tools) await client.listTools();
    if (offers.resources) {
      await client.listResources();
      await client.listResourceTemplates();
    }
    if (offers.prompts) await client.listPrompts();
    // The Skills extension's list, beside the core's: replayed as it was answered.
    if (capabilitiesExtensions(offers)?.[SKILLS_EXTENSION] !== undefined) await client.request({ method: "skills/list", params: {} }, ANY_RESULT);
    await session?.(client);
  } catch (error) {
    // As after a session that went well: the DELETE first, so the server ends its streams before the proxy closes (a stream cut by the closing proxy is an error the HTTP server prints).
    if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => {});
    await client.close().catch(() => {});
    await recorder.stop();
    // Every secret the recording learnt: an OAuth provider's tokens too, which the target's own do not hold.
    throw new McpMockError(redactText(`record: the session with ${"command" in rest ? [rest.command, ...(rest.args ?? [])].join(" ") : upstreamName(rest)} failed: ${(error as Error).message}`, secrets()));
  }
  // HTTP: the session ends with a DELETE, so the server ends its streams before the proxy closes.
  if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => {});
  await client.close();
  // stdio: the server's stdin closed with the client's side; it exits (or is ended) before the last write.
  if (recorder.url === undefined) await Promise.race([recorder.exited, new Promise((r) => setTimeout(r, 3_000).unref())]);
  return recorder.stop();
}
