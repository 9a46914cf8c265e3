/**
 * The built-in answer of `server/discover`: what the mock really serves, the stateless
 * versions it accepts, the capabilities it advertises (only what answers), its instructions,
 * and its `serverInfo` in `_meta`.
 * @module
 */
import { MetaKeys } from "../../protocol/revisions.js";
import type { BuiltInAnswer, DefaultsSource } from "./source.js";

/** The built-in discover result (the era adds `resultType`, `ttlMs` and `cacheScope`). */
function defaultDiscoverResult(source: DefaultsSource): Record<string, unknown> {
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

/** `server/discover`, answered by the mock itself. */
export const serverDiscoverAnswer: BuiltInAnswer = (source) => ({
  kind: "result",
  label: "the accepted versions, the served capabilities and serverInfo",
  result: () => defaultDiscoverResult(source),
});
