/**
 * Exchange (src/upstream/exchange.ts): one upstream HTTP request as undici's handler, driven here
 * the way undici drives it (head, body chunks, end), for how its body is read: whole at once
 * when it came with its head, through a reader otherwise.
 */
import { describe, expect, test } from "vitest";
import { Exchange, readBody } from "../../src/upstream/exchange.js";

/** An exchange whose head and `chunks` have come, and its end when `ended`. */
function answered(chunks: string[], ended = true): Exchange {
  const exchange = new Exchange();
  exchange.onConnect(() => {});
  exchange.onHeaders(200, ["Content-Type", "application/json"], "OK");
  for (const chunk of chunks) exchange.onData(Buffer.from(chunk));
  if (ended) exchange.onComplete();
  return exchange;
}

describe("Exchange", () => {
  test("a body that came whole with its head is taken at once, and only once", async () => {
    const exchange = answered(['{"jsonrpc":"2.0","id":1,"result":{}}']);
    expect((await exchange.responded).headers["content-type"]).toBe("application/json");
    expect(exchange.takeWhole(1024)?.toString("utf8")).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(exchange.takeWhole(1024)).toBeUndefined();
  });

  test("an empty body is taken as no bytes", () => {
    expect(answered([]).takeWhole(1024)?.length).toBe(0);
  });

  test("a body not yet ended, in several chunks, or over the limit is left for readBody, which reads all of it", async () => {
    const open = answered(['{"a":'], false);
    expect(open.takeWhole(1024)).toBeUndefined();
    const reading = readBody(open, 1024);
    open.onData(Buffer.from("1}"));
    open.onComplete();
    expect((await reading).bytes.toString("utf8")).toBe('{"a":1}');

    const split = answered(['{"a":', "2}"]);
    expect(split.takeWhole(1024)).toBeUndefined();
    expect((await readBody(split, 1024)).bytes.toString("utf8")).toBe('{"a":2}');

    const large = answered(["x".repeat(100)]);
    expect(large.takeWhole(99)).toBeUndefined();
    const read = await readBody(large, 99);
    expect(read.whole).toBe(false);
    expect(read.total).toBeGreaterThan(99);
  });
});
