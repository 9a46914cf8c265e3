/**
 * What proxy mode adds to the pipeline, kept out of its way: the plan that asks the upstream,
 * and the proxied answers made for a core with an upstream.
 * @module
 */
import type { ProxyPlan } from "../stubs/stub.js";
import { ProxiedAnswers, type ProxiedSource } from "./proxied-answers.js";
import type { UpstreamPort } from "./upstream-port.js";

export type { ProxiedAnswers } from "./proxied-answers.js";
export type { UpstreamPort } from "./upstream-port.js";

/** What no stub answers, in proxy mode: the upstream's answer as it is. */
export const PROXY_PLAN: ProxyPlan = { kind: "proxy" };

/** The proxied answers of a core with an upstream (none without: nothing on the way costs more). */
export function proxiedAnswers(upstream: UpstreamPort | undefined, core: Omit<ProxiedSource, "upstream" | "complete" | "closing"> & { readonly closing: AbortController }, complete: ProxiedSource["complete"]): ProxiedAnswers | undefined {
  if (upstream === undefined) return undefined;
  const proxied = new ProxiedAnswers({ upstream, sessions: core.sessions, requests: core.requests, push: core.push, closing: core.closing.signal, complete });
  core.sessions.onEnd((id) => proxied.endSession(id));
  return proxied;
}
