/**
 * The server capabilities `initialize` advertises, derived from the descriptors'
 * `advertises`: which capabilities exist, their values, their order, and when each holds.
 * @module
 */
import type { AdvertisedCapability, Catalog, MethodDescriptor } from "./descriptor.js";
import { METHODS } from "./index.js";
import { withExtensions, type ExtensionSettings } from "../extensions.js";

/** One server capability and every condition under which some method advertises it. */
export interface CapabilityRule {
  readonly capability: string;
  readonly value: Readonly<Record<string, unknown>>;
  readonly always: boolean;
  /** Advertised when any of these catalogs declares something. */
  readonly declared: readonly Catalog[];
  /** Advertised when a user stub answers any of these methods. */
  readonly stubbed: readonly string[];
  /** Advertised when a declared tool may run as a task. */
  readonly taskTools: boolean;
}

function capabilityRules(): CapabilityRule[] {
  const rules = new Map<string, { capability: string; value: Readonly<Record<string, unknown>>; always: boolean; declared: Catalog[]; stubbed: string[]; taskTools: boolean }>();
  const named = METHODS.filter((d): d is MethodDescriptor & { advertises: AdvertisedCapability } => d.advertises !== undefined);
  // The ones always advertised come first, then the others in list order.
  const ordered = [...named.filter((d) => d.advertises.when === "always"), ...named.filter((d) => d.advertises.when !== "always")];
  for (const d of ordered) {
    const { capability, value, when } = d.advertises;
    let rule = rules.get(capability);
    if (!rule) rules.set(capability, (rule = { capability, value, always: false, declared: [], stubbed: [], taskTools: false }));
    if (when === "always") rule.always = true;
    else {
      if (when.declared !== undefined && !rule.declared.includes(when.declared)) rule.declared.push(when.declared);
      if (when.stubbed) rule.stubbed.push(d.method);
      if (when.taskTools) rule.taskTools = true;
    }
  }
  return [...rules.values()];
}

/** The server capabilities, in the order `initialize` lists them, and when each is advertised. */
export const CAPABILITY_RULES: readonly CapabilityRule[] = capabilityRules();

/** What deciding the advertised capabilities reads from the mock (the engine implements it). */
export interface CapabilitySource {
  readonly tools: { readonly size: number; readonly taskCapable: boolean };
  readonly resources: { readonly size: number };
  readonly prompts: { readonly size: number };
  readonly registry: { forMethod(method: string): readonly { readonly stub: { readonly source: unknown } }[] };
  /** The `extensions` start option (advertised first). */
  readonly options: { readonly extensions?: ExtensionSettings | undefined };
  /** Extensions declared while the mock runs (after the option's; the same identifier replaces). */
  readonly extensions: Iterable<readonly [string, unknown]>;
}

/** Whether a user stub (not a built-in answer) answers the method. */
function stubbed(source: CapabilitySource, method: string): boolean {
  return source.registry.forMethod(method).some((e) => e.stub.source !== "default");
}

/**
 * The `capabilities` of the initialize result: each rule that holds, with a fresh copy of its
 * value, then the advertised extensions under `extensions` (each source of extensions is one
 * more list of entries handed to `withExtensions`).
 */
export function advertisedCapabilities(source: CapabilitySource): Record<string, unknown> {
  const caps: Record<string, unknown> = {};
  for (const rule of CAPABILITY_RULES) {
    if (rule.always || rule.declared.some((c) => source[c].size > 0) || rule.stubbed.some((m) => stubbed(source, m)) || (rule.taskTools && source.tools.taskCapable)) caps[rule.capability] = { ...rule.value };
  }
  return withExtensions(caps, Object.entries(source.options.extensions ?? {}), source.extensions);
}
