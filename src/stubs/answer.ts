/**
 * An answer: a value, or a function of the call that makes it. Its own file so that a stub
 * (`stub.ts`) and a stream script's steps (`stream-script.ts`) can both name it.
 * @module
 */
import type { McpCall } from "./call.js";

/** A value, or a function of the call that returns one (possibly asynchronously). @category Stubbing */
export type Answer<T, C = McpCall> = T | ((call: C) => T | Promise<T>);
