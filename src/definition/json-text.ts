/**
 * A definition's JSON text read once more, for what `JSON.parse` does not say: where a syntax
 * error is when V8 gives no position (a trailing comma, a comment: "Unexpected token ']'"),
 * and the keys an object gives twice (JSON.parse keeps the last one without a word, so a second
 * "responses" list silently drops the first). Iterative: a file nested 100,000 deep is walked
 * without recursion.
 * @module
 */
import { propertyPath } from "../values/json-value.js";

/** A key given twice in one object: its JSON path, and where each occurrence starts. */
export interface DuplicateKey {
  readonly path: string;
  readonly at: number;
  readonly first: number;
}

interface Frame {
  /** An object's keys so far (with where each starts), or `undefined` for an array. */
  readonly keys: Map<string, number> | undefined;
  /** The current key (objects) or index (arrays), for paths. */
  step: string;
  index: number;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const PLAIN = /[^"\\\u0000-\u001f]+/y;
const LITERALS = ["true", "false", "null"];

/** The JSON path of the value a frame stack is at, in the definition checks' form (`responses[0].tool`). */
function pathOf(stack: readonly Frame[]): string {
  return stack.map((f) => f.step).join("").replace(/^\./, "");
}

/**
 * Scans JSON text: the offset of the first syntax error (`error`), or, for text that parses,
 * the keys given twice in one object. Keys are compared after unescaping, as JSON.parse does.
 */
export function scanJson(text: string): { error?: number; duplicates: DuplicateKey[] } {
  const n = text.length;
  const stack: Frame[] = [];
  const duplicates: DuplicateKey[] = [];
  let i = 0;
  const space = (): void => {
    for (let c = text.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++i));
  };
  /** At a quote: the string's value, with `i` past it; `undefined` at a mistake (`i` on it). */
  const string = (): string | undefined => {
    const start = i++;
    let escaped = false;
    while (i < n) {
      // A run of plain characters at once (most of a string).
      PLAIN.lastIndex = i;
      if (PLAIN.test(text)) i = PLAIN.lastIndex;
      const c = text.charCodeAt(i);
      if (c === 34) return escaped ? (JSON.parse(text.slice(start, ++i)) as string) : text.slice(start + 1, i++);
      if (c < 0x20) return undefined;
      if (c === 92) {
        escaped = true;
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else if (e === "u" && ((HEX4.lastIndex = i + 2), HEX4.test(text))) i += 6;
        else return undefined;
        continue;
      }
      i++;
    }
    return undefined;
  };
  const fail = (): { error: number; duplicates: DuplicateKey[] } => ({ error: Math.min(i, n), duplicates });
  // Two states: a value is expected, or a value just ended.
  let expectValue = true;
  for (;;) {
    space();
    if (expectValue) {
      const c = text[i];
      if (c === "{" || c === "[") {
        i++;
        space();
        if (text[i] === (c === "{" ? "}" : "]")) {
          i++;
          expectValue = false;
          continue;
        }
        const frame: Frame = { keys: c === "{" ? new Map() : undefined, step: "[0]", index: 0 };
        stack.push(frame);
        if (frame.keys === undefined) continue;
      } else if (c === '"') {
        if (string() === undefined) return fail();
        expectValue = false;
        continue;
      } else {
        const literal = LITERALS.find((l) => text.startsWith(l, i));
        if (literal !== undefined) i += literal.length;
        else if (((NUMBER.lastIndex = i), NUMBER.test(text))) i = NUMBER.lastIndex;
        else return fail();
        expectValue = false;
        continue;
      }
    } else {
      const top = stack[stack.length - 1];
      if (top === undefined) return i < n ? fail() : { duplicates };
      const c = text[i];
      if (c === (top.keys === undefined ? "]" : "}")) {
        i++;
        stack.pop();
        continue;
      }
      if (c !== ",") return fail();
      i++;
      if (top.keys === undefined) {
        top.step = `[${++top.index}]`;
        expectValue = true;
        continue;
      }
      space();
    }
    // An object's key (its first, or one after a comma), then the colon.
    const top = stack[stack.length - 1] as Frame & { keys: Map<string, number> };
    if (text[i] !== '"') return fail();
    const at = i;
    const key = string();
    if (key === undefined) return fail();
    top.step = propertyPath(key);
    const first = top.keys.get(key);
    if (first === undefined) top.keys.set(key, at);
    else duplicates.push({ path: pathOf(stack), at, first });
    space();
    if (text[i] !== ":") return fail();
    i++;
    expectValue = true;
  }
}

/** `line L, column C` of an offset in text (columns count UTF-16 units from 1, as editors near enough do). */
export function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `line ${before.split("\n").length}, column ${before.length - before.lastIndexOf("\n")}`;
}
