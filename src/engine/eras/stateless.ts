/**
 * The stateless era (2026-07-28, WIRE.md §10): no `initialize` and no session. Each request
 * says in its `params._meta` envelope which version it speaks, what its client can do and
 * (optionally) who it is and which log level it wants; this era reads and checks that envelope
 * once per request, and says why it refuses one in the revision's own terms (the code, the
 * message and the `data` a 2026 client expects; every transport writes the refusal its way).
 * @module
 */
import { LOG_LEVELS } from "../../protocol/methods/logging-set-level.js";
import { ErrorCodes, MetaKeys, SESSION_PROTOCOL_VERSIONS, STATELESS_PROTOCOL_VERSIONS } from "../../protocol/revisions.js";
import type { LogLevel } from "../../stubs/stream-script.js";
import { isJsonObject } from "../../values/json-value.js";
import { DEFAULT_CACHE_HINTS, type CacheHints } from "./stateless-results.js";

/** What a 2026-07-28 request's envelope declares, read once. */
export interface Envelope {
  /** The version of the request (`io.modelcontextprotocol/protocolVersion`). */
  readonly protocolVersion: string;
  /** The client's capabilities for this request alone. */
  readonly clientCapabilities: Record<string, unknown>;
  /** The client's identity, when it says. */
  readonly clientInfo: Record<string, unknown> | undefined;
  /** The log level the client asked for; no level, no logs. */
  readonly logLevel: LogLevel | undefined;
}

/** Why the stateless era refuses a request: a JSON-RPC error (HTTP sends it with status 400). */
interface EnvelopeRefusal {
  readonly refused: "envelope";
  readonly code: number;
  readonly message: string;
  readonly data: unknown;
}

/**
 * Whether a message belongs to the stateless era: it carries no session, and its
 * `MCP-Protocol-Version` header or its envelope names a version that is not a session-era one
 * (an unknown newer version too, so that it hears -32022 with what the mock speaks).
 */
export function isStatelessRequest(sessionId: string | undefined, headerVersion: string | undefined, params: unknown): boolean {
  if (sessionId !== undefined) return false;
  if (headerVersion !== undefined && STATELESS_PROTOCOL_VERSIONS.includes(headerVersion)) return true;
  const meta = isJsonObject(params) ? params["_meta"] : undefined;
  const version = isJsonObject(meta) ? meta[MetaKeys.protocolVersion] : undefined;
  return typeof version === "string" && !SESSION_PROTOCOL_VERSIONS.includes(version);
}

/** The stateless era of one mock: the versions it accepts. */
export class StatelessEra {
  /** The stateless versions accepted, newest first. */
  readonly versions: readonly string[];
  /** The cache hints its results carry unless their answer sets them (made once: every call reads them). */
  readonly cacheHints: CacheHints;
  /** Every version accepted, for the -32022 answer. */
  readonly #accepted: readonly string[];

  constructor(accepted: readonly string[], cacheHints?: Partial<CacheHints>) {
    this.#accepted = accepted;
    this.cacheHints = { ...DEFAULT_CACHE_HINTS, ...cacheHints };
    this.versions = accepted.filter((v) => STATELESS_PROTOCOL_VERSIONS.includes(v));
  }

  /** Reads a request's envelope (`params._meta`), or says why it is refused; `headerVersion` must agree with it. */
  read(params: unknown, headerVersion: string | undefined): Envelope | EnvelopeRefusal {
    const meta = isJsonObject(params) ? params["_meta"] : undefined;
    if (!isJsonObject(meta)) {
      const named = headerVersion === undefined ? "the request" : `the MCP-Protocol-Version header names protocol revision ${headerVersion}, but the request`;
      return refusal(ErrorCodes.InvalidParams, `Invalid params: ${named} is missing the required per-request envelope key(s): _meta`, { envelope: { missing: ["_meta"] } });
    }
    const version = meta[MetaKeys.protocolVersion];
    if (typeof version !== "string") return envelopeProblem(MetaKeys.protocolVersion, version === undefined ? "missing" : "not a string");
    if (headerVersion !== undefined && headerVersion !== version) {
      return refusal(ErrorCodes.HeaderMismatch, `Bad Request: the request headers and body disagree: the body envelope names protocol version ${version} but the MCP-Protocol-Version header names ${headerVersion}`, {
        mismatch: { header: headerVersion, body: `the body envelope names protocol version ${version}` },
      });
    }
    if (!this.versions.includes(version)) {
      // `supported` is what server/discover lists (the versions served per request, without a
      // session); the session-era ones are named in the message, reached through initialize.
      const bySession = this.#accepted.filter((v) => !this.versions.includes(v));
      const message = `Unsupported protocol version: ${version} (served per request: ${this.versions.join(", ") || "none"}${bySession.length ? `; through initialize and a session: ${bySession.join(", ")}` : ""})`;
      // A mock narrowed to session-era versions has no discover to agree with: it names those, so an `auto` client falls back to initialize.
      return refusal(ErrorCodes.UnsupportedProtocolVersion, message, { supported: [...(this.versions.length > 0 ? this.versions : this.#accepted)], requested: version });
    }
    const capabilities = meta[MetaKeys.clientCapabilities];
    if (!isJsonObject(capabilities)) return envelopeProblem(MetaKeys.clientCapabilities, capabilities === undefined ? "missing" : "not an object");
    const info = meta[MetaKeys.clientInfo];
    if (info !== undefined && !isJsonObject(info)) return envelopeProblem(MetaKeys.clientInfo, "not an object");
    const level = meta[MetaKeys.logLevel];
    if (level !== undefined && !LOG_LEVELS.includes(level as LogLevel)) return envelopeProblem(MetaKeys.logLevel, `not a log level (one of ${LOG_LEVELS.join(", ")})`);
    return { protocolVersion: version, clientCapabilities: capabilities, clientInfo: info, logLevel: level as LogLevel | undefined };
  }
}

/** Whether the era refused. */
export function isEnvelopeRefusal(value: Envelope | EnvelopeRefusal): value is EnvelopeRefusal {
  return "refused" in value;
}

function refusal(code: number, message: string, data: unknown): EnvelopeRefusal {
  return { refused: "envelope", code, message, data };
}

function envelopeProblem(key: string, problem: string): EnvelopeRefusal {
  return refusal(ErrorCodes.InvalidParams, `Invalid _meta envelope for protocol revision 2026-07-28: ${key}: ${problem}`, { envelope: { key, problem } });
}
