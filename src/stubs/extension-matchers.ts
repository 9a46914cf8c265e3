/**
 * The client-extension matcher (`withClientExtension`): the request's client declared an
 * extension (SEP-2133), and, when settings are given, settings containing them.
 * @module
 */
import type { Matcher } from "./matchers.js";
import { diffJson } from "../values/json-value.js";
import { showExpected } from "../values/value-patterns.js";

const MATCH = { distance: 0 } as const;

/** The client declared extension `id`; with `settings`, its settings contain those fields (`ANY` and value patterns inside). */
export function clientExtensionIs(id: string, settings?: Record<string, unknown>): Matcher {
  const shown = settings === undefined ? "" : ` with settings containing ${showExpected(settings, 200)}`;
  const path = `clientExtensions[${JSON.stringify(id)}]`;
  const check = (declared: Readonly<Record<string, unknown>>) => {
    const actual = declared[id];
    if (actual === undefined) return { distance: 1, diffs: [{ path, expected: settings ?? {}, actual: undefined, reason: "missing" }] };
    if (settings === undefined) return MATCH;
    const diffs = diffJson(settings, actual, path, true);
    return diffs.length === 0 ? MATCH : { distance: 0.5, diffs };
  };
  const declaredText = (declared: Readonly<Record<string, unknown>>): string => {
    const ids = Object.keys(declared);
    return ids.length === 0 ? "client extensions: none" : `client extensions: ${ids.join(", ")}`;
  };
  return {
    kind: "clientExtension",
    specific: false,
    dsl: `.withClientExtension(${JSON.stringify(id)}${settings === undefined ? "" : `, ${showExpected(settings, 200)}`})`,
    describe: () => `from a client declaring the extension ${JSON.stringify(id)}${shown}`,
    match: (call) => check(call.clientExtensions),
    rows: (call) => {
      const row = { expected: `client extension: ${id}${shown}`, actual: declaredText(call.clientExtensions) };
      return [check(call.clientExtensions).distance === 0 ? row : { ...row, mismatch: "client extension" }];
    },
  };
}
