/**
 * The protocol-version matchers: a stub narrowed to one revision (`withProtocolVersion`), and
 * the built-in answers' revisions (`ping` is not in 2026-07-28).
 * @module
 */
import type { Matcher } from "./matchers.js";

const MATCH = { distance: 0 } as const;

/** The protocol version in effect for the request. */
export function protocolVersionIs(version: string): Matcher {
  return {
    kind: "protocolVersion",
    specific: false,
    dsl: `.withProtocolVersion(${JSON.stringify(version)})`,
    describe: () => `at protocol version ${version}`,
    rows: (call) => {
      const row = { expected: `protocol version: ${version}`, actual: `protocol version: ${call.protocolVersion}` };
      return [call.protocolVersion === version ? row : { ...row, mismatch: "protocol version" }];
    },
    match: (call) =>
      call.protocolVersion === version
        ? MATCH
        : { distance: 1, diffs: [{ path: "protocolVersion", expected: version, actual: call.protocolVersion, reason: "differs" }] },
  };
}

/**
 * The protocol version in effect is one of `versions` (newest first): how a built-in answer
 * says which revisions have its method (`ping` is not in 2026-07-28).
 */
export function protocolVersionIn(versions: readonly string[]): Matcher {
  if (versions.length === 1) return protocolVersionIs(versions[0] as string);
  const range = `${versions[versions.length - 1]} to ${versions[0]}`;
  return {
    kind: "protocolVersion",
    specific: false,
    dsl: `.withProtocolVersion(${JSON.stringify(versions[0])})`,
    describe: () => `at protocol versions ${range}`,
    rows: (call) => {
      const row = { expected: `protocol version: ${range}`, actual: `protocol version: ${call.protocolVersion}` };
      return [versions.includes(call.protocolVersion) ? row : { ...row, mismatch: "protocol version" }];
    },
    match: (call) =>
      versions.includes(call.protocolVersion)
        ? MATCH
        : { distance: 1, diffs: [{ path: "protocolVersion", expected: range, actual: call.protocolVersion, reason: "differs" }] },
  };
}
