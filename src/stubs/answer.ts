/**
 * An answer: a value, or a function of the call that makes it. Its own file so that a stub
 * (`stub.ts`) and a stream script's steps (`stream-script.ts`) can both name it.
 * @module
 */
import type { McpCall } from "./call.js";

/**
 * A value, or a function of the call that returns one (possibly asynchronously).
 *
 * @example
 * ```ts
 * import { McpMock, type Answer } from "mcpmock";
 * await using mock = await McpMock.start();
 * const fixed: Answer<{ time: string }> = { time: "2026-01-01T00:00:00Z" };
 * const live: Answer<{ time: string }> = (call) => ({ time: `${new Date().toISOString()} for ${call.sessionId}` });
 * mock.method("clock/now").respondsWith(live);
 * mock.method("clock/now").withParams({ frozen: true }).respondsWith(fixed);
 * ```
 * @category Stubbing
 */
export type Answer<T, C = McpCall> = T | ((call: C) => T | Promise<T>);
