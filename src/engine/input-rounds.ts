/**
 * Multi round-trip requests (2026-07-28, SEP-2322): how a stream script's `request` steps are
 * played when the client cannot be sent requests. The round stops at a `request` step and
 * answers `input_required` with the request under a key and a `requestState`; the client
 * retries the same request with `inputResponses` and the echoed state, and the script goes on
 * where it stopped, its later steps and result seeing the answers as `call.answers`, exactly as
 * in the session era.
 *
 * The state is the whole memory of the exchange (the mock keeps none): which stub and which of
 * its answers, where the script stopped, the answers so far, and a digest of the request it
 * belongs to, sealed with an HMAC under a key made for this mock, so a state that was altered,
 * belongs to another request or comes from another mock is refused.
 * @module
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { McpCall } from "../stubs/call.js";
import type { StubEntry, StubRegistry } from "../stubs/registry.js";
import { JsonRpcFailure } from "../protocol/jsonrpc.js";
import { ErrorCodes, supportedRevision } from "../protocol/revisions.js";
import { canonicalJson, isJsonObject } from "../values/json-value.js";

/** Where an exchange of rounds stands, as the state carries it. */
interface RoundState {
  /** The stub that answers, and which of its answers (a sequence's position when the exchange began). */
  readonly stubId: string;
  readonly response: number;
  /** The client's answers to the script's request steps so far, in order. */
  readonly answers: readonly unknown[];
  /** The index of the step whose request the last round asked. */
  readonly askedAt: number;
  /** The round that answered with this state (1 for the first). */
  readonly round: number;
  /** The answers earlier rounds took for the step at `askedAt` (a `requests` group answered in part), by key. */
  readonly partial?: Readonly<Record<string, unknown>>;
}

/** What a retry brought: the state it resumes (if any) and its answers to the last round. */
export interface Retry {
  readonly state: RoundState | undefined;
  readonly responses: Readonly<Record<string, unknown>>;
}

/** A first round: no state, no answers (shared: most calls are one). */
const FIRST_ROUND: Retry = Object.freeze({ state: undefined, responses: Object.freeze({}) });

/** The methods a round may ask for (the only server-to-client requests 2026-07-28 has). */
export const INPUT_REQUEST_METHODS: ReadonlySet<string> = new Set(["elicitation/create", "sampling/createMessage", "roots/list"]);

/** The key a round gives the request of its script's `n`-th request step (1-based): `elicitation-1`. */
export function inputKey(method: string, n: number): string {
  return `${method.split("/")[0]}-${n}`;
}

/** Seals and opens round states for one mock. */
export class InputRounds {
  readonly #key = randomBytes(32);

  /** The state a round answers with. */
  seal(state: RoundState, call: McpCall): string {
    const payload = Buffer.from(JSON.stringify({ ...state, request: requestDigest(call) })).toString("base64url");
    return `${payload}.${this.#mac(payload)}`;
  }

  /**
   * What a retry carries, or why it cannot be resumed (a message for a -32602 answer). A
   * request without `requestState` or `inputResponses` is a first round.
   */
  retry(call: McpCall): Retry | string {
    const params = call.params ?? {};
    const responses = params["inputResponses"];
    if (responses !== undefined && !isJsonObject(responses)) {
      return `inputResponses must be an object of answers by key (as the input_required result named them); received ${responses === null ? "null" : Array.isArray(responses) ? "an array" : typeof responses}.`;
    }
    const token = params["requestState"];
    if (token === undefined) return responses === undefined ? FIRST_ROUND : { state: undefined, responses };
    if (typeof token !== "string") return `requestState must be the string the input_required result carried; received ${typeof token}.`;
    const dot = token.indexOf(".");
    const payload = token.slice(0, dot);
    // The MAC's text, compared exactly: decoding first would ignore padding bits, "=" and stray characters.
    const mac = Buffer.from(token.slice(dot + 1), "latin1");
    const expected = Buffer.from(this.#mac(payload), "latin1");
    if (dot < 1 || mac.length !== expected.length || !timingSafeEqual(mac, expected)) {
      return "requestState was altered, or comes from another mock: echo it byte for byte as the input_required result gave it.";
    }
    const state = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as RoundState & { request: string };
    if (state.request !== requestDigest(call)) {
      return `requestState belongs to another request: retry the same ${call.method} with the same ${call.method === "resources/read" ? "URI" : "name and arguments"}, adding only inputResponses and requestState.`;
    }
    return { state, responses: responses ?? {} };
  }

  /**
   * What a call brings to its rounds: nothing for a session-era call; for a 2026-07-28 call its
   * retry, and the stub entry a state resumes. Throws the -32602 answer when it cannot go on.
   */
  roundsOf(call: McpCall, registry: StubRegistry): { retry: Retry | undefined; resumed: StubEntry | undefined } {
    if (!supportedRevision(call.protocolVersion).stateless) return { retry: undefined, resumed: undefined };
    const retry = this.retry(call);
    if (typeof retry === "string") throw new JsonRpcFailure(ErrorCodes.InvalidParams, `Invalid params: ${retry}`);
    const resumed = retry.state && registry.get(retry.state.stubId);
    if (retry.state && !resumed) {
      throw new JsonRpcFailure(ErrorCodes.InvalidParams, `Invalid params: requestState resumes ${retry.state.stubId}, which was removed (or the mock was reset) since it asked; start the request again without inputResponses and requestState.`);
    }
    return { retry, resumed: resumed || undefined };
  }

  #mac(payload: string): string {
    return createHmac("sha256", this.#key).update(payload).digest("base64url");
  }
}

/** What identifies the request a state belongs to: its method and params without the retry's own fields and `_meta`. */
function requestDigest(call: McpCall): string {
  const { inputResponses: _r, requestState: _s, _meta: _m, ...rest } = call.params ?? {};
  return createHash("sha256").update(`${call.method}\u0000${canonicalJson(rest)}`).digest("base64url").slice(0, 22);
}
