/**
 * Extensions negotiation (SEP-2133), its wire facts: an extension is named
 * `{vendor-prefix}/{extension-name}` (the prefix in reverse DNS, `io.modelcontextprotocol/tasks`),
 * each side lists the ones it speaks under `capabilities.extensions` with its settings (an
 * object), in 2025-11-25's `initialize` and in 2026-07-28's `server/discover` and per-request
 * client capabilities. Nothing here knows any one extension.
 * @module
 */
import { isJsonObject } from "../values/json-value.js";
import { MetaKeys } from "./revisions.js";

/** The capabilities key under which both sides list their extensions. */
export const EXTENSIONS_CAPABILITY = "extensions";

/** `{vendor-prefix}/{extension-name}`: a reverse-DNS prefix, one slash, a name. */
export const EXTENSION_ID = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/**
 * Extensions by their identifier, each with its settings (an object, `{}` when it has none).
 *
 * @example
 * ```ts
 * import { McpMock, type ExtensionSettings } from "mcpmock";
 * const extensions: ExtensionSettings = { "com.example/feature": { level: 2 } };
 * await using mock = await McpMock.start({ extensions });
 * ```
 * @category Starting
 */
export type ExtensionSettings = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/**
 * What is wrong with an `extensions` value (a map of identifiers to settings objects), one
 * sentence each with the fix; none when it is right.
 */
export function extensionProblems(value: unknown, where: string): string[] {
  if (!isJsonObject(value)) return [`${where} must be an object of extensions by identifier, like { "com.example/feature": { "setting": 1 } }, received ${JSON.stringify(value) ?? String(value)}.`];
  const problems: string[] = [];
  for (const [id, settings] of Object.entries(value)) {
    if (!EXTENSION_ID.test(id)) problems.push(`${where}: ${JSON.stringify(id)} is not an extension identifier. Write it "{vendor-prefix}/{extension-name}" with a reverse-DNS prefix, like "com.example/feature".`);
    if (!isJsonObject(settings)) problems.push(`${where}[${JSON.stringify(id)}]: an extension's settings are an object (\`{}\` for none), received ${JSON.stringify(settings) ?? String(settings)}.`);
  }
  return problems;
}

/**
 * Capabilities with the extensions of every entry list added under `extensions` (the
 * capabilities' own first, then each list in turn; a later entry for the same identifier
 * replaces an earlier one). Several parts of the mock advertise extensions: each hands its
 * entries here, none rewrites another's. Without any, the capabilities are returned as they are.
 */
export function withExtensions(capabilities: Record<string, unknown>, ...entries: ReadonlyArray<Iterable<readonly [string, unknown]>>): Record<string, unknown> {
  let merged: Record<string, unknown> | undefined;
  for (const list of entries) {
    for (const [id, settings] of list) {
      merged ??= { ...(isJsonObject(capabilities[EXTENSIONS_CAPABILITY]) ? capabilities[EXTENSIONS_CAPABILITY] : {}) };
      merged[id] = settings;
    }
  }
  return merged === undefined ? capabilities : { ...capabilities, [EXTENSIONS_CAPABILITY]: merged };
}

/**
 * The extensions a request itself declares, when it carries the client's capabilities:
 * `initialize`'s `params.capabilities`, or a 2026-07-28 request's
 * `_meta["io.modelcontextprotocol/clientCapabilities"]`. `undefined` when it declares none.
 */
export function requestExtensions(method: string, params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (params === undefined) return undefined;
  const meta = params["_meta"];
  const capabilities = method === "initialize" ? params["capabilities"] : isJsonObject(meta) ? meta[MetaKeys.clientCapabilities] : undefined;
  return capabilitiesExtensions(capabilities);
}

/** The `extensions` of a capabilities object, when it has some. */
export function capabilitiesExtensions(capabilities: unknown): Record<string, unknown> | undefined {
  if (!isJsonObject(capabilities)) return undefined;
  const extensions = capabilities[EXTENSIONS_CAPABILITY];
  return isJsonObject(extensions) && Object.keys(extensions).length > 0 ? extensions : undefined;
}
