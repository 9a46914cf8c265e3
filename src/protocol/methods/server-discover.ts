/**
 * `server/discover`: how a 2026-07-28 client learns what a server speaks, in place of
 * `initialize` (WIRE.md §10). The built-in answer says what the mock really serves: the
 * stateless versions it accepts, the capabilities it advertises (only what answers), its
 * instructions, and its `serverInfo` in `_meta`.
 * @module
 */
import { MetaKeys, STATELESS_PROTOCOL_VERSIONS } from "../revisions.js";
import type { DefaultsSource, MethodDescriptor } from "./descriptor.js";

/** The built-in discover result (the era adds `resultType`, `ttlMs` and `cacheScope`). */
export function defaultDiscoverResult(source: DefaultsSource): Record<string, unknown> {
  // The 2025-11-25 `tasks` capability is not 2026-07-28's: there tasks are an extension, declared under `extensions`.
  const { tasks, ...capabilities } = source.capabilities();
  if (tasks !== undefined) capabilities["extensions"] = { ...(capabilities["extensions"] as object | undefined), "io.modelcontextprotocol/tasks": {} };
  const result: Record<string, unknown> = {
    supportedVersions: [...source.statelessVersions()],
    capabilities,
  };
  const instructions = source.instructions();
  if (instructions !== undefined) result["instructions"] = instructions;
  result["_meta"] = { [MetaKeys.serverInfo]: source.serverInfo() };
  return result;
}

/** `server/discover` → `mock.serverDiscover()`. */
export const serverDiscover: MethodDescriptor = {
  method: "server/discover",
  direction: "client-request",
  revisions: STATELESS_PROTOCOL_VERSIONS,
  entryPoint: "serverDiscover",
  pattern: true,
  resultSchema: "DiscoverResultSchema",
  beforeSession: true,
  cacheable: true,
  emptyResult: { supportedVersions: [], capabilities: {} },
  builtIn: (source) => ({
    kind: "result",
    label: "the accepted versions, the served capabilities and serverInfo",
    result: () => defaultDiscoverResult(source),
  }),
};
