/**
 * Declaring a mock's tools, resources and prompts from its options, each name once.
 * @module
 */
import { McpMockError } from "../values/errors.js";
import type { McpMockOptions } from "../options.js";
import type { ToolCatalog } from "../stubs/tool-catalog.js";
import type { ResourceCatalog } from "../stubs/resource-catalog.js";
import type { PromptCatalog } from "../stubs/prompt-catalog.js";
import { Apps } from "./apps.js";
import { Skills } from "./skills.js";

export { Apps, Skills };

/** Names declarations must not repeat, with the list they come from. */
export function declareAll<T>(items: readonly T[] | undefined, list: string, nameOf: (item: T) => unknown, declare: (item: T, where: string) => void): void {
  const seen = new Set<unknown>();
  (items ?? []).forEach((item, i) => {
    const name = nameOf(item);
    if (seen.has(name)) throw new McpMockError(`${list}[${i}]: ${JSON.stringify(name)} is declared twice. Give each one declaration.`);
    seen.add(name);
    declare(item, `${list}[${i}]`);
  });
}

/** Declares the start options' tools, resources, prompts, apps (after the tools, which name them) and skills; `proxied`: the upstream may serve apps the mock does not declare. */
export function declareOptions(into: { tools: ToolCatalog; resources: ResourceCatalog; prompts: PromptCatalog; apps: Apps; skills: Skills }, options: McpMockOptions, proxied: boolean): void {
  declareAll(options.tools, "tools", (t) => t?.name, (t, where) => into.tools.declare(t, where));
  declareAll(options.resources, "resources", (r) => (r as { uri?: string })?.uri ?? (r as { uriTemplate?: string })?.uriTemplate, (r, where) => into.resources.declare(r, where));
  declareAll(options.prompts, "prompts", (p) => p?.name, (p, where) => into.prompts.declare(p, where));
  into.apps.declareAll(options.apps, undefined, proxied);
  into.skills.declareAll(options.skills, undefined);
}
