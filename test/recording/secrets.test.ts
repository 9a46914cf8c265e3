/**
 * What never reaches a recording: credential headers (the file holds no header at all, and a
 * credential value seen on the wire is replaced wherever a body repeats it), values named by
 * `--redact`; and what `--ignore` makes volatile: matched with { "$any": true } on replay.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpMock } from "../../src/mock.js";
import type { MockDefinition } from "../../src/definition/format.js";
import { toDefinition } from "../../src/recording/definition-writer.js";
import { http, mcpmock, stop, transcript, type Step } from "../support/recording.js";
// @ts-expect-error a JavaScript fixture
import { serveHttp } from "../fixtures/real-server.mjs";

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const SESSION: Step[] = [
  (c) => c.listTools(),
  (c) => c.callTool({ name: "secret", arguments: { password: "hunter2-pass" } }),
  (c) => c.callTool({ name: "stamp", arguments: { at: "2026-12-01T10:00:00Z", word: "hi" } }),
];

describe("secrets and volatile fields in a recording", () => {
  it("--redact blanks request and answer values; --ignore matches a volatile argument with any value", async () => {
    const real = await serveHttp();
    closers.push(real.close);
    const out = join(mkdtempSync(join(tmpdir(), "mcpmock-redact-")), "recorded.json");
    const recorder = mcpmock(["record", "--out", out, "--target", real.url, "--redact", "/arguments/password", "--redact", "/content/0/text", "--ignore", "/arguments/at"]);
    closers.push(() => stop(recorder));
    const [, url] = await recorder.line(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp) /);
    const recorded = await transcript(http(url!, { "x-api-key": "key-0123456789" }), SESSION);
    expect(await stop(recorder, "SIGTERM")).toBe(0);
    const text = readFileSync(out, "utf8");
    for (const secret of ["hunter2-pass", "s3cr3t-value", "key-0123456789"]) expect(text).not.toContain(secret);
    const def = JSON.parse(text) as MockDefinition;
    const secret = def.responses?.find((r) => r.tool === "secret");
    expect(secret).toMatchObject({ args: { password: { $any: true } }, result: { content: [{ type: "text", text: "[redacted]" }] } });
    const stamp = def.responses?.find((r) => r.tool === "stamp");
    expect(stamp?.args).toEqual({ at: { $any: true }, word: "hi" });

    // The replay answers the stamp call whatever time it carries, with the recorded answer.
    const mock = await McpMock.fromDefinition(out, { onUnmatched: "silent" });
    closers.push(() => mock.close());
    const later: Step = (c) => c.callTool({ name: "stamp", arguments: { at: "2027-01-01T00:00:00Z", word: "hi" } });
    const replayed = await transcript(http(mock.url), [later]);
    // (--redact /content/0/text blanked every answer's first text, this one's too.)
    expect(recorded[3]).toMatchObject({ content: [{ type: "text", text: expect.stringMatching(/^hi at \d+$/) }] });
    expect(replayed[1]).toEqual({ content: [{ type: "text", text: "[redacted]" }] });
  });

  it("replaces a credential value seen in a header wherever a body repeats it", () => {
    const exchanges = [
      { method: "tools/call", params: { name: "whoami", arguments: {} }, steps: [], times: [], answer: { result: { content: [{ type: "text", text: "you sent Bearer abc-123-token" }] } } },
    ];
    const def = toDefinition(exchanges, { secrets: ["Bearer abc-123-token", "abc-123-token"] });
    expect(JSON.stringify(def)).not.toContain("abc-123-token");
    expect(def.responses?.[0]?.result).toEqual({ content: [{ type: "text", text: "you sent [redacted]" }] });
  });
});
