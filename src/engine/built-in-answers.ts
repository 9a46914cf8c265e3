/**
 * The answers a server gives by itself (initialize, ping, the lists, completion, log level,
 * subscriptions), as ordinary stubs at the lowest priority: they show up in explanations,
 * and any user stub overrides them. What each answer is, `built-ins/` says (keyed by the
 * method's descriptor in `protocol/methods/`); this file only turns those answers into stubs.
 * @module
 */
import { BUILT_IN_ANSWER_BY_METHOD, BUILT_IN_METHODS } from "./built-ins/index.js";
import type { BuiltInAnswer, DefaultsSource } from "./built-ins/source.js";
import { FALLBACK_PRIORITY, type ResponsePlan, type Stub } from "../stubs/stub.js";
import { protocolVersionIn } from "../stubs/version-matchers.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../protocol/revisions.js";

/**
 * The built-in stubs, one per method with a built-in answer, in the descriptors' order. A
 * method that some revisions lack answers only in the others (in 2026-07-28, `ping` is a miss:
 * -32601, which HTTP sends with 404); a user stub still answers it, on purpose.
 */
export function defaultStubs(source: DefaultsSource, proxied = false): Stub[] {
  return BUILT_IN_METHODS.map(({ method, revisions }) => {
    const own = (BUILT_IN_ANSWER_BY_METHOD.get(method) as BuiltInAnswer)(source);
    return {
      id: `default:${method}`,
      method,
      matchers: SUPPORTED_PROTOCOL_VERSIONS.every((v) => revisions.includes(v)) ? [] : [protocolVersionIn(revisions)],
      responses: [proxied ? proxiedBuiltIn(method, own) : own],
      priority: FALLBACK_PRIORITY,
      source: "default",
    };
  });
}

/** In proxy mode, the methods the upstream answers instead of the mock, and the list each merges with the mock's own. */
const PROXIED_BUILT_INS: ReadonlyMap<string, string | undefined> = new Map([
  ["tools/list", "tools"],
  ["resources/list", "resources"],
  ["resources/templates/list", "resourceTemplates"],
  ["prompts/list", "prompts"],
  ["completion/complete", undefined],
  ["logging/setLevel", undefined],
  ["resources/subscribe", undefined],
  ["resources/unsubscribe", undefined],
  ["ping", undefined],
]);

/** A built-in answer in proxy mode: the upstream's (lists merged with the mock's declared items), or the mock's own (initialize, discovery, tasks). */
function proxiedBuiltIn(method: string, own: ResponsePlan): ResponsePlan {
  if (!PROXIED_BUILT_INS.has(method)) return own;
  const merge = PROXIED_BUILT_INS.get(method);
  return merge === undefined ? { kind: "proxy" } : { kind: "proxy", merge, own };
}
