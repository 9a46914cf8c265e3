/**
 * What the stateless era adds to every answer (2026-07-28): `resultType` on each result
 * (`"complete"` unless the answer says otherwise), `ttlMs` and `cacheScope` on list, read and
 * discover results (SEP-2549), and a check, before a script plays, that the request declared
 * every client capability the script's rounds will ask for (-32021 otherwise).
 * @module
 */
import { CACHEABLE_METHODS, missingClientCapability } from "../../protocol/methods/index.js";
import { ErrorCodes, MetaKeys } from "../../protocol/revisions.js";
import type { McpCall } from "../../stubs/call.js";
import { PREFIX } from "../../values/errors.js";
import { isJsonObject } from "../../values/json-value.js";
import { INPUT_REQUEST_METHODS } from "../input-rounds.js";
import type { StreamPlan } from "../../stubs/stub.js";
import { JsonRpcFailure } from "../../protocol/jsonrpc.js";
import { withFields } from "../../values/with-fields.js";

/** The cache hints a mock puts on results that carry none. */
export interface CacheHints {
  readonly ttlMs: number;
  readonly cacheScope: "public" | "private";
}

/** The hints when a test sets none: what the reference server sends. */
export const DEFAULT_CACHE_HINTS: CacheHints = { ttlMs: 0, cacheScope: "private" };

/**
 * A result as the stateless era sends it: with `resultType`, and for cacheable methods
 * `ttlMs` and `cacheScope`, where the answer did not set them itself. Anything but an object
 * is sent as it is (a test may answer wrong on purpose).
 */
export function completeResult(result: unknown, method: string, hints: CacheHints): unknown {
  if (!isJsonObject(result)) return result;
  const cacheable = CACHEABLE_METHODS.has(method);
  if ("resultType" in result && (!cacheable || ("ttlMs" in result && "cacheScope" in result))) return result;
  const added: Record<string, unknown> = {};
  if (!("resultType" in result)) added["resultType"] = "complete";
  if (cacheable) {
    if (!("ttlMs" in result)) added["ttlMs"] = hints.ttlMs;
    if (!("cacheScope" in result)) added["cacheScope"] = hints.cacheScope;
  }
  return withFields(result, added);
}

/**
 * Throws the answer a stateless request gets when its script would ask for something it cannot:
 * a client capability the request did not declare (-32021, `data.requiredCapabilities`), or a
 * request 2026-07-28 has no round for.
 */
export function assertRoundsAllowed(plan: StreamPlan, call: McpCall, where: string): void {
  const declared = (call.params?.["_meta"] as Record<string, unknown> | undefined)?.[MetaKeys.clientCapabilities];
  const caps = isJsonObject(declared) ? declared : {};
  const missing: Record<string, unknown> = {};
  const members = plan.steps.flatMap((step) => (step.kind === "request" ? [step] : step.kind === "requests" ? Object.values(step.requests) : []));
  for (const { method, params } of members) {
    if (!INPUT_REQUEST_METHODS.has(method)) {
      throw new JsonRpcFailure(
        ErrorCodes.InternalError,
        `${PREFIX} ${where} sends ${method} to the client, which 2026-07-28 cannot carry: a round may only ask for ${[...INPUT_REQUEST_METHODS].join(", ")}. Narrow the stub to the session era with .withProtocolVersion("2025-11-25"), or send it on purpose with send({...}).`,
      );
    }
    // Params a function makes are known only when played: the sub-capability is read from those written out.
    const need = missingClientCapability(method, isJsonObject(params) ? params : undefined, caps);
    if (need !== undefined) missing[need[0] as string] = need.length > 1 ? { ...(missing[need[0] as string] as object | undefined), [need[1] as string]: {} } : (missing[need[0] as string] ?? {});
  }
  const names = Object.keys(missing);
  if (names.length > 0) {
    throw new JsonRpcFailure(ErrorCodes.MissingRequiredClientCapability, `Missing required client capability: ${names.join(", ")}`, { requiredCapabilities: missing });
  }
}
