/**
 * A protocol era: how a family of revisions carries state. It decides, in one place per
 * request, which version the request speaks, where its session lives (if anywhere) and what
 * its client declared. This interface is the session era's (2024-11-05 to 2025-11-25:
 * `initialize`, `Mcp-Session-Id`, `SessionEra` in `sessions.ts`); the stateless 2026-07-28 revision has
 * no session to place a request in, so its era (`StatelessEra` in `stateless.ts`) only reads and checks each
 * request's envelope. A transport asks `isStatelessRequest` which of the two a message is for.
 * @module
 */
import type { InitializeOutcome } from "../outcome.js";
import type { Session } from "../session-store.js";

/** What a transport read of a request that says where it belongs. */
export interface EraRequest {
  /** The session id the request carried (`Mcp-Session-Id`), if any. */
  readonly sessionId: string | undefined;
  /** The version the request says it speaks (`MCP-Protocol-Version`), if it says. */
  readonly protocolVersion: string | undefined;
  /** The request may come without a session (a probe for a newer revision). */
  readonly sessionOptional: boolean;
}

/** Where a request belongs: its session (if any) and the version it speaks. */
export interface Placement {
  readonly session: Session | undefined;
  readonly sessionId: string | undefined;
  readonly protocolVersion: string;
}

/** Why an era refuses a request; each transport says it its own way (HTTP: the SDK's status and text). */
export type Refusal =
  | { readonly refused: "session-required" }
  | { readonly refused: "session-not-found" }
  | { readonly refused: "unsupported-version"; readonly version: string; readonly supported: readonly string[] }
  /** The mock accepts no session-era version (`protocolVersions: ["2026-07-28"]`): `initialize` is refused. */
  | { readonly refused: "session-era-off"; readonly requested: unknown; readonly supported: readonly string[] }
  /** Every session at the cap holds an open stream, so none can end for a new one. */
  | { readonly refused: "sessions-full"; readonly maxSessions: number };

/** How a family of revisions carries state. */
export interface ProtocolEra {
  /** The version an opening request (`initialize`) asking for `requested` gets: the one negotiation. */
  negotiate(requested: unknown): string;
  /** Where a request belongs, or why it is refused. */
  place(request: EraRequest): Placement | Refusal;
  /** Whether an opening request (asking for version `requested`) may open a session now, or why not. */
  admit(requested: unknown): Refusal | undefined;
  /**
   * What an answered opening request opens: a session (with `implicitId`, the one a transport
   * without session ids gives it), or only the id the answer named.
   */
  open(init: InitializeOutcome, implicitId?: string): Placement;
}

/** Whether an era refused. */
export function isRefusal(value: Placement | Refusal): value is Refusal {
  return "refused" in value;
}
