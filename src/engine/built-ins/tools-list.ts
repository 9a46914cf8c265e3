/**
 * The built-in answer of `tools/list`: the declared tools, one page at a time. An app-only
 * tool (`ui.visibility: ["app"]`) is listed only to a client that declared the ui extension
 * (at initialize in the 2025 era, in the request's `_meta` capabilities in 2026-07-28).
 * @module
 */
import type { McpCall } from "../../stubs/call.js";
import { MetaKeys, supportedRevision } from "../../protocol/revisions.js";
import { declaresUi } from "../../protocol/apps.js";
import { pagedList } from "./paged-list.js";
import type { BuiltInAnswer, DefaultsSource } from "./source.js";

/** Whether the client making the call declared the ui extension. */
export function clientDeclaresUi(source: DefaultsSource, call: McpCall): boolean {
  const perRequest = (call.params?.["_meta"] as Record<string, unknown> | undefined)?.[MetaKeys.clientCapabilities];
  if (perRequest !== undefined) return declaresUi(perRequest);
  const session = call.sessionId === undefined ? undefined : source.sessions.get(call.sessionId);
  return declaresUi(session?.clientCapabilities);
}

/** `tools/list`, answered by the mock itself. */
export const toolsListAnswer: BuiltInAnswer = (source) =>
  pagedList(source, "tools/list", "tools", (call) => source.tools.listed(supportedRevision(call.protocolVersion).structuredContent, clientDeclaresUi(source, call)));
