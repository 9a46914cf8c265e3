/**
 * What proxy mode and fault rates add to the pipeline, kept out of its way: the plan that asks
 * the upstream, the proxied answers made for a core with an upstream, and a fault's `rate`
 * (the share of calls it fails; the others are selected again without it).
 * @module
 */
import type { McpCall } from "../stubs/call.js";
import type { StubEntry, StubRegistry } from "../stubs/registry.js";
import type { ProxyPlan, ResponsePlan } from "../stubs/stub.js";
import { ProxiedAnswers, type ProxiedSource } from "./proxied-answers.js";
import type { SelectionContext } from "./selection.js";
import type { UpstreamPort } from "./upstream-port.js";

export type { ProxiedAnswers } from "./proxied-answers.js";
export type { UpstreamPort } from "./upstream-port.js";

/** What no stub answers, in proxy mode: the upstream's answer as it is. */
export const PROXY_PLAN: ProxyPlan = { kind: "proxy" };

/** The proxied answers of a core with an upstream (none without: nothing on the way costs more). */
export function proxiedAnswers(upstream: UpstreamPort | undefined, core: Omit<ProxiedSource, "upstream" | "complete" | "closing"> & { readonly closing: AbortController }, complete: ProxiedSource["complete"]): ProxiedAnswers | undefined {
  if (upstream === undefined) return undefined;
  const proxied = new ProxiedAnswers({ upstream, sessions: core.sessions, requests: core.requests, push: core.push, closing: core.closing.signal, complete });
  core.sessions.onEnd = (id) => proxied.endSession(id);
  return proxied;
}

/**
 * Whether a call passes a stub whose next answer is a fault with a rate: a draw at or above the
 * rate (the same draws for the same seed, so the same calls fail twice).
 */
export function passesRate(entry: StubEntry, random: () => number): boolean {
  const responses = entry.stub.responses;
  const plan = responses[Math.min(entry.hits, responses.length - 1)] as ResponsePlan;
  return plan.kind === "fault" && plan.rate !== undefined && random() >= plan.rate;
}

/** A selection context whose registry leaves one stub out (one that a call passed). */
export function withoutEntry(ctx: SelectionContext, left: StubEntry): SelectionContext {
  const registry = ctx.registry;
  const view: Pick<StubRegistry, "candidates" | "forMethod" | "all"> = {
    candidates: (call: McpCall, key: string | undefined) => registry.candidates(call, key).filter((e) => e !== left),
    forMethod: (method: string, key?: string) => registry.forMethod(method, key).filter((e) => e !== left),
    all: () => registry.all().filter((e) => e !== left),
  };
  return {
    registry: view as StubRegistry,
    tools: ctx.tools,
    prompts: ctx.prompts,
    resources: ctx.resources,
    options: ctx.options,
    resourceNotFoundCode: (call) => ctx.resourceNotFoundCode(call),
  };
}
