/**
 * Issue 32, item 9: `mcpmock record --redact /arguments/word` blanks the request's value and
 * also every place the recording repeats it (the server echoed it in its answer, where it was
 * written as sent). A redacted value is redacted wherever it appears.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import type { MockDefinition } from "mcpmock";
import { http, mcpmock, stop, transcript } from "../support/recording.js";
// @ts-expect-error a JavaScript fixture
import { serveHttp } from "../fixtures/real-server.mjs";

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

test("a value named by --redact in the request is blanked in the answer that echoes it too", async () => {
  const real = (await serveHttp()) as { url: string; close: () => Promise<void> };
  closers.push(real.close);
  const dir = mkdtempSync(join(tmpdir(), "mcpmock-redact-"));
  closers.push(async () => rmSync(dir, { recursive: true, force: true })); // runs after the recorder stops
  const out = join(dir, "recorded.json");
  const recorder = mcpmock(["record", "--out", out, "--target", real.url, "--redact", "/arguments/word"]);
  closers.push(() => stop(recorder));
  const [, url] = await recorder.line(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp) /);
  await transcript(http(url as string), [(c) => c.listTools(), (c) => c.callTool({ name: "stamp", arguments: { at: "now", word: "open-sesame-42" } })]);
  expect(await stop(recorder, "SIGTERM")).toBe(0);
  const text = readFileSync(out, "utf8");
  expect(text).not.toContain("open-sesame-42");
  const def = JSON.parse(text) as MockDefinition;
  const stamp = def.responses?.find((r) => "tool" in r && r.tool === "stamp");
  expect(stamp).toMatchObject({ args: { word: { $any: true } }, result: { content: [{ type: "text", text: expect.stringMatching(/^\[redacted\] at \d+$/) }] } });
}, 30_000);
