/**
 * `server/discover`: how a 2026-07-28 client learns what a server speaks, in place of
 * `initialize` (WIRE.md §10). Its built-in answer: `engine/built-ins/server-discover.ts`.
 * @module
 */
import { STATELESS_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

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
};
