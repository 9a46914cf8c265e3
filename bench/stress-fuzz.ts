/**
 * Structured fuzz bodies for `npm run stress`: valid and broken JSON-RPC with deep nesting,
 * huge strings, lone surrogates, `__proto__` and `constructor` keys, huge numbers, odd ids.
 * Deterministic (seeded), so a failing body can be found again by its index.
 * @module
 */

import { seededRandom as seeded } from "../src/stubs/random-delay.js";

const deep = (n: number, inner = "1") => `${"[".repeat(n)}${inner}${"]".repeat(n)}`;
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;

/** The i-th body of a run of `total`. */
export function fuzzBodies(total: number): (i: number) => string {
  const huge = "h".repeat(1024 * 1024);
  return (i) => {
    const random = seeded(i * 7919 + total);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const id = pick(['1', '"a"', "null", "1.5", "1e308", "-0", "9007199254740993", deep(600), '{"__proto__":1}', '"\\ud800"', "true"]);
    const args = pick([
      "{}",
      `{"a":${deep(Math.floor(random() * 2000))}}`,
      `{"a":${deepObject(Math.floor(random() * 1000))}}`,
      `{"s":"${huge.slice(0, Math.floor(random() * huge.length))}"}`,
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      '{"s":"\\ud800\\udfff\\ud800"}',
      '{"n":1e400,"m":-1e-400,"k":123456789012345678901234567890}',
      '{"x":"\\u0000\\u001f\\uffff"}',
      '[1,2,3]',
      '"text"',
    ]);
    const method = pick(['"tools/call"', '"ping"', '"tools/list"', '"resources/read"', '"nope/x"', "5", '"__proto__"', '"constructor"']);
    const shape = pick(["request", "request", "request", "notification", "batch", "broken", "response"]);
    const params = `{"name":${pick(['"echo"', '"nope"', "7", '"__proto__"'])},"arguments":${args}}`;
    switch (shape) {
      case "notification":
        return `{"jsonrpc":"2.0","method":${method},"params":${params}}`;
      case "batch":
        return `[{"jsonrpc":"2.0","id":${id},"method":${method},"params":${params}},{"jsonrpc":"2.0","id":2,"method":"ping"}]`;
      case "broken":
        return `{"jsonrpc":"2.0","id":${id},"method":${method},"params":${params}`.slice(0, Math.floor(random() * 200));
      case "response":
        return `{"jsonrpc":"2.0","id":${id},"result":${args}}`;
      default:
        return `{"jsonrpc":"2.0","id":${id},"method":${method},"params":${params}}`;
    }
  };
}
