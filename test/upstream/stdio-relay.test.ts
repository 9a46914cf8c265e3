/**
 * The stdio byte relay (src/upstream/stdio-relay.ts, under `mcpmock record` of a server a client
 * launches) passes bytes both ways as a pipe would, backpressure included: a server that stops
 * reading its stdin, or a client that stops reading its stdout, holds the other side instead of
 * the relay's memory.
 */
import { PassThrough, Writable } from "node:stream";
import { afterEach, expect, test } from "vitest";
import { relayBytes, type ByteRelay } from "../../src/upstream/stdio-relay.js";

const running: ByteRelay[] = [];
afterEach(async () => {
  for (const relay of running.splice(0)) {
    relay.stop();
    await relay.exited;
  }
});

const MiB = 1024 * 1024;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test("a server that reads nothing from its stdin holds the client's writes back (the relay keeps no more than a pipe's worth)", async () => {
  const input = new PassThrough();
  const relay = relayBytes({ command: process.execPath, args: ["-e", "setInterval(() => {}, 60_000)"], input, output: new PassThrough(), clientLine: () => {}, serverLine: () => {} });
  running.push(relay);
  // The client writes 64 MiB of lines as a well-behaved writer does, waiting whenever the relay's input is full.
  let accepted = 0;
  const chunk = Buffer.from(`${"x".repeat(MiB - 1)}\n`);
  const writing = (async () => {
    while (accepted < 64 * MiB) {
      accepted += chunk.length;
      if (!input.write(chunk)) await new Promise((resolve) => input.once("drain", resolve));
    }
  })();
  await Promise.race([writing, sleep(1_500)]);
  expect(accepted).toBeLessThan(8 * MiB);
});

test("a client that reads nothing from its stdout holds the server's output back", async () => {
  // A client's stdout that is never drained: its first write is taken and never finished, the
  // rest wait in its buffer (what the relay would fill without backpressure).
  const output = new Writable({ highWaterMark: 64 * 1024, write: () => {} });
  const script = `const c = Buffer.alloc(${MiB}, 120); let n = 0; const more = () => { while (n < 64) { n++; if (!process.stdout.write(c)) return void process.stdout.once("drain", more); } }; more(); setInterval(() => {}, 60_000);`;
  const relay = relayBytes({ command: process.execPath, args: ["-e", script], input: new PassThrough(), output, clientLine: () => {}, serverLine: () => {} });
  running.push(relay);
  await sleep(1_500);
  expect(output.writableLength).toBeGreaterThan(0);
  expect(output.writableLength).toBeLessThan(8 * MiB);
  // Stopped, it ends, though the client still reads nothing.
  relay.stop();
  expect(await Promise.race([relay.exited.then(() => "ended"), sleep(3_000).then(() => "held")])).toBe("ended");
});
