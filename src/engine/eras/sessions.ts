/**
 * The session era (2024-11-05 to 2025-11-25): `initialize` negotiates a version and opens a
 * session; later requests name it with `Mcp-Session-Id` (HTTP) or belong to the one session of
 * their connection (stdio); the client's capabilities are the ones it declared at initialize.
 * A stateless mock (`sessions: "stateless"`) keeps no session and serves every request.
 * @module
 */
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, negotiateVersion, revisionOf, SESSION_PROTOCOL_VERSIONS } from "../../protocol/revisions.js";
import type { InitializeOutcome } from "../outcome.js";
import type { Session, SessionStore } from "../session-store.js";
import type { EraRequest, Placement, ProtocolEra, Refusal } from "./era.js";

/** The session era. */
export class SessionEra implements ProtocolEra {
  readonly #sessions: SessionStore;
  readonly #stateful: boolean;
  /** Every version the mock accepts (for refusals), and the session-era ones among them, newest first. */
  readonly #accepted: readonly string[];
  readonly #versions: readonly string[];

  constructor(sessions: SessionStore, stateful: boolean, accepted: readonly string[]) {
    this.#sessions = sessions;
    this.#stateful = stateful;
    this.#accepted = accepted;
    this.#versions = accepted.filter((v) => SESSION_PROTOCOL_VERSIONS.includes(v));
  }

  negotiate(requested: unknown): string {
    return negotiateVersion(requested, this.#versions);
  }

  place(request: EraRequest): Placement | Refusal {
    const sessionId = request.sessionId;
    let session: Session | undefined;
    if (this.#stateful) {
      if (sessionId === undefined) {
        if (!request.sessionOptional) return { refused: "session-required" };
      } else {
        session = this.#sessions.get(sessionId);
        if (!session) return { refused: "session-not-found" };
      }
    }
    // A probe for a newer revision is answered as a request without a version is.
    if (request.sessionOptional) return { session, sessionId: session?.id ?? sessionId, protocolVersion: DEFAULT_NEGOTIATED_PROTOCOL_VERSION };
    const version = request.protocolVersion;
    // The table's own string: the journal keeps one copy of each version, not one per request.
    if (version !== undefined) {
      const known = revisionOf(version)?.version;
      return known === undefined || !this.#versions.includes(known)
        ? { refused: "unsupported-version", version, supported: this.#versions }
        : { session, sessionId: session?.id ?? sessionId, protocolVersion: known };
    }
    return { session, sessionId: session?.id ?? sessionId, protocolVersion: session?.protocolVersion ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION };
  }

  admit(requested: unknown): Refusal | undefined {
    if (this.#versions.length === 0) return { refused: "session-era-off", requested, supported: this.#accepted };
    // A session handed out must live: refuse rather than open one the cap would end at once.
    if (!this.#stateful || this.#sessions.hasRoom()) return undefined;
    return { refused: "sessions-full", maxSessions: this.#sessions.maxSessions };
  }

  open(init: InitializeOutcome, implicitId?: string): Placement {
    if (!this.#stateful && implicitId === undefined) return { session: undefined, sessionId: init.sessionId, protocolVersion: init.protocolVersion };
    const id = init.sessionId ?? implicitId;
    const session = this.#sessions.open({
      ...(id === undefined ? {} : { id }),
      protocolVersion: init.protocolVersion,
      clientCapabilities: init.clientCapabilities,
      clientInfo: init.clientInfo,
    });
    return { session, sessionId: session.id, protocolVersion: session.protocolVersion };
  }
}
