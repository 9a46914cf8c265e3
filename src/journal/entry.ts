/**
 * What the journal records of one received message: the entry's shape, apart from the journal
 * that keeps entries (`journal.ts`) and the packer that stores them (`packed-entry.ts`).
 * @module
 */
import type { McpCall, TransportKind } from "../stubs/call.js";
import type { RequestId } from "../protocol/jsonrpc.js";

/**
 * What kind of message an entry records.
 *
 * @example
 * ```ts
 * import { McpMock, type JournalKind } from "mcpmock";
 * await using mock = await McpMock.start();
 * const kind: JournalKind = "response"; // the client's answers to server-to-client requests
 * const answers = mock.requests().filter((entry) => entry.kind === kind);
 * ```
 * @category Verification
 */
export type JournalKind = "request" | "notification" | "response";

/**
 * One received message.
 *
 * @example
 * ```ts
 * import { McpMock, toolsCall, type JournalEntry } from "mcpmock";
 * await using mock = await McpMock.start({ tools: [{ name: "add", inputSchema: { type: "object" } }] });
 * // ... the client under test calls add ...
 * const calls: JournalEntry[] = mock.findRequests(toolsCall("add"));
 * for (const e of calls) console.log(e.seq, e.sessionId, e.params, e.stubId, e.unmatched, e.durationMs);
 * ```
 * @category Verification
 */
export interface JournalEntry {
  /** 1, 2, 3...: position in arrival order (kept across drops). */
  readonly seq: number;
  /** A client request, a client notification, or the client's response to a server-to-client request. */
  readonly kind: JournalKind;
  /** The JSON-RPC method; for a response, the method of the request it answers (`undefined` if that is unknown). */
  readonly method: string | undefined;
  /** The JSON-RPC id; `undefined` for a notification. */
  readonly id: RequestId | undefined;
  /** The message's `params` (for a response, its body); `undefined` when it has none. */
  readonly params: Record<string, unknown> | undefined;
  /** The `Mcp-Session-Id` the message carried, if any. */
  readonly sessionId: string | undefined;
  /** Request headers, names in lower case (empty over stdio). */
  readonly headers: Readonly<Record<string, string>>;
  /** The protocol version in effect for this message. */
  readonly protocolVersion: string;
  /** How the message arrived: over `"http"`, `"stdio"` or `"memory"` (`mock.clientTransport()`). */
  readonly transport: TransportKind;
  /** Milliseconds since the epoch when it arrived. */
  readonly receivedAt: number;
  /** The call as stubs saw it (requests and notifications). */
  readonly call: McpCall | undefined;
  /**
   * The extensions the client declared (SEP-2133), by identifier with their settings: at
   * `initialize` for a session's messages, in the request's own capabilities in 2026-07-28.
   * `undefined` when it declared none (and on responses).
   */
  readonly clientExtensions: Readonly<Record<string, unknown>> | undefined;
  /** The stub that answered, if one did (built-in answers have ids like `default:ping`). */
  stubId: string | undefined;
  /** The answer as sent (a JSON-RPC message, or `{ status }` for raw HTTP), once known. */
  answer: unknown;
  /** No stub matched: the mock answered with its miss answer. */
  unmatched: boolean;
  /** For an unmatched request, the report the client got (what was stubbed, how to stub it). */
  missReport: string | undefined;
  /** Milliseconds from arrival to answer, once answered. */
  durationMs: number | undefined;
  /**
   * The task the message belongs to, once answered: the one a task-augmented call created,
   * the one a `tasks/*` request names, or the one a response's related-task `_meta` names.
   */
  taskId: string | undefined;
  /** Proxy mode: `true` when the upstream (the real server) answered. */
  proxied?: true;
  /** Proxy mode: the upstream's answer (before any transform, `{ result }` or `{ error }`) and the milliseconds it took. */
  upstream?: {
    /** What the upstream answered: `{ result }` or `{ error }`. */
    readonly answer: unknown;
    /** Milliseconds it took. */
    readonly durationMs: number;
  };
  /**
   * Set when the message was larger than `journalBytes`: its params were dropped once it was
   * answered, all but the tool or prompt name or the resource URI. `bytes` is its size.
   */
  truncated:
    | {
        /** The size of the message whose params were not kept, in bytes. */
        readonly bytes: number;
      }
    | undefined;
}
